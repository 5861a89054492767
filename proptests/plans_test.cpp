// Launch plans as data (plans/): the expression language, the plan format and its errors, dispatch
// sizes, tile sizes and steering, the kernel sources of the command line, and every shipped plan file.
// No OpenCL: binding to real kernels is tested in kernel_test and cli_test.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "check/generators.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"
#include "plans/library.hpp"
#include "plans/source.hpp"
#include "plans/tuning.hpp"

using namespace plumbline;
using namespace plumbline::plans;

namespace {

Env names(std::map<std::string, int64_t> m) {
  Env e;
  e.value = [m](const std::string& n) -> std::optional<Value> {
    auto it = m.find(n);
    return it == m.end() ? std::nullopt : std::optional<Value>(Value{it->second});
  };
  e.tensor = [](const std::string& n) -> std::optional<Shape> { return n == "y" ? std::optional<Shape>(Shape{2, 3, 5}) : std::nullopt; };
  return e;
}

int64_t eval(const std::string& text, std::map<std::string, int64_t> m = {}) { return Expr::parse(text).eval_int(names(std::move(m))); }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// A plan text's error message.
std::string plan_error(const std::string& text) {
  return error_of([&] { parse_plan(text, "t.plan"); });
}

}  // namespace

// ---- expressions --------------------------------------------------------------------------------

TEST(Expr, IntegersWithCsMeaning) {
  EXPECT_EQ(eval("1 + 2 * 3"), 7);
  EXPECT_EQ(eval("(1 + 2) * 3"), 9);
  EXPECT_EQ(eval("7 / 2"), 3);
  EXPECT_EQ(eval("-7 / 2"), -3);
  EXPECT_EQ(eval("7 % 3"), 1);
  EXPECT_EQ(eval("cdiv(7, 2)"), 4);
  EXPECT_EQ(eval("cdiv(8, 2)"), 4);
  EXPECT_EQ(eval("roundup(17, 16)"), 32);
  EXPECT_EQ(eval("min(3, 1, 2)"), 1);
  EXPECT_EQ(eval("max(3, 1, 2)"), 3);
  EXPECT_EQ(eval("n == 0 || m ? 1 : 2", {{"n", 1}, {"m", 0}}), 2);
  EXPECT_EQ(eval("1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 3 && 1 != 2 && !(1 == 2)"), 1);
  EXPECT_EQ(eval("cdiv(n,TS)*(TS/WPT)", {{"n", 100}, {"TS", 32}, {"WPT", 4}}), 32);
  EXPECT_EQ(eval("numel(y) + dim(y, 2)"), 35);
}

TEST(Expr, ShortCircuitGuardsADivision) { EXPECT_EQ(eval("k == 0 || 12 / k == 3", {{"k", 0}}), 1); }

TEST(Expr, ErrorsQuoteTheExpression) {
  EXPECT_EQ(error_of([] { eval("n / (m - 3)", {{"n", 1}, {"m", 3}}); }), "expression 'n / (m - 3)': division by zero (1 / 0)");
  EXPECT_EQ(error_of([] { eval("q + 1"); }), "expression 'q + 1': unknown name 'q'");
  EXPECT_EQ(error_of([] { eval("9223372036854775807 + 1"); }), "expression '9223372036854775807 + 1': overflow in 9223372036854775807 + 1");
  EXPECT_EQ(error_of([] { Expr::parse("cdiv(1)"); }), "expression 'cdiv(1)': cdiv() takes 2 arguments, got 1");
  EXPECT_EQ(error_of([] { Expr::parse("sqrt(4)"); }), "expression 'sqrt(4)': unknown function 'sqrt' (known: cdiv, roundup, min, max, numel, dim)");
  EXPECT_EQ(error_of([] { Expr::parse("(1 + 2"); }), "expression '(1 + 2': missing ')'");
  EXPECT_EQ(error_of([] { Expr::parse("1 +"); }), "expression '1 +': ends where a value was expected");
  EXPECT_EQ(error_of([] { eval("dim(y, 3)"); }), "expression 'dim(y, 3)': dim(y, 3): y has rank 3 [2,3,5]");
  EXPECT_EQ(error_of([] { eval("cdiv(4, 0)"); }), "expression 'cdiv(4, 0)': cdiv(4, 0): the divisor must be positive");
  Env floats;
  floats.value = [](const std::string&) { return std::optional<Value>(Value{1e-5}); };
  EXPECT_EQ(error_of([&] { Expr::parse("eps * 2").eval_int(floats); }),
            "expression 'eps * 2': 'eps' is a float: only integers take part in arithmetic");
  EXPECT_DOUBLE_EQ(Expr::parse("eps").eval(floats).f(), 1e-5);  // alone, a float passes as an argument
}

TEST(Expr, NamesTensorsConjunctsAndRelations) {
  const Expr e = Expr::parse("r == 1 && k % 4 == 0 && 64 <= m && numel(y) > 0");
  EXPECT_EQ(e.names(), (std::set<std::string>{"r", "k", "m"}));
  EXPECT_EQ(e.tensors(), (std::set<std::string>{"y"}));
  const auto parts = e.conjuncts();
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_EQ(parts[0].relation()->name, "r");
  EXPECT_EQ(parts[1].relation()->op, "%0");
  EXPECT_EQ(parts[1].relation()->rhs.text(), "4");
  EXPECT_EQ(parts[2].relation()->name, "m");
  EXPECT_EQ(parts[2].relation()->op, ">=");  // 64 <= m, turned around
  EXPECT_FALSE(parts[3].relation().has_value());
}

RC_GTEST_PROP(Expr, CdivAndRoundupAgreeWithTheirDefinitions, ()) {
  const int64_t a = *rc::gen::inRange<int64_t>(0, 1 << 20), b = *rc::gen::inRange<int64_t>(1, 1 << 10);
  RC_ASSERT(eval("cdiv(a, b)", {{"a", a}, {"b", b}}) * b >= a);
  RC_ASSERT((eval("cdiv(a, b)", {{"a", a}, {"b", b}}) - 1) * b < a);
  RC_ASSERT(eval("roundup(a, b)", {{"a", a}, {"b", b}}) % b == 0);
}

