#include "egraph/interpret.hpp"

#include "core/error.hpp"

namespace plumbline::graph {

template <class T>
void check_bindings(const Graph& g, const Bindings<T>& inputs) {
  const auto declared = g.inputs();
  for (const auto& [name, t] : inputs) {
    bool known = false;
    for (const auto& [n, id] : declared)
      if (n == name) {
        known = true;
        if (!(g.node(id).shape == t.shape))
          throw Error("graph input '" + name + "' is " + g.node(id).shape.str() + ", the value bound is " + t.shape.str());
      }
    if (!known) throw Error("the graph has no input named '" + name + "'");
  }
  for (const auto& [n, id] : declared)
    if (!inputs.contains(n)) throw Error("graph input '" + n + "' has no value");
}

template <class T>
std::vector<Tensor<T>> interpret(const Graph& g, const Bindings<T>& inputs) {
  check_bindings(g, inputs);
  const std::vector<bool> live = g.live();
  std::vector<Tensor<T>> v(static_cast<size_t>(g.size()));
  for (int i = 0; i < g.size(); ++i) {
    if (!live[static_cast<size_t>(i)]) continue;
    const Node& n = g.node(i);
    if (n.op->name == "var") {
      v[static_cast<size_t>(i)] = inputs.at(attr_s(n.attrs, "name"));
      continue;
    }
    std::vector<Tensor<T>> args;
    for (int a : n.args) args.push_back(v[static_cast<size_t>(a)]);
    v[static_cast<size_t>(i)] = evaluate<T>(*n.op, args, n.attrs);
  }
  return v;
}

template <class T>
Bindings<T> run_graph(const Graph& g, const Bindings<T>& inputs) {
  const auto v = interpret<T>(g, inputs);
  Bindings<T> out;
  for (const auto& [name, id] : g.outputs()) out[name] = v[static_cast<size_t>(id)];
  return out;
}

template void check_bindings(const Graph&, const Bindings<double>&);
template void check_bindings(const Graph&, const Bindings<float>&);
template std::vector<Tensor<double>> interpret(const Graph&, const Bindings<double>&);
template std::vector<Tensor<float>> interpret(const Graph&, const Bindings<float>&);
template Bindings<double> run_graph(const Graph&, const Bindings<double>&);
template Bindings<float> run_graph(const Graph&, const Bindings<float>&);

}  // namespace plumbline::graph
