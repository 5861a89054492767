// The non-finite policies (check/compare.hpp, docs/verification.md): where each family's error model
// says IEEE evaluation of the formula departs from the reference, and what the two policies make of a
// result there. Host code only, on hand-made inputs; PyTorch's kernels as a client are
// python/tests/test_torch_kernels.py, a kernel file through the CLI is cli_test's.
#include <gtest/gtest.h>

#include <cmath>

#include "check/compare.hpp"
#include "check/error_models.hpp"
#include "check/function_check.hpp"
#include "core/problem.hpp"
#include "reference/reference.hpp"

namespace plumbline {
namespace {

constexpr double kInf = INFINITY;

TensorD values(std::vector<double> v) {
  TensorD t(Shape{static_cast<int64_t>(v.size())});
  t.data = std::move(v);
  return t;
}

TensorF floats(std::vector<float> v) {
  TensorF t(Shape{static_cast<int64_t>(v.size())});
  t.data = std::move(v);
  return t;
}

// The first output's model for a problem at these inputs (shapes from the problem's signature).
ErrorModel model_of(const std::string& line, std::vector<std::vector<double>> inputs, NonfinitePolicy policy = NonfinitePolicy::Limits) {
  const Problem p = Problem::parse(line);
  const Signature sig = signature_of(p);
  std::vector<TensorD> in;
  for (size_t i = 0; i < inputs.size(); ++i) {
    in.emplace_back(sig.inputs[i].shape);
    in.back().data = inputs[i];
  }
  const auto ref = run_reference(p, in);
  return error_models(p, in, ref, false, policy).at(0);
}

uint8_t classes_at(const ErrorModel& m, size_t i) { return m.ieee.empty() ? 0 : m.ieee.at(i).classes; }

// -- compare() under the two policies ---------------------------------------------------------------

ErrorModel one_departure() {
  ErrorModel m{false, 1, 0, values({0, 0})};
  m.depart(2, 0, IeeeOutcome::kNaN, EdgeRule::Limit, "f(-Inf) is -0 by its limit, where IEEE evaluation gives NaN");
  return m;
}

TEST(NonfinitePolicy, ADepartureFailsUnderLimitsNamingItsRuleAndPassesUnderIeee) {
  ErrorModel m = one_departure();
  const TensorD ref = values({-0.0, 1.0});
  const TensorF got = floats({NAN, 1.0f});
  const Comparison limits = compare("y", got, ref, m);
  EXPECT_FALSE(limits.passed);
  EXPECT_EQ(verdict_of(limits), "non-finite: limit");
  EXPECT_NE(limits.message.find("[non-finite: limit: f(-Inf) is -0 by its limit, where IEEE evaluation gives NaN; --nonfinite ieee accepts it]"),
            std::string::npos)
      << limits.message;
  m.nonfinite = NonfinitePolicy::Ieee;
  const Comparison ieee = compare("y", got, ref, m);
  EXPECT_TRUE(ieee.passed) << ieee.message;
  EXPECT_EQ(ieee.ieee_accepted, 1);
}

TEST(NonfinitePolicy, IeeePassesOnlyTheClassesRecordedWhereTheyAreRecorded) {
  ErrorModel m = one_departure();
  m.nonfinite = NonfinitePolicy::Ieee;
  const TensorD ref = values({-0.0, 1.0});
  // +Inf is not what IEEE evaluation gives at element 0; NaN is nothing it gives at element 1.
  for (const TensorF& got : {floats({INFINITY, 1.0f}), floats({-0.0f, NAN})}) {
    const Comparison c = compare("y", got, ref, m);
    EXPECT_FALSE(c.passed);
    EXPECT_EQ(verdict_of(c), "non-finite") << c.message;
  }
}

TEST(NonfinitePolicy, AProperMismatchGivesTheVerdictAndTheMessageOverARulesOne) {
  const ErrorModel m = one_departure();
  const Comparison c = compare("y", floats({NAN, 2.0f}), values({-0.0, 1.0}), m);
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.rule_mismatches, 1);
  EXPECT_EQ(verdict_of(c), "wrong");
  EXPECT_EQ(c.first_index, 1) << c.message;
}

TEST(NonfinitePolicy, PoliciesAreNamedLimitsAndIeee) {
  EXPECT_EQ(nonfinite_policy_from("ieee"), NonfinitePolicy::Ieee);
  EXPECT_EQ(nonfinite_policy_from("limits"), NonfinitePolicy::Limits);
  try {
    nonfinite_policy_from("lenient");
    FAIL() << "an unknown policy was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--nonfinite 'lenient': the non-finite policies are limits (the default) and ieee"), std::string::npos);
  }
}

// -- where each family departs ----------------------------------------------------------------------