// ---- the plan format ------------------------------------------------------------------------------

TEST(PlanFormat, ParsesVariantsStepsAndArguments) {
  const auto vs = parse_plan(R"(
# a comment
op conv2d
variant direct   # trailing comment
  define TS=32, WPT=4 ACC=float
  when r == 1 && s == 1
  scratch partial n * k
  step conv_main
    when bias == 0
    args x, w, y, tensor:w, attr:w, partial, local(TS * 4), n * c, 2
    global cdiv(numel(y), TS), 1
    local TS, 1
)",
                             "t.plan");
  ASSERT_EQ(vs.size(), 1u);
  const Variant& v = vs[0];
  EXPECT_EQ(v.id(), "conv2d/direct");
  EXPECT_EQ(v.file, "t.cl");
  EXPECT_EQ(v.build_options(), "-DTS=32 -DWPT=4 -DACC=float");
  EXPECT_EQ(v.where.str(), "t.plan:4");
  ASSERT_EQ(v.steps.size(), 1u);
  const auto& a = v.steps[0].args;
  EXPECT_EQ(a[0].kind, Arg::Kind::Tensor);         // x: a tensor only
  EXPECT_EQ(a[1].kind, Arg::Kind::TensorOrValue);  // w: the weights and the width
  EXPECT_EQ(a[3].kind, Arg::Kind::Tensor);
  EXPECT_EQ(a[4].kind, Arg::Kind::Value);
  EXPECT_EQ(a[5].kind, Arg::Kind::Scratch);
  EXPECT_EQ(a[6].kind, Arg::Kind::Local);
  EXPECT_EQ(a[7].kind, Arg::Kind::Value);
  EXPECT_EQ(v.steps[0].global.size(), 2u);
}

TEST(PlanFormat, ErrorsNameTheFileAndLine) {
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  step s\n    args a, b, y\n    global cdiv(n, TS)\n"),
            "t.plan:5: 'cdiv(n, TS)': unknown name 'TS'; matmul has the attributes batch, dtype, k, m, n, ta, tb");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  step s\n    args a, q, y\n    global n\n"),
            "t.plan:4: argument 'q' is no tensor (a, b, y), attribute (batch, dtype, k, m, n, ta, tb), scratch buffer or define of matmul/v");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  step s\n    args a, b, y\n    global numel(z)\n"),
            "t.plan:5: 'numel(z)': matmul has no tensor 'z' (its tensors: a, b, y)");
  EXPECT_EQ(plan_error("op mm\n"),
            "t.plan:1: unknown operator 'mm'; known operators: " +
                error_of([] { Registry::get().find("mm"); }).substr(std::string("unknown operator 'mm'; known operators: ").size()));
  EXPECT_EQ(plan_error("op matmul\nargs a\n"), "t.plan:2: 'args' outside a variant (start one with 'variant NAME' after 'op NAME')");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  args a\n"), "t.plan:3: 'args' outside a step (start one with 'step ENTRY')");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  step s\n  dtypes f16\n"),
            "t.plan:4: 'dtypes' belongs to the variant: put it before the first 'step'");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  step s\n    define k=4\n    args a\n    global 1\n"),
            "t.plan:3: define k has the name of an attribute of matmul");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  define m=4\n  step s\n    args a\n    global 1\n"),
            "t.plan:2: define m has the name of an attribute of matmul");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  step s\n    args a\n    global 1, 1\n    local 1\n"),
            "t.plan:3: step s: 'local' has 1 sizes, 'global' 2");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  step s\n    args a\n"), "t.plan:3: step s: no 'global' line (the global size)");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n"), "t.plan:2: variant matmul/v has no steps");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  step s\n    args a\n    global 1\nvariant v\n"),
            "t.plan:6: variant 'v' of matmul is defined twice (first at t.plan:2)");
  EXPECT_EQ(
      plan_error("op matmul\nvariant v\n  stpe s\n"),
      "t.plan:3: unknown keyword 'stpe' (known: op, variant, block, use, include, file, type, define, dtypes, devices, needs, nondeterministic, "
      "nonfinite, math, when, prefer, let, "
      "scratch, counters, stored, tune, require, class, step, args, global, local, handoff)");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  step s\n    args a\n    global 1, 1, 1, 1\n"), "t.plan:5: global has 4 sizes; an NDRange has 1 to 3");
  EXPECT_EQ(plan_error("op act\nvariant v\n  nonfinite ieee\n"),
            "t.plan:3: 'nonfinite ieee' needs the reason: nonfinite ieee WHY (say why the kernel keeps IEEE arithmetic's answers at the edges)");
  EXPECT_EQ(plan_error("op act\nvariant v\n  nonfinite lenient because\n"),
            "t.plan:3: nonfinite 'lenient': the non-finite policies are limits (the default) and ieee (docs/verification.md)");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  define F=float\n  step s\n    args a\n    global F\n"), "t.plan:6: 'F': define F is not an integer");
  EXPECT_EQ(plan_error(""), "t.plan: no variants (a plan starts with 'op NAME', then 'variant NAME')");
}

