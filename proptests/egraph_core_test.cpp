// The e-graph library: s-expressions and the rules file's errors, hash-consing, congruence after
// rebuild, the invariants, e-matching, the runner's limits and backoff, extraction, explanations,
// determinism.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "egraph/egraph.hpp"
#include "egraph/extract.hpp"
#include "egraph/models.hpp"
#include "egraph/optimize.hpp"
#include "egraph/pattern.hpp"
#include "egraph/rule_check.hpp"
#include "egraph/runner.hpp"
#include "egraph/sexpr.hpp"
#include "proptests/test_support.hpp"

using namespace plumbline;
using namespace plumbline::egraph;
using plumbline::test::error_of;

namespace {

graph::Attrs var_attrs(const std::string& name, const Shape& s) { return {{"name", name}, {"shape", graph::shape_text(s)}}; }

std::vector<Rule> rules_of(const std::string& text) { return parse_rules(text, "test.rules"); }

}  // namespace

TEST(Sexpr, ParsesNestedListsWithLinesAndComments) {
  const auto forms = sexpr::parse("; comment\n(a (b c)\n  d) ; more\n(e)", "f");
  ASSERT_EQ(forms.size(), 2u);
  EXPECT_EQ(forms[0].str(), "(a (b c) d)");
  EXPECT_EQ(forms[0].line, 2);
  EXPECT_EQ(forms[1].line, 4);
  EXPECT_EQ(error_of([] { sexpr::parse("(a\n(b)", "f.rules"); }), "f.rules:1: '(' is never closed");
  EXPECT_EQ(error_of([] { sexpr::parse("(a))", "f.rules"); }), "f.rules:1: unexpected ')'");
}