TEST(NonfiniteDepartures, GeluAndSiluAtMinusInfinityAndSilusOverflowingExp) {
  const ErrorModel gelu = model_of("act:n=3,act=gelu_tanh", {{-kInf, kInf, -1e30}});
  EXPECT_EQ(classes_at(gelu, 0), IeeeOutcome::kNaN);
  EXPECT_EQ(gelu.ieee.at(0).rule, EdgeRule::Limit);
  EXPECT_EQ(classes_at(gelu, 1), 0);  // Inf x 1: the limit itself
  EXPECT_EQ(classes_at(gelu, 2), 0);  // x^3 overflows to tanh(-Inf) = -1: -0, the reference's
  const ErrorModel silu = model_of("act:n=3,act=silu", {{-100, -80, -kInf}});
  EXPECT_EQ(classes_at(silu, 0), IeeeOutcome::kZero);
  EXPECT_EQ(silu.ieee.at(0).rule, EdgeRule::Overflow);
  EXPECT_EQ(classes_at(silu, 1), 0);  // exp(80) is a float
  EXPECT_EQ(classes_at(silu, 2), IeeeOutcome::kNaN);
  EXPECT_TRUE(model_of("act:n=2,act=relu", {{-kInf, kInf}}).ieee.empty());  // relu's formula has no product
}

TEST(NonfiniteDepartures, DerivativesAtInfinityAndGeluTanhsSquareOverflowing) {
  const ErrorModel gelu = model_of("act_bwd:n=4,act=gelu_tanh", {{kInf, -kInf, 1e20, 1e18}, {1, 1, 1, 1}});
  EXPECT_EQ(classes_at(gelu, 0), IeeeOutcome::kNaN);
  EXPECT_EQ(gelu.ieee.at(0).rule, EdgeRule::Limit);
  EXPECT_EQ(classes_at(gelu, 1), IeeeOutcome::kNaN);
  EXPECT_EQ(gelu.ieee.at(2).rule, EdgeRule::Overflow);  // x^2 past float's range
  EXPECT_EQ(classes_at(gelu, 3), 0);
  EXPECT_EQ(classes_at(model_of("act_bwd:n=2,act=silu", {{kInf, 1e20}, {1, 1}}), 1), 0);  // silu' holds no x^2
  EXPECT_TRUE(model_of("act_bwd:n=2,act=tanh", {{kInf, -kInf}, {1, 1}}).ieee.empty());    // 1 - t^2 = 0: the limit
}

TEST(NonfiniteDepartures, AWeightGradientsNonFiniteDyMeetingPadding) {
  // x 3x3 padded by 1, d_y 3x3: tap (r, s) of d_w pairs d_y[p, q] with x[p + r - 1, q + s - 1].
  const std::string line = "conv2d_bwd_weight:h=3,w=3,r=3,s=3,ph=1,pw=1";
  const std::vector<double> x(9, 2.0);
  std::vector<double> dy(9, 1.0);
  EXPECT_TRUE(model_of(line, {x, dy}).ieee.empty());
  dy[0] = kInf;  // d_y[0, 0] meets padding at the taps of row 0 or column 0, x elsewhere
  const ErrorModel m = model_of(line, {x, dy});
  EXPECT_EQ(classes_at(m, 0), IeeeOutcome::kNaN);
  EXPECT_EQ(m.ieee.at(0).rule, EdgeRule::Padding);
  EXPECT_EQ(classes_at(m, 4), 0);  // the centre tap: x[0, 0]
  EXPECT_EQ(classes_at(m, 8), 0);
}

TEST(NonfiniteDepartures, APreActivationOfMinusInfinityInGemmBiasAct) {
  // y = gelu(a b + bias) with a = -Inf, b = 1: the pre-activation is -Inf.
  const ErrorModel m = model_of("gemm_bias_act:m=1,k=1,n=2,act=gelu_erf", {{-kInf}, {1, 0}, {0, 0}});
  EXPECT_EQ(classes_at(m, 0), IeeeOutcome::kNaN);
  EXPECT_EQ(classes_at(m, 1), 0);  // -Inf x 0 + 0 is NaN in the reference too
}

TEST(NonfiniteDepartures, PaddingMeetsANonFiniteWeightOnlyWherePaddingIsInTheWindow) {
  // One input cell, a 3x3 filter, padding 1 on each side: every tap but the centre meets padding.
  std::vector<double> w(9, 1.0);
  EXPECT_TRUE(model_of("conv2d:h=1,w=1,r=3,s=3,ph=1,pw=1", {{2.0}, w}).ieee.empty());
  w[0] = kInf;
  const ErrorModel corner = model_of("conv2d:h=1,w=1,r=3,s=3,ph=1,pw=1", {{2.0}, w});
  EXPECT_EQ(classes_at(corner, 0), IeeeOutcome::kNaN);
  EXPECT_EQ(corner.ieee.at(0).rule, EdgeRule::Padding);
  w[0] = 1.0, w[4] = -kInf;  // the centre meets the input cell: -Inf by the reference too
  EXPECT_TRUE(model_of("conv2d:h=1,w=1,r=3,s=3,ph=1,pw=1", {{2.0}, w}).ieee.empty());
}

