// The error models at their edges: where a comparison's exceptions begin (check/error_models/). No
// OpenCL here: the models are host code, judged on hand-made inputs.
#include <gtest/gtest.h>

#include <cmath>

#include "check/compare.hpp"
#include "check/error_models.hpp"
#include "check/function_check.hpp"
#include "core/problem.hpp"
#include "reference/reference.hpp"

namespace plumbline {
namespace {

TEST(ErrorModels, ExactModeEndsWherePartialSumsLeaveFloat32sIntegers) {
  // 2^24 + 1 is no float: integer inputs whose magnitudes reach 2^24 are compared with the bound.
  const Problem p = Problem::parse("add:n=2");
  TensorD a(Shape{2}), b(Shape{2});
  a[0] = 16777216, b[0] = 1, a[1] = 2, b[1] = 3;
  const std::vector<TensorD> ref{run_reference(p, {a, b})};
  EXPECT_FALSE(error_models(p, {a, b}, ref, true)[0].exact);
  a[0] = 16777214;
  EXPECT_TRUE(error_models(p, {a, b}, ref, true)[0].exact);
}

TEST(ErrorModels, ASumPastTwoToTheTwentyFourTermsKeepsAFiniteBoundThatCanFail) {
  // gamma(K) with K u >= 1 was infinite (K = 2^24: every kernel passed a 4096 x 4096 sum) or negative
  // (K > 2^24: every kernel failed). Past 2^16 terms the bound is a blocked summation's.
  for (double k : {16777216.0, 16793603.0, 1073741824.0}) {
    ErrorModel model;
    model.k = k;
    model.mag = TensorD(Shape{1});
    model.mag[0] = k;  // k terms of magnitude 1
    TensorD ref(Shape{1});
    ref[0] = 0.5 * k;
    const double bound = error_bounds(ref, model)[0];
    EXPECT_GT(bound, 0.0) << k;
    EXPECT_LT(bound, 0.01 * k) << k;  // an error of 1% of sum |x| fails
    TensorF got(Shape{1});
    got[0] = static_cast<float>(0.5 * k - 0.01 * k);
    EXPECT_FALSE(compare("y", got, ref, model).passed) << k;
    got[0] = static_cast<float>(0.5 * k);
    EXPECT_TRUE(compare("y", got, ref, model).passed) << k;
  }
  EXPECT_EQ(gamma_of(1000), 1000 * kUnitRoundoff / (1 - 1000 * kUnitRoundoff));  // short sums: any order
}

TEST(ErrorModels, ASubnormalInputReadAsZeroPassesAndNothingElseDoes) {
  // 1 x 1 x 2 product: a = (s, 1) with s subnormal, b = (1e30, 1e-30). The true value is s * 1e30 +
  // 1e-30, far above FLT_MIN; a device that flushes subnormals (OpenCL allows it) gives 1e-30.
  const Problem p = Problem::parse("matmul:m=1,k=2,n=1");
  const Signature sig = signature_of(p);
  const float s = 1e-40f;
  ASSERT_EQ(std::fpclassify(s), FP_SUBNORMAL);
  CaseInputs in;
  in.f = {TensorF(Shape{1, 2}), TensorF(Shape{2, 1})};
  in.f[0][0] = s, in.f[0][1] = 1, in.f[1][0] = 1e30f, in.f[1][1] = 1e-30f;
  for (const auto& t : in.f) in.d.push_back(t.convert<double>());
  const std::vector<TensorD> ref = run_reference(p, in.d);
  const std::vector<ErrorModel> models = error_models(p, in.d, ref, false);
  auto judge = [&](float got) {
    TensorF out(Shape{1, 1});
    out[0] = got;
    CaseResult r{p, "test", "v", Values::Edge, 1};
    judge_case(r, p, sig, in, {out}, ref, models, false);
    return r;
  };
  EXPECT_TRUE(judge(static_cast<float>(ref[0][0])).passed);  // subnormals kept
  EXPECT_TRUE(judge(1e-30f).passed);                         // the subnormal read as zero
  const CaseResult wrong = judge(2e-30f);                    // neither
  EXPECT_FALSE(wrong.passed);
  EXPECT_EQ(wrong.verdict, "wrong");
  // A normal input is never read as zero: with a = (1e-37, 1) the flushed answer is wrong.
  in.f[0][0] = 1e-37f;
  in.d[0] = in.f[0].convert<double>();
  const std::vector<TensorD> ref_normal = run_reference(p, in.d);
  TensorF out(Shape{1, 1});
  out[0] = 1e-30f;
  CaseResult r{p, "test", "v", Values::Edge, 1};
  judge_case(r, p, sig, in, {out}, ref_normal, error_models(p, in.d, ref_normal, false), false);
  EXPECT_FALSE(r.passed);
}

TEST(ErrorModels, LayerNormLeavesInfiniteGammaTimesAZeroXhatUnjudged) {
  // Row 0 is (1, 0, 2): x[0] is the mean, xhat = 0, and gamma[0] = Inf: the reference's 0 * Inf is NaN,
  // and a float mean a rounding off (x * (1/3) summed) makes y +-Inf. Row 1 holds a NaN: its outputs
  // are NaN whatever gamma is, and stay judged.
  const Problem p = Problem::parse("layer_norm:m=2,n=3");
  TensorD x(Shape{2, 3}), gamma(Shape{3}), beta(Shape{3});
  x[0] = 1, x[1] = 0, x[2] = 2, x[3] = 1, x[4] = 0, x[5] = NAN;
  gamma[0] = INFINITY, gamma[1] = 1, gamma[2] = 1;
  const std::vector<TensorD> in{x, gamma, beta};
  const std::vector<TensorD> ref = run_reference(p, in);
  ASSERT_TRUE(std::isnan(ref[0][0]) && std::isnan(ref[0][3]));
  const ErrorModel m = error_models(p, in, ref, false)[0];
  TensorF got(Shape{2, 3});
  for (int64_t i = 0; i < 6; ++i) got[i] = static_cast<float>(ref[0][i]);
  got[0] = INFINITY;
  const Comparison c = compare("y", got, ref[0], m);
  EXPECT_TRUE(c.passed) << c.message;
  got[3] = INFINITY;  // NaN's row: Inf is wrong there
  EXPECT_FALSE(compare("y", got, ref[0], m).passed);
}

TEST(ErrorModels, LayerNormBackwardLeavesInfiniteGammaTimesAZeroXhatUnjudged) {
  // Found by kernel_test's edge values (a CI run, 2026-11-29): row 0 is two equal subnormals, so xhat = 0
  // and gg xhat = (-104 * -Inf) * 0 = NaN in the reference, while the kernels' float mean (the terms
  // x / 2 underflow to -0) leaves xhat at -4.4e-43 and d_x[1] at -Inf. Row 1 holds a NaN: its outputs
  // are NaN whatever gamma is, and stay judged.
  const Problem p = Problem::parse("layer_norm_bwd:m=2,n=2");
  TensorD x(Shape{2, 2}), gamma(Shape{2}), d_y(Shape{2, 2});
  x[0] = x[1] = -std::ldexp(1.0, -149), x[2] = NAN, x[3] = 2;
  gamma[0] = -INFINITY, gamma[1] = 0.03156947;
  d_y[0] = -104, d_y[1] = -0.21238379, d_y[2] = 1, d_y[3] = 1;
  const std::vector<TensorD> in{x, gamma, d_y};
  const std::vector<TensorD> ref = run_reference(p, in);
  ASSERT_TRUE(std::isnan(ref[0][1]) && std::isnan(ref[0][3]));
  const ErrorModel m = error_models(p, in, ref, false)[0];
  TensorF got(Shape{2, 2});
  for (int64_t i = 0; i < 4; ++i) got[i] = static_cast<float>(ref[0][i]);
  got[1] = -INFINITY;
  const Comparison c = compare("d_x", got, ref[0], m);
  EXPECT_TRUE(c.passed) << c.message;
  got[3] = -INFINITY;  // NaN's row: -Inf is wrong there
  EXPECT_FALSE(compare("d_x", got, ref[0], m).passed);
}

TEST(ErrorModels, LayerNormJudgesAnInfiniteGammaByClass) {
  // Row (1, 0, 2), gamma (1, Inf, -Inf): xhat = (0, -1.22, 1.22), so y[1] = -Inf and y[2] = -Inf. A
  // finite value, or Inf of the other sign, is wrong there, whatever the magnitudes.
  const Problem p = Problem::parse("layer_norm:m=1,n=3");
  TensorD x(Shape{1, 3}), gamma(Shape{3}), beta(Shape{3});
  x[0] = 1, x[1] = 0, x[2] = 2;
  gamma[0] = 1, gamma[1] = INFINITY, gamma[2] = -INFINITY;
  beta[1] = 5;
  const std::vector<TensorD> in{x, gamma, beta};
  const std::vector<TensorD> ref = run_reference(p, in);
  ASSERT_EQ(ref[0][1], -INFINITY);
  ASSERT_EQ(ref[0][2], -INFINITY);
  const ErrorModel m = error_models(p, in, ref, false)[0];
  TensorF got(Shape{1, 3});
  for (int64_t i = 0; i < 3; ++i) got[i] = static_cast<float>(ref[0][i]);
  EXPECT_TRUE(compare("y", got, ref[0], m).passed);
  got[1] = 5;  // beta alone, as a kernel that read gamma from the wrong place might give
  EXPECT_FALSE(compare("y", got, ref[0], m).passed);
  got[1] = -INFINITY, got[2] = INFINITY;
  EXPECT_FALSE(compare("y", got, ref[0], m).passed);
}

// compare() judges chunks of elements on the host's cores and joins them in order (core/parallel.hpp):
// its verdict must be one loop's. Planted errors in different chunks: the counts add up, the message
// names the first, and the worst element is the first of the two with the largest ratio.
TEST(Compare, ChunksJoinAsOneLoopOverEveryElement) {
  const int64_t n = int64_t{3} << 20;  // far more than a chunk (2^16 elements)
  TensorD ref(Shape{n});
  TensorF got(Shape{n});
  for (int64_t i = 0; i < n; ++i) ref[i] = 1.0 + static_cast<double>(i % 7), got[i] = static_cast<float>(ref[i]);
  ErrorModel model;
  model.k = 1;
  model.mag = TensorD(Shape{n});
  for (int64_t i = 0; i < n; ++i) model.mag[i] = 1.0;
  const Comparison clean = compare("y", got, ref, model);
  ASSERT_TRUE(clean.passed) << clean.message;
  EXPECT_EQ(clean.elements, n);
  const double unit = error_bounds(ref, model)[0];  // the same bound everywhere ref is 1 (i % 7 == 0)
  for (const int64_t i : {int64_t{700007}, int64_t{2100000}, int64_t{2800007}}) ASSERT_EQ(i % 7, 0) << i;
  got[700007] = static_cast<float>(1.0 + 3 * unit);   // ratio ~3, the first error
  got[2100000] = static_cast<float>(1.0 + 9 * unit);  // ratio ~9: the worst
  got[2800007] = static_cast<float>(1.0 + 9 * unit);  // the same ratio later: not the worst
  got[1400000] = NAN;                                 // a class error between them
  const Comparison c = compare("y", got, ref, model);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.mismatches, 4);
  EXPECT_EQ(c.nonfinite_mismatches, 1);
  EXPECT_EQ(c.first_index, 700007);
  EXPECT_NE(c.message.find("element 700007"), std::string::npos) << c.message;
  EXPECT_EQ(c.worst_index, 1400000);  // the NaN's ratio is infinite
  got[1400000] = static_cast<float>(ref[1400000]);
  const Comparison d = compare("y", got, ref, model);
  EXPECT_EQ(d.mismatches, 3);
  EXPECT_EQ(d.worst_index, 2100000);
  EXPECT_EQ(d.worst_ratio, std::abs(static_cast<double>(got[2100000]) - 1.0) / error_bounds(ref, model)[2100000]);
}

}  // namespace
}  // namespace plumbline
