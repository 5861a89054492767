#include "egraph/graph.hpp"

#include "core/error.hpp"

namespace plumbline::graph {

int Graph::input(const std::string& name, const Shape& shape) {
  for (const auto& [n, id] : inputs())
    if (n == name) throw Error("graph input '" + name + "' is declared twice");
  return add("var", {}, {{"name", name}, {"shape", shape_text(shape)}});
}

int Graph::fill(const Shape& shape, double value) { return add("fill", {}, {{"shape", shape_text(shape)}, {"value", value}}); }

int Graph::add(const std::string& op_name, std::vector<int> args, const Attrs& attrs) {
  const GraphOp& op = find_graph_op(op_name);
  Node n;
  n.op = &op;
  n.attrs = complete_attrs(op, attrs);
  std::vector<Shape> in;
  for (int a : args) {
    if (a < 0 || a >= size()) throw Error(op_name + ": argument %" + std::to_string(a) + " is not a node of the graph");
    in.push_back(node(a).shape);
  }
  n.shape = infer_shape(op, in, n.attrs);
  n.args = std::move(args);
  nodes_.push_back(std::move(n));
  return size() - 1;
}

void Graph::set_output(const std::string& name, int id) {
  if (id < 0 || id >= size()) throw Error("graph output '" + name + "' names no node");
  for (auto& [n, i] : outputs_)
    if (n == name) throw Error("graph output '" + name + "' is set twice");
  outputs_.emplace_back(name, id);
}

std::vector<std::pair<std::string, int>> Graph::inputs() const {
  std::vector<std::pair<std::string, int>> v;
  for (int i = 0; i < size(); ++i)
    if (node(i).op->name == "var") v.emplace_back(attr_s(node(i).attrs, "name"), i);
  return v;
}

int Graph::output(const std::string& name) const {
  for (const auto& [n, id] : outputs_)
    if (n == name) return id;
  throw Error("the graph has no output named '" + name + "'");
}

std::vector<bool> Graph::live() const {
  std::vector<bool> live(nodes_.size(), false);
  for (const auto& [n, id] : outputs_) live[static_cast<size_t>(id)] = true;
  for (int i = size() - 1; i >= 0; --i)
    if (live[static_cast<size_t>(i)])
      for (int a : node(i).args) live[static_cast<size_t>(a)] = true;
  return live;
}

std::string Graph::str() const {
  std::string s;
  for (int i = 0; i < size(); ++i) {
    const Node& n = node(i);
    s += "%" + std::to_string(i) + " = " + n.op->name;
    const std::string a = attrs_str(n.attrs);
    if (!a.empty()) s += " " + a;
    for (int x : n.args) s += " %" + std::to_string(x);
    s += "   " + n.shape.str() + "\n";
  }
  for (const auto& [name, id] : outputs_) s += "output " + name + " = %" + std::to_string(id) + "\n";
  return s;
}

}  // namespace plumbline::graph
