// The rules and the graphs: every shipped rule holds, every planted unsound rule is rejected with a
// counterexample that reproduces from its printed repro, every operator's gradient (autodiff) agrees
// with finite differences, and the optimized training graphs keep their outputs and gradients.
#include <gtest/gtest.h>

#include <cmath>

#include "check/generators.hpp"
#include "egraph/equivalence.hpp"
#include "egraph/graph_check.hpp"
#include "egraph/models.hpp"
#include "egraph/optimize.hpp"
#include "egraph/rule_check.hpp"

using namespace plumbline;
using namespace plumbline::egraph;

// The sanitizer leg runs ~30x slower: fewer problems there (the full counts run in the normal leg).
#ifdef PLUMBLINE_SANITIZE_BUILD
constexpr int kInstances = 8, kAutodiffProblems = 2;
#else
constexpr int kInstances = 40, kAutodiffProblems = 6;
#endif

RuleCheckOptions options() {
  RuleCheckOptions o;
  o.instances = kInstances;
  return o;
}

TEST(ShippedRules, EachHoldsOnRandomProblems) {
  for (const Rule& rule : load_rules(default_rules_path())) {
    const RuleVerdict v = check_rule(rule, options());
    EXPECT_TRUE(v.passed) << v.counterexample << "\nrepro: " << v.repro;
    EXPECT_GE(v.instances, kInstances / 2) << rule.name << ": too few instances satisfy its conditions";
  }
}

TEST(ShippedRules, EveryActivationIsCoveredByTheFusion) {
  for (const Rule& rule : load_rules(default_rules_path()))
    if (rule.name == "gemm-bias-act-fusion") {
      const RuleVerdict v = check_rule(rule, options());
      EXPECT_EQ(v.covered, "?act: gelu_erf gelu_tanh none relu sigmoid silu tanh");
    }
}

TEST(PlantedRules, EachIsRejectedWithAReproducibleCounterexample) {
  const std::string file = std::string(PLUMBLINE_PLANTED_DIR) + "/unsound.rules";
  const auto rules = load_rules(file);
  ASSERT_GE(rules.size(), 9u);
  for (const Rule& rule : rules) {
    const RuleVerdict v = check_rule(rule, options(), file);
    ASSERT_FALSE(v.passed) << rule.name << " was not rejected";
    EXPECT_NE(v.counterexample.find("fails at"), std::string::npos) << v.counterexample;
    // The printed repro names an instance, a value distribution and a seed that fail again alone.
    const std::string at = v.repro.substr(v.repro.find("--at \"") + 6);
    RuleCheckOptions again;
    again.at = at.substr(0, at.find('"'));
    again.values = values_from_string(v.repro.substr(v.repro.find("--values ") + 9, v.repro.find(" --seed") - v.repro.find("--values ") - 9));
    again.seed = std::stoull(v.repro.substr(v.repro.find("--seed ") + 7));
    EXPECT_NE(v.repro.find("--device none"), std::string::npos) << v.repro;
    const RuleVerdict r = check_rule(rule, again, file);
    EXPECT_FALSE(r.passed) << rule.name << ": the repro passes: " << v.repro;
    EXPECT_EQ(r.message, v.message) << rule.name;
  }
}

namespace {

// loss = sum(y * t) for a non-scalar y (t fixed, not differentiated); y itself when scalar.
int loss_of(graph::Graph& g, int y, uint64_t seed, graph::Bindings<double>& at) {
  const Shape s = g.node(y).shape;
  if (s.numel() == 1 && s.rank() == 0) return y;
  const int t = g.input("t", s);
  Rng rng(seed ^ 0x5bd1e995);
  TensorD tv(s);
  for (auto& v : tv.data) v = std::normal_distribution<double>()(rng);
  at["t"] = tv;
  const int flat = g.add("reshape", {g.add("mul", {y, t})}, {{"shape", graph::shape_text(Shape{1, s.numel()})}});
  return g.add("sum", {flat}, {{"over", std::string("all")}});
}

}  // namespace