TEST(RulesFile, MalformedRulesNameTheLineAndTheProblem) {
  const std::string head = "(rule r\n  (vars (x real (m n)))\n";
  const std::vector<std::pair<std::string, std::string>> cases{
      {head + "  (lhs (transpose x))\n  (rhs x))", "test.rules:1: rule 'r': a rule needs (lhs ...), (rhs ...) and (numerics ...)"},
      {head + "  (lhs (transposee x))\n  (rhs x)\n  (numerics exact))", "test.rules:3: rule 'r': unknown operator 'transposee'"},
      {head + "  (lhs (transpose y))\n  (rhs x)\n  (numerics exact))", "test.rules:3: rule 'r': 'y' is not a declared variable"},
      {head + "  (lhs (act :act reluu x))\n  (rhs x)\n  (numerics exact))", "test.rules:3: rule 'r': act :act 'reluu' is not one of its choices"},
      {head + "  (lhs (act :slope 2 x))\n  (rhs x)\n  (numerics exact))", "test.rules:3: rule 'r': act has no attribute 'slope'"},
      {head + "  (lhs (transpose x x))\n  (rhs x)\n  (numerics exact))", "test.rules:3: rule 'r': transpose takes 1 arguments, got 2"},
      {head + "  (lhs (transpose x))\n  (rhs x)\n  (numerics roughly))", "test.rules:5: rule 'r': numerics is exact, reassoc or (approx BOUND)"},
      {head + "  (lhs (transpose x))\n  (rhs (act :act ?a x))\n  (numerics exact))",
       "test.rules:4: rule 'r': attribute variable ?a is not bound by the left side"},
      {head + "  (where (== q 1))\n  (lhs (transpose x))\n  (rhs x)\n  (numerics exact))",
       "test.rules:3: rule 'r': 'q' is neither a dimension symbol nor an attribute value"},
      {"(rule r\n  (vars (x real (m n)) (x real (m)))\n  (lhs (transpose x))\n  (rhs x)\n  (numerics exact))",
       "test.rules:2: rule 'r': variable 'x' is declared twice"},
      {"(rule r\n  (vars (x complex (m n)))\n  (lhs (transpose x))\n  (rhs x)\n  (numerics exact))",
       "test.rules:2: rule 'r': unknown type 'complex'"},
      {head + "  (lhs (transpose x))\n  (rhs x)\n  (numerics exact)\n  (extra 1))", "test.rules:6: rule 'r': unknown clause"},
      {"(rules r)", "test.rules:1: expected (rule NAME ...)"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string msg = error_of([&] { rules_of(text); });
    EXPECT_EQ(msg.substr(0, expected.size()), expected) << text;
  }
  EXPECT_EQ(error_of([] { load_rules("/nonexistent.rules"); }), "cannot read rules file '/nonexistent.rules'");
  EXPECT_NE(
      error_of([&] {
        rules_of(head + "  (lhs (transpose x))\n  (rhs x)\n  (numerics exact))\n" + head + "  (lhs (transpose x))\n  (rhs x)\n  (numerics exact))");
      }).find("defined twice"),
      std::string::npos);
}

TEST(RulesFile, TheShippedFileParsesAndCoversTheRequiredRules) {
  const auto rules = load_rules(default_rules_path());
  for (const char* name :
       {"gemm-bias-fusion", "gemm-bias-act-fusion", "silu-fusion", "double-transpose", "transpose-of-product", "double-negation", "relu-idempotent",
        "conv-bwd-data-as-conv", "conv-1x1-as-matmul", "group-norm-one-group", "group-norm-per-channel", "softmax-shift-invariance"})
    EXPECT_TRUE(std::any_of(rules.begin(), rules.end(), [&](const Rule& r) { return r.name == name; })) << name;
}

TEST(EGraph, HashConsingIncludesAttributes) {
  EGraph eg;
  const Id x = eg.add("var", var_attrs("x", Shape{2, 3}), {});
  const Id r1 = eg.add("act", {{"act", std::string("relu")}}, {x});
  const Id r2 = eg.add("act", {{"act", std::string("relu")}}, {x});
  const Id t = eg.add("act", {{"act", std::string("tanh")}}, {x});
  EXPECT_EQ(r1, r2);
  EXPECT_NE(r1, t);
  EXPECT_EQ(eg.num_nodes(), 3u);
  eg.rebuild();
  eg.check_invariants();
  EXPECT_EQ(eg.eclass(t).shape, (Shape{2, 3}));
}

TEST(EGraph, RebuildRestoresCongruence) {
  EGraph eg;
  const Id a = eg.add("var", var_attrs("a", Shape{4}), {});
  const Id b = eg.add("var", var_attrs("b", Shape{4}), {});
  const Id fa = eg.add("neg", {}, {a});
  const Id fb = eg.add("neg", {}, {b});
  const Id gfa = eg.add("neg", {}, {fa});
  const Id gfb = eg.add("neg", {}, {fb});
  EXPECT_NE(eg.find(gfa), eg.find(gfb));
  EXPECT_TRUE(eg.merge(a, b, "test"));
  EXPECT_FALSE(eg.merge(a, b, "test"));
  eg.rebuild();
  eg.check_invariants();
  EXPECT_EQ(eg.find(fa), eg.find(fb));
  EXPECT_EQ(eg.find(gfa), eg.find(gfb));
  const std::string why = eg.explain(gfa, gfb);
  EXPECT_NE(why.find("congruence"), std::string::npos) << why;
}

TEST(EGraph, MergingDifferentShapesNamesTheRule) {
  EGraph eg;
  const Id x = eg.add("var", var_attrs("x", Shape{2, 3}), {});
  const Id t = eg.add("transpose", {}, {x});
  const std::string msg = error_of([&] { eg.merge(x, t, "bogus-rule"); });
  EXPECT_NE(msg.find("rule 'bogus-rule' merges x of shape [2,3] with (transpose x) of shape [3,2]"), std::string::npos) << msg;
  // The same through the runner: a rule whose sides differ in shape fails loudly, naming it.
  const auto rules = rules_of("(rule transpose-is-identity\n (vars (x real (m n)))\n (lhs (transpose x))\n (rhs x)\n (numerics exact))");
  EGraph eg2;
  eg2.add("transpose", {}, {eg2.add("var", var_attrs("x", Shape{2, 3}), {})});
  EXPECT_NE(error_of([&] { run_rules(eg2, rules); }).find("rule 'transpose-is-identity' merges"), std::string::npos);
}

// Random terms over neg/add/mul/scale and random merges: after rebuild the invariants hold, and any
// two e-nodes with equal operator, attributes and (canonical) children share a class.
RC_GTEST_PROP(EGraph, InvariantsHoldAfterRandomMerges, ()) {
  EGraph eg;
  std::vector<Id> ids{eg.add("var", var_attrs("a", Shape{3}), {}), eg.add("var", var_attrs("b", Shape{3}), {})};
  const int steps = *rc::gen::inRange(1, 60);
  for (int i = 0; i < steps; ++i) {
    const int kind = *rc::gen::inRange(0, 5);
    const Id x = ids[*rc::gen::inRange<size_t>(0, ids.size())];
    const Id y = ids[*rc::gen::inRange<size_t>(0, ids.size())];
    if (kind == 0) ids.push_back(eg.add("neg", {}, {x}));
    if (kind == 1) ids.push_back(eg.add("add", {}, {x, y}));
    if (kind == 2) ids.push_back(eg.add("mul", {}, {x, y}));
    if (kind == 3) ids.push_back(eg.add("scale", {{"factor", 2.0}}, {x}));
    if (kind == 4) eg.merge(x, y, "random");
    if (*rc::gen::inRange(0, 4) == 0) eg.rebuild();
  }
  eg.rebuild();
  eg.check_invariants();
  for (Id i : ids)
    for (Id j : ids)
      if (eg.find(i) == eg.find(j)) RC_ASSERT(eg.explain(i, j).find("not known") == std::string::npos);
}

TEST(Matching, FindsAttributeVariablesDimensionsAndRepeatedVariables) {
  const auto rules = rules_of(
      "(rule r (vars (x real (m n)) (b real (n)))\n"
      "  (where (> m 1))\n"
      "  (lhs (act :act ?a (bias_add x b)))\n"
      "  (rhs x) (numerics exact))\n"
      "(rule same (vars (x real S)) (lhs (mul x x)) (rhs x) (numerics exact))");
  EGraph eg;
  const Id x = eg.add("var", var_attrs("x", Shape{2, 5}), {});
  const Id x1 = eg.add("var", var_attrs("x1", Shape{1, 5}), {});
  const Id b = eg.add("var", var_attrs("b", Shape{5}), {});
  eg.add("act", {{"act", std::string("tanh")}}, {eg.add("bias_add", {}, {x, b})});
  eg.add("act", {{"act", std::string("tanh")}}, {eg.add("bias_add", {}, {x1, b})});  // m = 1: condition false
  eg.add("mul", {}, {x, x});
  eg.add("mul", {}, {eg.add("var", var_attrs("x2", Shape{2, 5}), {}), x});  // not the same variable: no match
  eg.rebuild();
  const auto m = CompiledPattern(rules[0]).search(eg);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].binding.str(), "m=2 n=5 ?a=tanh");
  EXPECT_EQ(m[0].vars.at("x"), eg.find(x));
  const auto same = CompiledPattern(rules[1]).search(eg);
  ASSERT_EQ(same.size(), 1u);
  EXPECT_EQ(same[0].binding.str(), "S=2,5");
}

