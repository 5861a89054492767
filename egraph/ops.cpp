#include "egraph/ops.hpp"

#include <algorithm>
#include <sstream>

#include "core/error.hpp"
#include "reference/reference.hpp"

namespace plumbline::graph {

const AttrValue& attr(const Attrs& a, const std::string& name) {
  for (const auto& [n, v] : a)
    if (n == name) return v;
  throw Error("no attribute '" + name + "' (have: " + attrs_str(a) + ")");
}
int64_t attr_i(const Attrs& a, const std::string& name) { return std::get<int64_t>(attr(a, name)); }
double attr_f(const Attrs& a, const std::string& name) { return std::get<double>(attr(a, name)); }
const std::string& attr_s(const Attrs& a, const std::string& name) { return std::get<std::string>(attr(a, name)); }

std::string attrs_str(const Attrs& a) {
  std::string s;
  for (const auto& [n, v] : a) {
    const std::string text = format_attr(v);
    s += (s.empty() ? ":" : " :") + n + " " + (text.empty() ? "\"\"" : text);
  }
  return s;
}

std::string shape_text(const Shape& s) {
  std::string t;
  for (int i = 0; i < s.rank(); ++i) t += (i ? "," : "") + std::to_string(s[i]);
  return t;
}

Shape parse_shape_text(const std::string& text) {
  std::vector<int64_t> dims;
  if (text.empty()) return Shape{};
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) {
    size_t used = 0;
    int64_t d = -1;
    try {
      d = std::stoll(part, &used);
    } catch (const std::exception&) {
    }
    if (used != part.size() || d < 1) throw Error("malformed shape '" + text + "': dimensions are positive integers, e.g. 2,3,7,7");
    dims.push_back(d);
  }
  return Shape(dims);
}

static std::vector<GraphOp> build_table() {
  std::vector<GraphOp> ops;
  add_gemm_graph_ops(ops);
  add_conv_graph_ops(ops);
  add_norm_graph_ops(ops);
  add_softmax_graph_ops(ops);
  add_elementwise_graph_ops(ops);
  add_pooling_graph_ops(ops);
  add_reduction_graph_ops(ops);
  add_data_graph_ops(ops);
  return ops;
}

const std::vector<GraphOp>& graph_ops() {
  static const std::vector<GraphOp> table = build_table();
  return table;
}

const GraphOp* find_graph_op_or_null(const std::string& name) {
  for (const auto& op : graph_ops())
    if (op.name == name) return &op;
  return nullptr;
}

const GraphOp& find_graph_op(const std::string& name) {
  if (const GraphOp* op = find_graph_op_or_null(name)) return *op;
  std::string known;
  for (const auto& op : graph_ops()) known += (known.empty() ? "" : " ") + op.name;
  throw Error("unknown graph operator '" + name + "'; known: " + known);
}

int graph_op_index(const GraphOp& op) { return static_cast<int>(&op - graph_ops().data()); }

Attrs complete_attrs(const GraphOp& op, const Attrs& given) {
  for (const auto& kv : given) {
    const std::string& n = kv.first;  // clang 14 cannot capture a structured binding
    if (std::none_of(op.attrs.begin(), op.attrs.end(), [&](const AttrSpec& s) { return s.name == n; })) {
      std::string names;
      for (const auto& s : op.attrs) names += (names.empty() ? "" : " ") + s.name;
      throw Error(op.name + ": unknown attribute '" + n + "' (attributes: " + (names.empty() ? "none" : names) + ")");
    }
  }
  Attrs out;
  for (const auto& spec : op.attrs) {
    AttrValue v = spec.def;
    for (const auto& [n, g] : given)
      if (n == spec.name) v = g;
    const std::string where = op.name + ": attribute '" + spec.name + "' ";
    switch (spec.kind) {
      case AttrKind::Int:
        if (!std::holds_alternative<int64_t>(v)) throw Error(where + "must be an integer");
        if (std::get<int64_t>(v) < spec.min) throw Error(where + "must be >= " + std::to_string(spec.min));
        break;
      case AttrKind::Float:
        if (std::holds_alternative<int64_t>(v)) v = static_cast<double>(std::get<int64_t>(v));
        if (!std::holds_alternative<double>(v)) throw Error(where + "must be a number");
        break;
      case AttrKind::Enum:
        if (!std::holds_alternative<std::string>(v)) throw Error(where + "must be a name");
        if (!spec.choices.empty() && std::find(spec.choices.begin(), spec.choices.end(), std::get<std::string>(v)) == spec.choices.end()) {
          std::string c;
          for (const auto& x : spec.choices) c += (c.empty() ? "" : ", ") + x;
          throw Error(where + "is '" + std::get<std::string>(v) + "', not one of " + c);
        }
        break;
    }
    out.emplace_back(spec.name, v);
  }
  return out;
}

static std::string shapes_str(const std::vector<Shape>& in) {
  std::string s;
  for (const auto& x : in) s += (s.empty() ? "" : " ") + x.str();
  return s;
}