TEST(PlanFormat, DispatchSizesAndTheirErrors) {
  const auto vs = parse_plan(
      "op matmul\nvariant v\n  define TS=32 WPT=4\n  step s\n    args a, b, y\n"
      "    global cdiv(n,TS)*(TS/WPT), cdiv(m,TS)*(TS/WPT), max(batch,1)\n    local TS/WPT, TS/WPT, 1\n"
      "variant bad\n  step s\n    args a, b, y\n    global n\n    local 8\n"
      "variant zero\n  step s\n    args a, b, y\n    global n / (k - 1)\n",
      "t.plan");
  const Problem p = Problem::parse("matmul:m=70,k=3,n=100");
  const Dispatch d = dispatch(vs[0], vs[0].steps[0], p);
  EXPECT_EQ(d.global, (std::vector<size_t>{32, 24, 1}));
  EXPECT_EQ(d.local, (std::vector<size_t>{8, 8, 1}));
  EXPECT_EQ(tile_sizes(vs[0]), (std::vector<int64_t>{4, 8, 32}));
  // a let over the defines alone is a tile's extent too (max_pool2d_bwd's tiles: blocks x stride cells);
  // one that depends on the problem is not
  const auto lets = parse_plan(
      "op matmul\nvariant v\n  define TB=16 S=2\n  let CELLS = TB * S\n  let ROWS = cdiv(m, CELLS)\n"
      "  let TWICE = 2 * CELLS\n  step s\n    args a, b, y\n    global ROWS * 64\n    local 64\n",
      "t.plan");
  EXPECT_EQ(tile_sizes(lets[0]), (std::vector<int64_t>{2, 16, 32, 64}));
  EXPECT_EQ(error_of([&] { dispatch(vs[1], vs[1].steps[0], p); }),
            "t.plan:9: step s: local size 8 ('8') does not divide global size 100 ('n') in dimension 0 for problem "
            "matmul:batch=0,m=70,k=3,n=100,ta=0,tb=0");
  EXPECT_EQ(error_of([&] { dispatch(vs[2], vs[2].steps[0], p.with("k", int64_t{1})); }),
            "t.plan:14: step s global size 'n / (k - 1)': expression 'n / (k - 1)': division by zero (100 / 0), for problem "
            "matmul:batch=0,m=70,k=1,n=100,ta=0,tb=0");
}

