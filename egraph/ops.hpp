#pragma once
// The operators of the graph IR. Most are registry operators (core/ops) seen through their tensors'
// shapes: a graph node carries only the attributes that shapes cannot tell (stride, eps, act, ...);
// the rest (m, k, n, c, h, ...) are bound from its inputs' shapes into a Problem, which the reference
// and the OpenCL kernels then evaluate. A multi-output operator appears once per output
// ("group_norm_bwd.d_gamma"). A few graph-only operators move data (reshape, permute, broadcasts,
// flip_kernel) or name leaves (var, fill); they are evaluated here, exactly, in any scalar type.
// Each family's file (egraph/ops/<family>.cpp) declares its operators, their binders and gradients.
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/problem.hpp"
#include "core/registry.hpp"
#include "core/tensor.hpp"

namespace plumbline::graph {

// A node's attributes, complete (defaults filled) and in the operator's order.
using Attrs = std::vector<std::pair<std::string, AttrValue>>;

const AttrValue& attr(const Attrs& a, const std::string& name);  // Error if absent
int64_t attr_i(const Attrs& a, const std::string& name);
double attr_f(const Attrs& a, const std::string& name);
const std::string& attr_s(const Attrs& a, const std::string& name);
std::string attrs_str(const Attrs& a);  // ":sh 1 :act relu" (the rules file's syntax)

// Shapes as attribute text: "2,3,7,7"; "" is a scalar.
std::string shape_text(const Shape& s);
Shape parse_shape_text(const std::string& text);  // Error on a malformed text

class Graph;

template <class T>
using NativeFn = std::function<Tensor<T>(const std::vector<Tensor<T>>&, const Attrs&, const Shape& out)>;
// Reverse mode: given the node's inputs, the node itself and the gradient of its output, add the
// gradients of its inputs to the graph (-1: none: not differentiable or not a real input).
using VjpFn = std::function<std::vector<int>(Graph& g, const std::vector<int>& args, int self, int d_out, const Attrs& attrs)>;

struct GraphOp {
  std::string name;
  int min_args = 0, max_args = 0;
  std::vector<AttrSpec> attrs;  // node attributes (Enum with no choices: free text)
  std::string summary;

  // Registry operators: which operator and output, and how shapes bind its remaining attributes.
  std::string problem_op;  // "" for graph-only operators
  std::string output;      // the signature's output this node is
  std::function<std::vector<std::pair<std::string, AttrValue>>(const std::vector<Shape>&, const Attrs&)> bind;
  bool flat = false;  // elementwise over any shape (the registry sees [numel])

  // Graph-only operators.
  std::function<Shape(const std::vector<Shape>&, const Attrs&)> shape;
  NativeFn<double> eval_d;
  NativeFn<float> eval_f;
  double flops_per_element = 0;
  bool is_view = false;  // reshape: no data moves

  VjpFn vjp;  // empty: no gradient (backward operators, leaves)
};

const std::vector<GraphOp>& graph_ops();
const GraphOp& find_graph_op(const std::string& name);  // Error listing the known names
const GraphOp* find_graph_op_or_null(const std::string& name);
int graph_op_index(const GraphOp& op);

// Fills defaults and checks names, kinds and choices. Errors name the operator and the attribute.
Attrs complete_attrs(const GraphOp& op, const Attrs& given);

// The registry problem a node of a registry operator evaluates (Error if the shapes do not fit).
Problem problem_of(const GraphOp& op, const std::vector<Shape>& in, const Attrs& attrs);
// The output shape; Error("<op>: ...") naming the operator and the shapes when they do not fit.
Shape infer_shape(const GraphOp& op, const std::vector<Shape>& in, const Attrs& attrs);

template <class T>
Tensor<T> evaluate(const GraphOp& op, const std::vector<Tensor<T>>& in, const Attrs& attrs);

// Work of one node: FLOPs, bytes moved, kernel launches.
struct Work {
  double flops = 0, bytes = 0, launches = 0;
};
Work work_of(const GraphOp& op, const std::vector<Shape>& in, const Attrs& attrs, const Shape& out);

// Family tables (egraph/ops/<family>.cpp).
void add_gemm_graph_ops(std::vector<GraphOp>& ops);
void add_conv_graph_ops(std::vector<GraphOp>& ops);
void add_norm_graph_ops(std::vector<GraphOp>& ops);
void add_softmax_graph_ops(std::vector<GraphOp>& ops);
void add_elementwise_graph_ops(std::vector<GraphOp>& ops);
void add_pooling_graph_ops(std::vector<GraphOp>& ops);
void add_reduction_graph_ops(std::vector<GraphOp>& ops);
void add_data_graph_ops(std::vector<GraphOp>& ops);  // graph-only: var, fill, reshape, permute, ...

// Helpers for the family files.
// A registry operator's node: its attributes are the registry's minus `shape_attrs` (bound by `bind`).
GraphOp registry_graph_op(const std::string& name, const std::string& problem_op, const std::string& output, int min_args, int max_args,
                          const std::vector<std::string>& shape_attrs, decltype(GraphOp::bind) bind);
void need_rank(const std::string& op, const std::vector<Shape>& in, size_t i, std::initializer_list<int> ranks);

}  // namespace plumbline::graph
