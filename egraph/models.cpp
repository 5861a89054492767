#include "egraph/models.hpp"

namespace plumbline::egraph {

using graph::Graph;

namespace {

int linear(Graph& g, int x, int w, int b) { return g.add("bias_add", {g.add("matmul", {x, w}), b}); }

// y W^T + b with W stored [out, in], written with an explicit transpose as a framework user would.
int linear_t(Graph& g, int x, int w, int b) { return g.add("bias_add", {g.add("matmul", {x, g.add("transpose", {w})}), b}); }

int weighted_sum(Graph& g, int y, int t) {
  const Shape s = g.node(y).shape;
  const int flat = g.add("reshape", {g.add("mul", {y, t})}, {{"shape", graph::shape_text(Shape{1, s.numel()})}});
  return g.add("sum", {flat}, {{"over", std::string("all")}});
}

void declare(TrainingGraph& t, const std::string& name, const Shape& s, Domain d = Domain::Real, int64_t classes = 0) {
  t.graph.input(name, s);
  t.inputs[name] = TensorDecl{name, s, d, classes};
}

int in(const TrainingGraph& t, const std::string& name) {
  for (const auto& [n, id] : t.graph.inputs())
    if (n == name) return id;
  return -1;
}

}  // namespace

TrainingGraph mlp_gelu(int64_t batch, int64_t d, int64_t hidden, int64_t classes) {
  TrainingGraph t;
  t.name = "mlp_gelu";
  declare(t, "x", Shape{batch, d});
  declare(t, "w1", Shape{d, hidden});
  declare(t, "b1", Shape{hidden});
  declare(t, "w2", Shape{hidden, classes});
  declare(t, "b2", Shape{classes});
  declare(t, "target", Shape{batch}, Domain::ClassIndex, classes);
  Graph& g = t.graph;
  const int h = g.add("act", {linear(g, in(t, "x"), in(t, "w1"), in(t, "b1"))}, {{"act", std::string("gelu_tanh")}});
  const int logits = linear(g, h, in(t, "w2"), in(t, "b2"));
  g.set_output("loss", g.add("cross_entropy", {logits, in(t, "target")}));
  t.params = {"w1", "b1", "w2", "b2"};
  graph::add_backward(g, "loss", t.params);
  return t;
}

TrainingGraph conv_block(int64_t n, int64_t c, int64_t hw, int64_t k, int64_t groups) {
  TrainingGraph t;
  t.name = "conv_block";
  declare(t, "x", Shape{n, c, hw, hw});
  declare(t, "w", Shape{k, c, 3, 3});
  declare(t, "bias", Shape{k});
  declare(t, "gamma", Shape{k});
  declare(t, "beta", Shape{k});
  declare(t, "t", Shape{n, k, hw, hw});
  Graph& g = t.graph;
  const int y = g.add("conv2d", {in(t, "x"), in(t, "w"), in(t, "bias")}, {{"ph", int64_t{1}}, {"pw", int64_t{1}}});
  const int gn = g.add("group_norm", {y, in(t, "gamma"), in(t, "beta")}, {{"g", groups}});
  const int s = g.add("mul", {gn, g.add("act", {gn}, {{"act", std::string("sigmoid")}})});
  g.set_output("loss", weighted_sum(g, s, in(t, "t")));
  t.params = {"x", "w", "bias", "gamma", "beta"};
  graph::add_backward(g, "loss", t.params);
  return t;
}

static int transformer_layer(Graph& g, int x, const std::string& p, std::map<std::string, TensorDecl>& decls, int64_t dim, int64_t hidden) {
  auto param = [&](const std::string& name, const Shape& s) {
    decls[p + name] = TensorDecl{p + name, s, Domain::Real, 0};
    return g.input(p + name, s);
  };
  const int gamma = param("gamma", Shape{dim}), beta = param("beta", Shape{dim});
  const int w1 = param("w1", Shape{hidden, dim}), b1 = param("b1", Shape{hidden});
  const int w2 = param("w2", Shape{dim, hidden}), b2 = param("b2", Shape{dim});
  const int ln = g.add("layer_norm", {x, gamma, beta});
  const int h = g.add("act", {linear_t(g, ln, w1, b1)}, {{"act", std::string("gelu_erf")}});
  return g.add("add", {x, linear_t(g, h, w2, b2)});
}

TrainingGraph transformer_stack(int layers, int64_t tokens, int64_t dim, int64_t hidden) {
  TrainingGraph t;
  t.name = layers == 1 ? "transformer_mlp" : "transformer_stack_" + std::to_string(layers);
  declare(t, "x", Shape{tokens, dim});
  Graph& g = t.graph;
  int y = in(t, "x");
  for (int l = 0; l < layers; ++l) y = transformer_layer(g, y, "l" + std::to_string(l) + "_", t.inputs, dim, hidden);
  declare(t, "t", Shape{tokens, dim});
  g.set_output("loss", weighted_sum(g, y, in(t, "t")));
  t.params.push_back("x");
  for (const auto& [name, decl] : t.inputs)
    if (name != "x" && name != "t") t.params.push_back(name);
  graph::add_backward(g, "loss", t.params);
  return t;
}

TrainingGraph transformer_mlp(int64_t tokens, int64_t dim, int64_t hidden) { return transformer_stack(1, tokens, dim, hidden); }

std::vector<TrainingGraph> small_training_graphs() { return {mlp_gelu(3, 4, 5, 3), conv_block(2, 2, 4, 3, 3), transformer_mlp(3, 4, 6)}; }

graph::Bindings<float> training_inputs(const TrainingGraph& t, Values values, uint64_t seed) {
  Rng rng(seed);
  graph::Bindings<float> b;
  for (const auto& [name, decl] : t.inputs) b[name] = make_input(decl, values, rng);
  return b;
}

}  // namespace plumbline::egraph