TEST(PlanFormat, CountersAreScratchThatStartsAtZero) {
  const auto vs = parse_plan(
      "op sum\nvariant v\n  scratch partial cdiv(n, 64)\n  counters done max(m, 1)\n"
      "  step s\n    args x, partial, done, y\n    global n\n",
      "t.plan");
  ASSERT_EQ(vs[0].scratch.size(), 2u);
  EXPECT_FALSE(vs[0].scratch[0].counters);
  EXPECT_TRUE(vs[0].scratch[1].counters);
  EXPECT_EQ(scratch_floats(vs[0], Problem::parse("sum:m=3,n=100,over=row")), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(plan_error("op sum\nvariant v\n  counters done\n"), "t.plan:3: 'counters' needs NAME COUNT (a name and how many 32-bit counters)");
  EXPECT_EQ(plan_error("op sum\nvariant v\n  scratch done 1\n  counters done 1\n  step s\n    args x\n    global 1\n"),
            "t.plan:4: scratch 'done' has the name of a tensor, an attribute or another scratch buffer");
}

// `stored` scratch holds values of the problem's storage format: its size in floats rounds the bytes up.
TEST(PlanFormat, StoredScratchIsSizedInTheStorageFormat) {
  const auto vs = parse_plan(
      "op sum\nvariant v\n  stored parts 2 * n + 1\n  scratch partial n\n"
      "  step s\n    args x, parts, partial, y\n    global n\n",
      "t.plan");
  ASSERT_EQ(vs[0].scratch.size(), 2u);
  EXPECT_TRUE(vs[0].scratch[0].stored);
  EXPECT_FALSE(vs[0].scratch[1].stored);
  EXPECT_EQ(scratch_floats(vs[0], Problem::parse("sum:m=3,n=100,over=row,dtype=bf16")), (std::vector<int64_t>{101, 100}));
  EXPECT_EQ(scratch_floats(vs[0], Problem::parse("sum:m=3,n=100,over=row,dtype=f16")), (std::vector<int64_t>{101, 100}));
  EXPECT_EQ(scratch_floats(vs[0], Problem::parse("sum:m=3,n=100,over=row")), (std::vector<int64_t>{201, 100}));
  EXPECT_EQ(plan_error("op sum\nvariant v\n  stored parts\n"),
            "t.plan:3: 'stored' needs NAME COUNT (a name and how many values of the storage format)");
}

TEST(PlanFormat, AStepsDefinesBuildItsProgramOverTheVariants) {
  const auto vs = parse_plan(
      "op sum\nvariant v\n  define A=1 B=2\n  step s\n    args x, y\n    global n\n"
      "  step t\n    define B=3, C=4\n    args x, y\n    global n\n",
      "t.plan");
  ASSERT_EQ(vs[0].steps.size(), 2u);
  EXPECT_TRUE(vs[0].steps[0].defines.empty());
  EXPECT_EQ(vs[0].defines, (std::vector<std::pair<std::string, std::string>>{{"A", "1"}, {"B", "2"}})) << "the variant's stay its own";
  const Variant t = vs[0].for_step(vs[0].steps[1]);
  EXPECT_EQ(t.defines, (std::vector<std::pair<std::string, std::string>>{{"A", "1"}, {"B", "3"}, {"C", "4"}}));
  EXPECT_EQ(vs[0].for_step(vs[0].steps[0]).build_options(), vs[0].build_options());
  EXPECT_EQ(plan_error("op sum\nvariant v\n  step s\n    define B=3 B=4\n"), "t.plan:4: define B is given twice in step s");
  EXPECT_EQ(plan_error("op sum\nvariant v\n  step s\n    define B\n"), "t.plan:4: define 'B' must be NAME=VALUE");
  EXPECT_EQ(plan_error("op sum\nvariant v\n  define WG=64\n  step s\n    define WG=128\n    args x, y\n    global roundup(n, WG)\n"),
            "t.plan:4: step s: define WG is used by the plan's expression 'roundup(n, WG)', which sees the variant's value, not the "
            "step's (a step's defines reach its program only)");
}

TEST(PlanFormat, DevicesNameTheTypesAVariantIsShapedFor) {
  const auto vs = parse_plan(
      "op sum\nvariant v\n  devices cpu accelerator\n  step s\n    args x, y\n    global n\n"
      "variant u\n  step s\n    args x, y\n    global n\n",
      "t.plan");
  EXPECT_EQ(vs[0].devices, (std::vector<std::string>{"cpu", "accelerator"}));
  EXPECT_TRUE(vs[1].devices.empty()) << "no line: every type";
  EXPECT_EQ(plan_error("op sum\nvariant v\n  devices tpu\n"), "t.plan:3: device type 'tpu': known types are cpu, gpu, accelerator");
  EXPECT_EQ(plan_error("op sum\nvariant v\n  devices gpu gpu\n"), "t.plan:3: device type gpu is given twice");
  EXPECT_EQ(plan_error("op sum\nvariant v\n  devices\n"), "t.plan:3: 'devices' needs device types (cpu gpu accelerator)");
  EXPECT_EQ(plan_error("op sum\nvariant v\n  step s\n  devices cpu\n"), "t.plan:4: 'devices' belongs to the variant: put it before the first 'step'");
}

TEST(PlanFormat, NeedsNamesTheDeviceFeaturesAVariantBuildsWith) {
  const auto vs = parse_plan(
      "op sum\nvariant v\n  needs nvidia_sm80\n  step s\n    args x, y\n    global n\n"
      "variant u\n  step s\n    args x, y\n    global n\n",
      "t.plan");
  EXPECT_EQ(vs[0].needs, (std::vector<std::string>{"nvidia_sm80"}));
  EXPECT_TRUE(vs[1].needs.empty()) << "no line: nothing needed";
  EXPECT_EQ(plan_error("op sum\nvariant v\n  needs tensor_cores\n"),
            "t.plan:3: device feature 'tensor_cores': known features are local_mem_48k, nvidia_sm80, nvidia_sm90a");
  EXPECT_EQ(plan_error("op sum\nvariant v\n  needs nvidia_sm80 nvidia_sm80\n"), "t.plan:3: device feature nvidia_sm80 is given twice");
  EXPECT_EQ(plan_error("op sum\nvariant v\n  needs\n"), "t.plan:3: 'needs' needs device features (local_mem_48k, nvidia_sm80, nvidia_sm90a)");
  EXPECT_EQ(plan_error("op sum\nvariant v\n  needs nvidia_sm80\n  needs nvidia_sm80\n"), "t.plan:4: a second 'needs' line");
}

TEST(PlanFormat, PreferIsAConditionOfSpeedNotOfCorrectness) {
  // A variant serves every problem of its `when`; a launch takes it where it also `prefer`s the
  // problem, else the next that serves it.
  const auto vs = parse_plan(
      "op sum\nvariant rows\n  when over == 1\n  prefer m >= 1024\n  step reduce_sum\n    args x, y, m, n, over\n"
      "    global m * 256\n    local 256\nvariant seed\n  step reduce_sum\n    args x, y, m, n, over\n    global m * 256\n"
      "    local 256\n",
      "t.plan");
  const Problem many = Problem::parse("sum:m=2048,n=8,over=row"), few = Problem::parse("sum:m=8,n=8,over=row");
  EXPECT_TRUE(applies(vs[0], few));
  EXPECT_FALSE(preferred(vs[0], few));
  EXPECT_TRUE(preferred(vs[0], many));
  EXPECT_EQ(select_variant(vs, many).name, "rows");
  EXPECT_EQ(select_variant(vs, few).name, "seed");
  EXPECT_EQ(plan_error("op sum\nvariant v\n  prefer q >= 1\n  step s\n    args x\n    global 1\n"),
            "t.plan:3: 'q >= 1': unknown name 'q'; sum has the attributes dtype, m, n, over");
}

TEST(PlanFormat, HandoffNamesABufferOfTheVariantAndWhy) {
  const auto vs = parse_plan(
      "op sum\nvariant v\n  scratch partial 4\n  nondeterministic float atomics in the partial sums\n  step s\n"
      "    args x, partial, y\n    global 1\n    handoff partial the last work-group reads the others' partials\n",
      "t.plan");
  ASSERT_EQ(vs[0].steps[0].handoffs.size(), 1u);
  EXPECT_EQ(vs[0].steps[0].handoffs[0].buffer, "partial");
  EXPECT_EQ(vs[0].steps[0].handoffs[0].reason, "the last work-group reads the others' partials");
  EXPECT_EQ(vs[0].nondeterministic, "float atomics in the partial sums");
  EXPECT_EQ(plan_error("op sum\nvariant v\n  step s\n    args x, y\n    global 1\n    handoff partial\n"),
            "t.plan:6: 'handoff' needs a buffer and the reason: handoff BUFFER WHY (the reads a simulator reports as races)");
  EXPECT_EQ(plan_error("op sum\nvariant v\n  step s\n    args x, y\n    global 1\n    handoff q why\n"),
            "t.plan:6: handoff 'q' is no tensor (x, y) or scratch buffer of sum/v");
  EXPECT_EQ(plan_error("op sum\nvariant v\n  handoff x why\n"),
            "t.plan:3: 'handoff' outside a step: it names a buffer that step's kernel hands between its work-groups");
}

TEST(PlanFormat, LetNamesAnExpressionForTheLinesAfterIt) {
  const auto vs = parse_plan(
      "op matmul\nvariant v\n  define TS=32\n  let TILES = cdiv(m, TS) * cdiv(n, TS)\n"
      "  let SPLITS = max(1, 64 / TILES)\n  scratch partial SPLITS * m * n\n"
      "  step s\n    args a, b, y, partial, SPLITS\n    global TILES * 8, SPLITS\n",
      "t.plan");
  const Problem p = Problem::parse("matmul:m=70,k=3,n=40");  // 3 x 2 tiles: 10 splits
  const Dispatch d = dispatch(vs[0], vs[0].steps[0], p);
  EXPECT_EQ(d.global, (std::vector<size_t>{48, 10}));
  EXPECT_EQ(vs[0].scratch[0].floats.eval_int(env_for(vs[0], p)), 10 * 70 * 40);
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  let m = 2\n  step s\n    args a\n    global 1\n"),
            "t.plan:3: let m has the name of an attribute, a define, a tensor or another let");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  let A = B + 1\n  let B = 2\n  step s\n    args a\n    global A\n"),
            "t.plan:3: let A 'B + 1': unknown name 'B'; matmul has the attributes batch, dtype, k, m, n, ta, tb");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  let A 3\n"), "t.plan:3: 'let' needs NAME = EXPRESSION");
  const auto zero = parse_plan("op matmul\nvariant v\n  let Q = n / (k - 1)\n  step s\n    args a\n    global Q\n", "t.plan");
  EXPECT_EQ(error_of([&] { env_for(zero[0], Problem::parse("matmul:m=2,k=1,n=4")); }),
            "t.plan:3: let Q 'n / (k - 1)': expression 'n / (k - 1)': division by zero (4 / 0), for problem matmul:batch=0,m=2,k=1,n=4,ta=0,tb=0");
}