// Reverse mode through each operator's gradient (its registry backward) against central differences
// of the reference forward, on problems from the operator's own generator.
TEST(Autodiff, EveryOperatorGradientAgreesWithFiniteDifferences) {
  int checked_ops = 0;
  for (const graph::GraphOp& op : graph::graph_ops()) {
    if (!op.vjp || op.problem_op.empty()) continue;
    ++checked_ops;
    for (int i = 0; i < kAutodiffProblems; ++i) {
      const Problem p = sample_problem(op.problem_op, 3e3, 7, i, kAutodiffProblems).value();
      const Signature sig = signature_of(p);
      graph::Graph g;
      graph::Bindings<double> at;
      std::vector<int> args;
      std::vector<std::string> wrt;
      Rng rng(100 + static_cast<uint64_t>(i));
      for (const auto& decl : sig.inputs) {
        args.push_back(g.input(decl.name, decl.shape));
        if (decl.domain == Domain::Real) {
          TensorD v(decl.shape);
          for (auto& x : v.data) x = std::normal_distribution<double>()(rng);
          at[decl.name] = v;
          wrt.push_back(decl.name);
        } else {
          at[decl.name] = make_input(decl, Values::Normal, rng).convert<double>();
        }
      }
      graph::Attrs attrs;
      for (const auto& [name, value] : p.attrs())
        for (const auto& spec : op.attrs)
          if (spec.name == name) attrs.emplace_back(name, value);
      const int y = g.add(op.name, args, attrs);
      g.set_output("loss", loss_of(g, y, static_cast<uint64_t>(i), at));
      graph::add_backward(g, "loss", wrt);
      const auto r = graph::check_gradients(g, "loss", wrt, at);
      EXPECT_TRUE(r.passed) << op.name << " at " << p.line() << ": " << r.where << " (ratio " << r.worst_ratio << ")";
    }
  }
  EXPECT_GE(checked_ops, 19);
}

TEST(Autodiff, DataMovementGradientsAgreeWithFiniteDifferences) {
  struct Case {
    std::string op;
    Shape in;
    graph::Attrs attrs;
  };
  const std::vector<Case> cases{{"neg", Shape{3, 2}, {}},
                                {"scale", Shape{4}, {{"factor", 0.25}}},
                                {"reshape", Shape{2, 6}, {{"shape", std::string("3,4")}}},
                                {"permute", Shape{2, 3, 4}, {{"perm", std::string("2,0,1")}}},
                                {"flip_kernel", Shape{4, 3, 2, 3}, {{"g", int64_t{2}}}},
                                {"row_broadcast", Shape{3}, {{"n", int64_t{4}}, {"scale", 0.5}}},
                                {"expand", Shape{}, {{"shape", std::string("2,3")}, {"scale", 2.0}}}};
  for (const auto& c : cases) {
    graph::Graph g;
    graph::Bindings<double> at;
    TensorD x(c.in);
    Rng rng(3);
    for (auto& v : x.data) v = std::normal_distribution<double>()(rng);
    at["x"] = x;
    const int y = g.add(c.op, {g.input("x", c.in)}, c.attrs);
    g.set_output("loss", loss_of(g, y, 1, at));
    graph::add_backward(g, "loss", {"x"});
    const auto r = graph::check_gradients(g, "loss", {"x"}, at);
    EXPECT_TRUE(r.passed) << c.op << ": " << r.where;
  }
}

TEST(Autodiff, AWrongGradientIsCaught) {
  // loss = sum(a * b * t) whose d_a is t * b; a graph that claims t * a must fail the check.
  graph::Graph wrong;
  const int a = wrong.input("a", Shape{3}), b = wrong.input("b", Shape{3}), t = wrong.input("t", Shape{3});
  const int flat = wrong.add("reshape", {wrong.add("mul", {wrong.add("mul", {a, b}), t})}, {{"shape", std::string("1,3")}});
  wrong.set_output("loss", wrong.add("sum", {flat}, {{"over", std::string("all")}}));
  wrong.set_output("d_a", wrong.add("mul", {t, a}));
  const graph::Bindings<double> at{{"a", TensorD(Shape{3}, 0.5)}, {"b", TensorD(Shape{3}, 2.0)}, {"t", TensorD(Shape{3}, 1.0)}};
  EXPECT_FALSE(graph::check_gradients(wrong, "loss", {"a"}, at).passed);
}

TEST(TrainingGraphs, GradientsAgreeWithFiniteDifferences) {
  for (const TrainingGraph& t : small_training_graphs()) {
    graph::Bindings<double> at;
    for (const auto& [name, v] : training_inputs(t, Values::Normal, 11)) at[name] = v.convert<double>();
    const auto r = graph::check_gradients(t.graph, "loss", t.params, at);
    EXPECT_TRUE(r.passed) << t.name << ": " << r.where << " (ratio " << r.worst_ratio << ", " << r.checks << " checks)";
  }
}

// The optimized graph keeps every output, costs less, and gives the original's loss and gradients.
TEST(TrainingGraphs, OptimizedGraphsKeepOutputsAndGradients) {
  const auto rules = load_rules(default_rules_path());
  for (const TrainingGraph& t : small_training_graphs()) {
    const GraphCheck c = check_training_graph(t, rules);
    EXPECT_TRUE(c.passed) << t.name << ": " << c.message;
    EXPECT_TRUE(c.cheaper && c.saturated && c.outputs_kept && c.equivalent) << t.name;
  }
}