Problem problem_of(const GraphOp& op, const std::vector<Shape>& in, const Attrs& attrs) {
  if (op.problem_op.empty()) throw Error(op.name + " is a graph-only operator: it has no registry problem");
  if (static_cast<int>(in.size()) < op.min_args || static_cast<int>(in.size()) > op.max_args)
    throw Error(op.name + ": takes " + std::to_string(op.min_args) + (op.max_args != op.min_args ? " to " + std::to_string(op.max_args) : "") +
                " arguments, got " + std::to_string(in.size()));
  std::vector<std::pair<std::string, AttrValue>> all(attrs.begin(), attrs.end());
  for (auto& kv : op.bind(in, attrs)) all.push_back(std::move(kv));
  Problem p;
  try {
    p = Problem::make(op.problem_op, all);
  } catch (const Error& e) {
    throw Error(op.name + " on " + shapes_str(in) + ": " + e.what());
  }
  const Signature sig = signature_of(p);
  if (sig.inputs.size() != in.size())
    throw Error(op.name + " on " + shapes_str(in) + ": " + p.line() + " takes " + std::to_string(sig.inputs.size()) + " inputs");
  for (size_t i = 0; i < in.size(); ++i) {
    const bool fits = op.flat ? sig.inputs[i].shape.numel() == in[i].numel() && in[i] == in[0] : sig.inputs[i].shape == in[i];
    if (!fits)
      throw Error(op.name + " on " + shapes_str(in) + ": input '" + sig.inputs[i].name + "' must be " +
                  (op.flat ? in[0].str() + " like the first" : sig.inputs[i].shape.str()) + " (" + p.line() + ")");
  }
  return p;
}

static int output_index(const GraphOp& op, const Signature& sig) {
  for (size_t i = 0; i < sig.outputs.size(); ++i)
    if (sig.outputs[i].name == op.output) return static_cast<int>(i);
  throw Error(op.name + ": the registry operator has no output '" + op.output + "'");
}

Shape infer_shape(const GraphOp& op, const std::vector<Shape>& in, const Attrs& attrs) {
  if (op.problem_op.empty()) {
    if (static_cast<int>(in.size()) < op.min_args || static_cast<int>(in.size()) > op.max_args)
      throw Error(op.name + ": takes " + std::to_string(op.min_args) + " arguments, got " + std::to_string(in.size()));
    return op.shape(in, attrs);
  }
  const Problem p = problem_of(op, in, attrs);
  const Signature sig = signature_of(p);
  const Shape out = sig.outputs[static_cast<size_t>(output_index(op, sig))].shape;
  return op.flat ? in[0] : out;
}

template <class T>
Tensor<T> evaluate(const GraphOp& op, const std::vector<Tensor<T>>& in, const Attrs& attrs) {
  std::vector<Shape> shapes;
  for (const auto& t : in) shapes.push_back(t.shape);
  const Shape out_shape = infer_shape(op, shapes, attrs);
  if (op.problem_op.empty()) {
    if constexpr (std::is_same_v<T, double>)
      return op.eval_d(in, attrs, out_shape);
    else
      return op.eval_f(in, attrs, out_shape);
  }
  const Problem p = problem_of(op, shapes, attrs);
  const Signature sig = signature_of(p);
  std::vector<Tensor<T>> args = in;
  for (size_t i = 0; i < args.size(); ++i) args[i].shape = sig.inputs[i].shape;  // flat operators see [numel]
  std::vector<Tensor<T>> outs;
  if constexpr (std::is_same_v<T, double>)
    outs = run_reference(p, args);
  else
    outs = run_reference_f32(p, args);
  Tensor<T> y = std::move(outs[static_cast<size_t>(output_index(op, sig))]);
  y.shape = out_shape;
  return y;
}
template Tensor<double> evaluate(const GraphOp&, const std::vector<Tensor<double>>&, const Attrs&);
template Tensor<float> evaluate(const GraphOp&, const std::vector<Tensor<float>>&, const Attrs&);

Work work_of(const GraphOp& op, const std::vector<Shape>& in, const Attrs& attrs, const Shape& out) {
  Work w;
  if (!op.problem_op.empty()) {
    const Signature sig = signature_of(problem_of(op, in, attrs));
    w.flops = sig.flops;
    w.bytes = sig.bytes();
    w.launches = 1;
    return w;
  }
  if (op.is_view || op.min_args == 0) return w;  // a view, a leaf
  for (const auto& s : in) w.bytes += 4.0 * static_cast<double>(s.numel());
  w.bytes += 4.0 * static_cast<double>(out.numel());
  w.flops = op.flops_per_element * static_cast<double>(out.numel());
  w.launches = 1;
  return w;
}

GraphOp registry_graph_op(const std::string& name, const std::string& problem_op, const std::string& output, int min_args, int max_args,
                          const std::vector<std::string>& shape_attrs, decltype(GraphOp::bind) bind) {
  const OpSpec& spec = Registry::get().find(problem_op);
  GraphOp op;
  op.name = name;
  op.summary = spec.summary;
  op.problem_op = problem_op;
  op.output = output;
  op.min_args = min_args;
  op.max_args = max_args;
  for (const auto& a : spec.attrs)
    if (std::find(shape_attrs.begin(), shape_attrs.end(), a.name) == shape_attrs.end()) op.attrs.push_back(a);
  op.bind = std::move(bind);
  return op;
}

void need_rank(const std::string& op, const std::vector<Shape>& in, size_t i, std::initializer_list<int> ranks) {
  if (i >= in.size()) throw Error(op + ": missing argument " + std::to_string(i + 1));
  for (int r : ranks)
    if (in[i].rank() == r) return;
  std::string want;
  for (int r : ranks) want += (want.empty() ? "" : " or ") + std::to_string(r);
  throw Error(op + ": argument " + std::to_string(i + 1) + " must have rank " + want + ", got " + in[i].str());
}

}  // namespace plumbline::graph