TEST(PlanFormat, SteeringMeetsAVariantsCondition) {
  const auto vs = parse_plan(
      "op conv2d\nvariant one\n  when r == 1 && s == 1 && sh == 1 && sw == 1 && ph == 0 && pw == 0 && c % 4 == 0\n"
      "  step s\n    args x\n    global 1\n"
      "op matmul\nvariant big\n  when m >= 64 && k % 8 == 0 && tb == 1\n  step s\n    args a\n    global 1\n"
      "variant never\n  when m * 0 == 1\n  step s\n    args a\n    global 1\n",
      "t.plan");
  const Problem conv = Problem::parse("conv2d:n=2,c=3,h=9,w=9,k=5,r=3,s=5,sh=2,sw=1,ph=1,pw=2");
  const auto steered = steer(vs[0], conv);
  ASSERT_TRUE(steered.has_value());
  EXPECT_EQ(steered->line(), "conv2d:n=2,c=4,h=9,w=9,k=5,r=1,s=1,sh=1,sw=1,ph=0,pw=0,dh=1,dw=1,g=1,bias=0");
  const auto mm = steer(vs[1], Problem::parse("matmul:m=3,k=9,n=2"));
  ASSERT_TRUE(mm.has_value());
  EXPECT_EQ(mm->line(), "matmul:batch=0,m=67,k=16,n=2,ta=0,tb=1");  // m keeps 3 % 8
  EXPECT_FALSE(steer(vs[2], Problem::parse("matmul:m=3")).has_value());
  // A named choice raised to a bound takes the bound's index itself (no remainder added).
  const auto last = parse_plan("op act\nvariant tanh_only\n  when act >= 6\n  step s\n    args x\n    global 1\n", "t.plan");
  const auto tanh = steer(last[0], Problem::parse("act:n=5,act=gelu_tanh"));  // index 2: 6 + 2 is no choice
  ASSERT_TRUE(tanh.has_value());
  EXPECT_EQ(tanh->s("act"), "tanh");
  EXPECT_TRUE(applies(vs[1], *mm));
  EXPECT_FALSE(applies(vs[1], Problem::parse("matmul:m=3")));
}

TEST(PlanFormat, TuningSpaceRequirementsAndShapeClasses) {
  const auto vs = parse_plan(
      "op matmul\nvariant v\n  define TS=32 WPT=4\n  tune TS=16,32,64 WPT=2,4,8\n  require TS % WPT == 0 && TS / WPT <= 16\n"
      "  class thin when m < 64\n  class wide\n  step s\n    args a, b, y\n    global n\n",
      "t.plan");
  const Variant& v = vs[0];
  ASSERT_EQ(v.tunables.size(), 2u);
  EXPECT_EQ(v.tunables[0].second, (std::vector<std::string>{"16", "32", "64"}));
  EXPECT_EQ(v.unmet_requirement(), "");
  EXPECT_EQ(v.with_defines({{"TS", "64"}, {"WPT", "2"}}).unmet_requirement(), "'TS % WPT == 0 && TS / WPT <= 16' does not hold for -DTS=64 -DWPT=2");
  EXPECT_EQ(class_of(v, Problem::parse("matmul:m=8")), "thin");
  EXPECT_EQ(class_of(v, Problem::parse("matmul:m=64")), "wide");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  define TS=32\n  require TS > 64\n  step s\n    args a\n    global 1\n"),
            "t.plan:2: the defaults break a requirement: 'TS > 64' does not hold for -DTS=32");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  tune TS=1,2\n  step s\n    args a\n    global 1\n"),
            "t.plan:2: tune TS: declare its default with 'define TS=...' first");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  define TS=1\n  require m > 1\n  step s\n    args a\n    global 1\n"),
            "t.plan:4: require 'm > 1': 'm' is not an integer define (a requirement is on the defines alone)");
  EXPECT_EQ(plan_error("op matmul\nvariant v\n  class all\n  class more\n  step s\n    args a\n    global 1\n"),
            "t.plan:4: class more follows a class without a condition, which takes every problem");
}

// ---- our plan files ----------------------------------------------------------------------------------

TEST(OurPlans, EveryOperatorHasADefaultAbiVariantAndValidSizes) {
  for (const auto& op : Registry::get().names()) {
    const auto& vs = our_variants(op);
    ASSERT_FALSE(vs.empty()) << op << " has no plan";
    EXPECT_NO_THROW(find_variant(vs, kAbiVariant, op)) << op;
    // The last variant serves every problem: there is always a kernel to run.
    EXPECT_TRUE(vs.back().when.empty()) << op << ": its last variant has a condition";
    const Problem p = Problem::make(op);
    const Variant& v = select_variant(vs, p);
    for (const auto& st : v.steps)
      if (step_applies(v, st, p)) {
        EXPECT_NO_THROW(dispatch(v, st, p)) << op << " " << st.entry;
      }
  }
}

// ---- kernel sources: the command line's flags ------------------------------------------------------