// Every shipped rule's left side, built by the checker at a sampled binding, is found by the
// compiled pattern in an e-graph holding it, with the same binding: matcher and checker agree.
TEST(Matching, FindsEveryRuleInstanceTheCheckerBuilds) {
  for (const Rule& rule : load_rules(default_rules_path())) {
    RuleCheckOptions o;
    o.instances = 12;
    for (const RuleInstance& inst : sample_instances(rule, o)) {
      EGraph eg;
      const auto ids = eg.add_graph(inst.lhs);
      eg.rebuild();
      const Id root = ids[static_cast<size_t>(inst.lhs.output("y"))];
      const auto found = CompiledPattern(rule).search_class(eg, root);
      ASSERT_FALSE(found.empty()) << rule.name << " at " << inst.binding.str();
      EXPECT_EQ(found[0].binding.str(), inst.binding.str()) << rule.name;
    }
  }
}

TEST(Runner, SaturatesStopsAtLimitsAndBacksOff) {
  const auto rules = rules_of(
      "(rule nn (vars (x real S)) (lhs (neg (neg x))) (rhs x) (numerics exact))\n"
      "(rule cycle (vars (x real S)) (lhs (neg x)) (rhs (neg (neg (neg x)))) (numerics exact))\n"
      "(rule grow (vars (x real S)) (lhs (neg x)) (rhs (neg (scale :factor 1 x))) (numerics exact))");
  {
    EGraph eg;
    eg.add("neg", {}, {eg.add("neg", {}, {eg.add("var", var_attrs("x", Shape{2}), {})})});
    const RunnerReport r = run_rules(eg, {rules[0]});
    EXPECT_EQ(r.stop_reason, "saturated");
    EXPECT_EQ(r.applied.at("nn"), 1u);
  }
  {
    // neg(x) = neg^3(x) plus neg(neg(x)) = x closes into two classes: saturation, not growth.
    EGraph eg;
    eg.add("neg", {}, {eg.add("var", var_attrs("x", Shape{2}), {})});
    EXPECT_EQ(run_rules(eg, {rules[0], rules[1]}).stop_reason, "saturated");
  }
  {
    EGraph eg;
    eg.add("neg", {}, {eg.add("var", var_attrs("x", Shape{2}), {})});
    RunnerOptions o;
    o.iteration_limit = 3;
    // neg(x) = neg(scale(x)) = neg(scale(scale(x))) = ...: a new e-node every iteration.
    EXPECT_EQ(run_rules(eg, {rules[2]}, o).stop_reason, "iteration limit");
    RunnerOptions n;
    n.node_limit = 10;
    EGraph eg2;
    eg2.add("neg", {}, {eg2.add("var", var_attrs("x", Shape{2}), {})});
    EXPECT_EQ(run_rules(eg2, {rules[2]}, n).stop_reason, "node limit");
  }
  {
    // Backoff: a rule with more matches than its limit is banned, then let through later.
    const auto comm = rules_of("(rule c (vars (a real S) (b real S)) (lhs (add a b)) (rhs (add b a)) (numerics exact))");
    EGraph eg;
    std::vector<Id> v;
    for (int i = 0; i < 6; ++i) v.push_back(eg.add("var", var_attrs("v" + std::to_string(i), Shape{2}), {}));
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) eg.add("add", {}, {v[static_cast<size_t>(i)], v[static_cast<size_t>(j)]});
    RunnerOptions o;
    o.match_limit = 4;
    const RunnerReport r = run_rules(eg, comm, o);
    EXPECT_GE(r.bans.at("c"), 1);
    EXPECT_EQ(r.stop_reason, "saturated");
  }
}