TEST(NonfiniteDepartures, AWindowSumThatOverflowsBeforeTheDivisionGivesTheClassesItCan) {
  const std::string pool = "avg_pool2d:h=2,w=2,kh=2,kw=2,sh=2,sw=2";
  EXPECT_EQ(classes_at(model_of(pool, {{2e38, 2e38, 1, 0}}), 0), IeeeOutcome::kPosInf);
  EXPECT_EQ(classes_at(model_of(pool, {{-2e38, -2e38, 1, 0}}), 0), IeeeOutcome::kNegInf);
  EXPECT_EQ(classes_at(model_of(pool, {{2e38, 2e38, -2e38, -2e38}}), 0), IeeeOutcome::kPosInf | IeeeOutcome::kNegInf | IeeeOutcome::kNaN);
  EXPECT_EQ(classes_at(model_of(pool, {{2e38, 2e38, -kInf, 0}}), 0), IeeeOutcome::kNaN);  // Inf - Inf
  EXPECT_TRUE(model_of(pool, {{2e38, 1e38, 1, 0}}).ieee.empty());                         // 3e38: a float
  EXPECT_EQ(classes_at(model_of("mean:m=1,n=3,over=row", {{3e38, 3e38, 1}}), 0), IeeeOutcome::kPosInf);
  EXPECT_EQ(classes_at(model_of("global_avg_pool:h=1,w=2", {{-3e38, -3e38}}), 0), IeeeOutcome::kNegInf);
}

TEST(NonfiniteDepartures, OnePassMomentsOverflowWhereTheTwoPassSumDoesNot) {
  // x = 1e30 alone in its row: E[x^2] - mean^2 is Inf - Inf; the reference's (x - mean)^2 is 0.
  const ErrorModel alone = model_of("layer_norm:m=1,n=1", {{1e30}, {2}, {-3}});
  EXPECT_EQ(classes_at(alone, 0), IeeeOutcome::kNaN);
  EXPECT_EQ(alone.ieee.at(0).rule, EdgeRule::Overflow);
  // 1e19 four times: sum x^2 overflows, mean^2 does not: var = Inf, rstd = 0, y = beta.
  const ErrorModel four = model_of("layer_norm:m=1,n=4", {{1e19, 1e19, 1e19, 1e19}, {2, 2, 2, 2}, {-3, -3, -3, -3}});
  EXPECT_EQ(classes_at(four, 0), IeeeOutcome::kValue);
  EXPECT_EQ(four.ieee.at(0).value, -3);
  EXPECT_TRUE(model_of("layer_norm:m=1,n=2", {{1e18, -1e18}, {2, 2}, {-3, -3}}).ieee.empty());
}

TEST(NonfiniteDepartures, AZeroLabelWeightAgainstALogitOfMinusInfinity) {
  const ErrorModel m = model_of("cross_entropy:b=1,c=3,labels=soft", {{-kInf, 0, 1}, {0, 0.5, 0.5}});
  EXPECT_EQ(classes_at(m, 0), IeeeOutcome::kNaN);
  EXPECT_EQ(m.ieee.at(0).rule, EdgeRule::Limit);
  EXPECT_TRUE(model_of("cross_entropy:b=1,c=3,labels=soft", {{-kInf, 0, 1}, {0.2, 0.3, 0.5}}).ieee.empty());  // Inf by both
}

// -- a function under both policies: the check's verdict, and the policy in the result --------------

TEST(NonfinitePolicy, AFunctionCheckJudgesUnderThePolicyItIsGiven) {
  // gelu_tanh as its formula reads, in float: NaN at -Inf.
  const OutputsFn literal = [](const Problem&, const std::vector<TensorF>& in) {
    TensorF y(in[0].shape);
    for (int64_t i = 0; i < y.numel(); ++i) {
      const float v = in[0][i];
      y[i] = 0.5f * v * (1.0f + std::tanh(0.7978845608f * (v + 0.044715f * v * v * v)));
    }
    return std::vector<TensorF>{y};
  };
  const Problem p = Problem::parse("act:n=3,act=gelu_tanh");
  const CaseResult limits = check_function_case(p, Values::Edge, 20, literal);
  EXPECT_EQ(limits.verdict, "non-finite: limit") << limits.message;
  const CaseResult ieee = check_function_case(p, Values::Edge, 20, literal, NonfinitePolicy::Ieee);
  EXPECT_TRUE(ieee.passed) << ieee.message;
  EXPECT_EQ(ieee.nonfinite, NonfinitePolicy::Ieee);
  EXPECT_EQ(ieee.ieee_accepted, 1);
}

}  // namespace
}  // namespace plumbline