TEST(KernelSource, FlagsMakeAOneStepPlan) {
  KernelSource s{.kernel_file = "/tmp/rb_gemm.cl",
                 .entries = {"rb_gemm"},
                 .args = "m,n,k,batch,ta,tb,a,b,y",
                 .global = "cdiv(n,TS)*(TS/WPT),cdiv(m,TS)*(TS/WPT),max(batch,1)",
                 .local = "TS/WPT,TS/WPT,1",
                 .defines = {"TS=32", "WPT=4"}};
  const auto vs = variants_for(s, "matmul");
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].name, "user");
  EXPECT_EQ(vs[0].build_options(), "-DTS=32 -DWPT=4");
  EXPECT_EQ(dispatch(vs[0], vs[0].steps[0], Problem::parse("matmul:m=64,k=3,n=33,batch=2")).str(), "global (16,16,2) local (8,8,1)");
  EXPECT_EQ(s.flags(),
            "--kernel-file /tmp/rb_gemm.cl --entry rb_gemm --args m,n,k,batch,ta,tb,a,b,y --global "
            "'cdiv(n,TS)*(TS/WPT),cdiv(m,TS)*(TS/WPT),max(batch,1)' --local TS/WPT,TS/WPT,1 --define TS=32,WPT=4");
}

TEST(KernelSource, ErrorsNameTheFlag) {
  KernelSource s{.kernel_file = "k.cl", .entries = {"k"}, .args = "a,b,q", .global = "n"};
  EXPECT_EQ(error_of([&] { variants_for(s, "matmul"); }),
            "--args: argument 'q' is no tensor (a, b, y), attribute (batch, dtype, k, m, n, ta, tb), scratch buffer or define of matmul/user");
  s.args = "a,b,y";
  s.global = "n/TS";
  EXPECT_EQ(error_of([&] { variants_for(s, "matmul"); }),
            "--global: 'n/TS': unknown name 'TS'; matmul has the attributes batch, dtype, k, m, n, ta, tb");
  EXPECT_EQ(error_of([] { KernelSource{.entries = {"e"}}.validate(); }), "--entry needs --kernel-file");
  EXPECT_EQ(error_of([] { KernelSource{.kernel_file = "k.cl", .entries = {"e"}, .args = "a"}.validate(); }),
            "--args and --local need --global (the global size)");
  EXPECT_EQ(error_of([] { KernelSource{.plan_file = "p.plan", .kernel_file = "k.cl"}.validate(); }),
            "give either --plan FILE or --kernel-file FILE, not both");
  // The default ABI: one entry per step of the seed variant.
  EXPECT_EQ(
      error_of([] {
        variants_for(KernelSource{.kernel_file = "k.cl", .entries = {"a", "b"}}, "matmul");
      }),
      "matmul has 1 kernel steps in the default ABI (matmul); --entry names 2 (one name per step, comma-separated, in order: docs/kernel-abi.md)");
  // A define our variant does not declare is a typo.
  const std::string typo = error_of([] { variants_for(KernelSource{.defines = {"TLIE=32"}}, "matmul"); });
  EXPECT_EQ(
      typo,
      "variant matmul/" + our_variants("matmul")[0].name + " (" + our_variants("matmul")[0].where.str() + ") has no define TLIE; its defines: " + [] {
        std::string d;
        for (const auto& [n, v] : our_variants("matmul")[0].defines) d += (d.empty() ? "" : ", ") + n;
        return d;
      }());
}

TEST(KernelSource, TheDefaultAbiKeepsTheSeedsSizesAndDefines) {
  const auto vs = variants_for(KernelSource{.kernel_file = "/x/dgrad.cl", .entries = {"my_dgrad"}, .defines = {"EXTRA=1"}}, "conv2d_bwd_data");
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].file, "/x/dgrad.cl");
  EXPECT_EQ(vs[0].steps[0].entry, "my_dgrad");
  EXPECT_NE(vs[0].build_options().find("-DTILE=16"), std::string::npos);
  EXPECT_NE(vs[0].build_options().find("-DEXTRA=1"), std::string::npos);
}

// ---- the generators reach the boundaries of the plan in use ----------------------------------------

TEST(Generators, DimensionsReachTheTileSizesOfThePlan) {
  for (int64_t wg : {96, 200}) {
    std::set<int64_t> seen;
    for (int i = 0; i < 2000; ++i) {
      const Problem p = sample_problem("sum", GenContext(4e6, {wg}), 3, i, 2000).value();
      seen.insert(p.i("n"));
    }
    for (int64_t v : {wg - 1, wg, wg + 1, 2 * wg - 1, 2 * wg, 2 * wg + 1})
      EXPECT_TRUE(seen.count(v)) << "n=" << v << " never drawn for tiles of " << wg;
  }
}

// ---- the tuning database against the plans -----------------------------------------------------------

TEST(OurTuning, EveryEntryServesTheProblemsItWasTunedOn) {
  // An entry's evidence ends with the problems it was timed on ("... on matmul:m=4096,..."): its defines
  // must serve each of them that its class still holds (classes were refined after some entries were
  // tuned, and took problems of theirs), and its class must still hold one at least. A plan whose
  // condition or classes changed under an entry fails here, before a launch passes the entry over.
  int checked = 0;
  for (const auto& e : plans::tuning_database()) {
    const size_t on = e.evidence.rfind(" on " + e.op + ":");
    if (e.off || on == std::string::npos) continue;
    const plans::Variant& base = plans::find_variant(plans::our_variants(e.op), e.variant, e.op);
    const plans::Variant tuned = base.with_defines(e.defines);
    std::istringstream lines(e.evidence.substr(on + 4));
    int in_class = 0;
    for (std::string line; lines >> line && line.find(':') != std::string::npos;) {
      if (line.back() == ';' || line.back() == ',') line.pop_back();  // the evidence's own punctuation
      const Problem p = Problem::parse(line);
      if (plans::class_of(base, p) != e.shape_class) continue;
      ++in_class, ++checked;
      EXPECT_TRUE(plans::applies(tuned, p)) << e.where.str() << ": its defines do not serve " << line << " ('" << base.when.text() << "')";
    }
    EXPECT_GT(in_class, 0) << e.where.str() << ": class " << e.shape_class << " holds none of the problems it was tuned on";
  }
  EXPECT_GT(checked, 50);
}