TEST(Extraction, PicksTheCheapestAcyclicTermAndCountsSharingOnce) {
  const auto rules = load_rules(default_rules_path());
  // neg(neg(x)) = x puts x's class inside a cycle of negations: extraction must still give x.
  graph::Graph g;
  const int x = g.input("x", Shape{3});
  g.set_output("y", g.add("neg", {g.add("neg", {x})}));
  const Optimized o = optimize(g, rules);
  EXPECT_EQ(o.graph.size(), 1) << o.graph.str();
  EXPECT_LT(o.cost_after, o.cost_before);

  // In a training graph the pre-activation feeds the backward too: fusing the activation into the
  // GEMM would compute the GEMM twice. A tree-cost extraction fuses it; the DAG pass must not.
  const TrainingGraph t = mlp_gelu(8, 16, 32, 4);
  const Optimized m = optimize(t.graph, rules);
  const std::string text = m.graph.str();
  EXPECT_NE(text.find("gemm_bias_act :act none"), std::string::npos) << text;
  EXPECT_NE(text.find("act :act gelu_tanh"), std::string::npos) << text;
  EXPECT_EQ(text.find("gemm_bias_act :act gelu_tanh"), std::string::npos) << text;
  EXPECT_LT(m.cost_after, m.cost_before);
}

TEST(Explanation, ListsTheRulesThatMadeTwoTermsEqual) {
  const auto rules = load_rules(default_rules_path());
  EGraph eg;
  const Id x = eg.add("var", var_attrs("x", Shape{2, 3}), {});
  const Id tt = eg.add("transpose", {}, {eg.add("transpose", {}, {x})});
  run_rules(eg, rules);
  const std::string why = eg.explain(tt, x);
  EXPECT_NE(why.find("(transpose (transpose x))"), std::string::npos) << why;
  EXPECT_NE(why.find("by double-transpose"), std::string::npos) << why;
}

TEST(Optimizer, IsDeterministic) {
  const auto rules = load_rules(default_rules_path());
  for (const TrainingGraph& t : small_training_graphs()) {
    const Optimized a = optimize(t.graph, rules);
    const Optimized b = optimize(t.graph, rules);
    EXPECT_EQ(a.graph.str(), b.graph.str()) << t.name;
    EXPECT_EQ(a.run.nodes, b.run.nodes);
  }
}