// ---- blocks: lines stated once ------------------------------------------------------------------

namespace {

// What a variant resolves to, as the launches see it.
std::string resolved(const Variant& v) {
  std::string s = v.id() + " " + v.file + " " + v.build_options() + " needs";
  for (const auto& n : v.needs) s += " " + n;
  for (const auto& [name, values] : v.tunables) {
    s += " tune " + name + "=";
    for (const auto& x : values) s += x + ",";
  }
  for (const auto& r : v.requires_) s += " require " + r.text();
  for (const auto& c : v.classes) s += " class " + c.name + ":" + (c.when.empty() ? "" : c.when.text());
  for (const auto& d : v.dtypes) s += " " + d;
  return s;
}

}  // namespace

TEST(PlanBlocks, AVariantThatUsesABlockIsTheVariantWrittenOut) {
  const std::string full =
      "op matmul\nvariant a\n  define TS=16 WPT=4\n  tune TS=8,16,32\n  require TS % WPT == 0\n  class small when m < 64\n  class large\n"
      "  step s\n    args a, b, y\n    global n\n"
      "variant b\n  define TS=32 WPT=4 EXTRA=1\n  tune TS=8,16,32\n  require TS % WPT == 0\n  require TS >= 8\n  class small when m < 64\n  class "
      "large\n"
      "  step s\n    args a, b, y\n    global n\n";
  const std::string blocks =
      "block tiles  # the shared lines\n  define TS=16 WPT=4\n  tune TS=8,16,32\n  require TS % WPT == 0\n  class small when m < 64\n  class large\n"
      "op matmul\nvariant a\n  use tiles\n  step s\n    args a, b, y\n    global n\n"
      "variant b\n  use tiles\n  define TS=32 EXTRA=1\n  require TS >= 8\n  step s\n    args a, b, y\n    global n\n";
  const auto a = parse_plan(full, "t.plan"), b = parse_plan(blocks, "t.plan");
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(resolved(a[i]), resolved(b[i]));
}

TEST(PlanBlocks, RestatingABlocksLineUnknownOrUnusedBlocksAndMixedClassesAreErrors) {
  const std::string block = "block tiles\n  define TS=16\n  require TS >= 8\n  class large\nop matmul\n";
  const std::string step = "  step s\n    args a, b, y\n    global n\n";
  EXPECT_EQ(plan_error(block + "variant v\n  use tiles\n  define TS=16\n" + step), "t.plan:8: define TS=16 restates its block's line: leave it out");
  EXPECT_EQ(plan_error(block + "variant v\n  use tiles\n  require TS >= 8\n" + step),
            "t.plan:8: require TS >= 8 restates its block's line: leave it out");
  EXPECT_EQ(plan_error(block + "variant v\n  use tile\n" + step), "t.plan:7: no block named 'tile' before this line (blocks: tiles)");
  EXPECT_EQ(plan_error(block + "variant v\n  define TS=16\n" + step), "t.plan:1: block tiles is used by no variant ('use tiles')");
  EXPECT_EQ(plan_error(block + "variant v\n  use tiles\n  class small when m < 8\n" + step),
            "t.plan:8: class small when m < 8: this variant's classes come from its block (a variant takes a block's classes or states all its own)");
  EXPECT_EQ(plan_error("block tiles\n  define TS=x y\nop matmul\nvariant v\n  use tiles\n" + step),
            "t.plan:5: block tiles, t.plan:2: define 'y' must be NAME=VALUE");
}

// `step A or B if FLAG` is the two steps written out: A where FLAG is 0 with the arguments not marked
// `if FLAG`, B where it is 1 with all of them; a block of steps stands among the steps, and blocks use
// blocks.
TEST(PlanBlocks, PairedStepsAndBlocksOfStepsAreTheStepsWrittenOut) {
  const std::string full =
      "op conv2d\nvariant v\n  step fwd\n    when bias == 0\n    args x, tensor:w, y\n    global n\n"
      "  step fwd_bias\n    when bias == 1\n    args x, tensor:w, tensor:bias, y\n    global n\n"
      "  step fix\n    args x, y\n    global 64\n    local 64\n";
  const std::string paired =
      "block fix_steps  # a block of steps\n  step fix\n    args x, y\n    global 64\n    local 64\n"
      "block tail\n  use fix_steps\n"
      "op conv2d\nvariant v\n  step fwd or fwd_bias if bias\n    args x, tensor:w, tensor:bias if bias, y\n    global n\n  use tail\n";
  const auto a = parse_plan(full, "t.plan"), b = parse_plan(paired, "t.plan");
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  ASSERT_EQ(a[0].steps.size(), b[0].steps.size());
  for (size_t i = 0; i < a[0].steps.size(); ++i) {
    const Step &x = a[0].steps[i], &y = b[0].steps[i];
    EXPECT_EQ(x.entry, y.entry);
    EXPECT_EQ(x.when.text(), y.when.text());
    ASSERT_EQ(x.args.size(), y.args.size()) << x.entry;
    for (size_t j = 0; j < x.args.size(); ++j) EXPECT_EQ(x.args[j].text, y.args[j].text);
    EXPECT_EQ(x.global.size(), y.global.size());
    EXPECT_EQ(x.local.size(), y.local.size());
  }
  const std::string head = "op conv2d\nvariant v\n";
  EXPECT_EQ(plan_error(head + "  step fwd or fwd_bias\n    args x, tensor:w, y\n    global n\n"),
            "t.plan:3: 'step fwd or fwd_bias': a paired step is 'step ENTRY or ENTRY_WITH if FLAG' (FLAG an attribute that is 0 or 1)");
  EXPECT_EQ(plan_error(head + "  step fwd or fwd_bias if bias\n    when n > 1\n    args x, tensor:w, y\n    global n\n"),
            "t.plan:4: step fwd or fwd_bias runs by its flag bias: it takes no 'when'");
  EXPECT_EQ(plan_error(head + "  step fwd\n    args x, tensor:w, tensor:bias if bias, y\n    global n\n"),
            "t.plan:4: 'tensor:bias if bias': 'if FLAG' marks an argument of a paired step's second entry ('step A or B if bias')");
  EXPECT_EQ(plan_error("block loop\n  use loop\nop conv2d\nvariant v\n  use loop\n  step s\n    args x, tensor:w, y\n    global n\n"),
            "t.plan:5: block loop, t.plan:2: block loop uses itself");
  EXPECT_EQ(plan_error("block fix\n  step fix\n    args x, y\n    global 64\nop conv2d\nvariant v\n  step s\n    args x, tensor:w, y\n    global n\n "
                       " use fix\n  dtypes f16\n"),
            "t.plan:11: 'dtypes' belongs to the variant: put it before the first 'step'");
}

namespace {

// A kernel header's guards that cite the require lines (`#if COND` before `#error "... require line
// ..."`), with the header's object-like macros (MWI, SLICE_WGS, defaults such as KSLICES) at hand.
struct HeaderGuards {
  std::vector<std::string> conditions;
  std::map<std::string, std::string> macros;
};

HeaderGuards guards_of(const std::string& path) {
  HeaderGuards g;
  std::ifstream f(path);
  std::string line, last_if;
  while (std::getline(f, line)) {
    if (line.rfind("#if ", 0) == 0) last_if = line.substr(4);
    if (line.rfind("#error", 0) == 0 && line.find("require line") != std::string::npos) g.conditions.push_back(last_if);
    if (line.rfind("#define ", 0) == 0) {
      std::istringstream in(line.substr(8));
      std::string name, value;
      in >> name;
      std::getline(in, value);
      value = value.substr(0, value.find("//"));
      if (name.find('(') == std::string::npos && !value.empty()) g.macros.emplace(name, value);  // the first: a default's own
    }
  }
  return g;
}

// The headers a kernel file includes, directly or through others, in kernel_dir().
void included(const std::string& file, std::set<std::string>& out) {
  std::ifstream f(kernel_dir() + "/" + file);
  for (std::string line; std::getline(f, line);)
    if (const size_t at = line.find("#include \""); at != std::string::npos) {
      const std::string name = line.substr(at + 10, line.find('"', at + 10) - at - 10);
      if (out.insert(name).second) included(name, out);
    }
}

}  // namespace

// One source of truth for a GEMM core's constraints: the headers refuse tiles they cannot run (#error),
// and every candidate the plans' require lines allow (defaults, tuned values, the whole search space)
// is one the headers accept; a header guard that the plans do not imply fails here.
TEST(OurPlans, EveryCandidateTheRequireLinesAllowPassesTheHeadersGuards) {
  std::map<std::string, HeaderGuards> headers;
  for (const char* h : {"xgemm.h", "xgemm_mma.h", "xgemm_mma_async.h", "xgemm_tf32.cl", "xgemm_skinny.cl"}) {
    headers[h] = guards_of(kernel_dir() + "/" + h);
    ASSERT_FALSE(headers[h].conditions.empty()) << h << ": no guard cites the require lines";
  }
  int variants = 0, candidates = 0;
  for (const auto& op : ops_with_plans()) {
    for (const Variant& v : our_variants(op)) {
      std::set<std::string> files{std::filesystem::path(v.file).filename().string()};  // a kernel file may hold its core
      included(*files.begin(), files);
      std::vector<const HeaderGuards*> guards;
      for (const auto& [name, g] : headers)
        if (files.count(name)) guards.push_back(&g);
      if (guards.empty()) continue;
      ++variants;
      // The search space, in order (at most 20000 of it), from the plan's defaults.
      std::vector<size_t> at(v.tunables.size(), 0);
      for (int n = 0; n < 20000; ++n) {
        std::vector<std::pair<std::string, std::string>> pick;
        for (size_t i = 0; i < at.size(); ++i) pick.emplace_back(v.tunables[i].first, v.tunables[i].second[at[i]]);
        const Variant c = v.with_defines(pick);
        if (c.unmet_requirement().empty()) {
          ++candidates;
          Env env;
          std::function<std::optional<Value>(const std::string&, int)> value = [&](const std::string& name, int depth) -> std::optional<Value> {
            if (const std::string* d = c.define(name)) return Value{std::stoll(*d)};
            for (const auto* g : guards)
              if (auto m = g->macros.find(name); m != g->macros.end() && depth < 8) {
                Env inner;
                inner.value = [&](const std::string& x) { return value(x, depth + 1); };
                return Expr::parse(m->second).eval(inner);
              }
            return std::nullopt;
          };
          env.value = [&](const std::string& name) { return value(name, 0); };
          for (const auto* g : guards)
            for (const auto& cond : g->conditions)
              EXPECT_EQ(Expr::parse(cond).eval_int(env), 0)
                  << v.id() << " " << c.build_options() << ": its require lines hold, the header's '#if " << cond << "' refuses it";
        }
        size_t i = 0;
        while (i < at.size() && ++at[i] == v.tunables[i].second.size()) at[i++] = 0;
        if (i == at.size()) break;
      }
    }
  }
  EXPECT_GE(variants, 20);
  EXPECT_GE(candidates, 10000);
}

// Our plans state the GEMM cores' constraints once (opencl/kernels/gemm_cores.blocks): the 48 KiB
// limit of the tensor-core slabs stands in one place.
TEST(PlanBlocks, OurPlansStateTheCoresLimitsOnce) {
  int stated = 0;
  for (const auto& e : std::filesystem::directory_iterator(kernel_dir())) {
    std::ifstream f(e.path());
    for (std::string line; std::getline(f, line);) stated += line.find("* 2 <= 49152") != std::string::npos;
  }
  EXPECT_EQ(stated, 1);
}
