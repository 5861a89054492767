// check/sampling: a sample of units is judged exactly as the full check judges them. The "kernel" here
// is the double reference rounded to float (a correct kernel); corrupting it shows what the sample
// catches: an element in a corner unit always, a fraction of the outputs, a NaN anywhere.
#include <gtest/gtest.h>

#include <cmath>

#include "check/compare.hpp"
#include "check/error_models.hpp"
#include "check/sampling.hpp"
#include "core/random.hpp"
#include "core/registry.hpp"
#include "reference/reference.hpp"

using namespace plumbline;

namespace {

// Every slicer's operator, at shapes with its awkward attributes (transposes, batches, shared B,
// groups, strides, dilation, padding, bias).
const std::vector<std::string> kProblems = {
    "matmul:batch=2,m=37,k=41,n=23,ta=1,tb=1",
    "matmul:m=60,k=130,n=65",
    "gemm_bias_act:batch=3,m=9,k=33,n=17,act=gelu_tanh,bshared=0",
    "gemm_bias_act:batch=2,m=12,k=7,n=31,act=silu,bshared=1",
    "gemm_bias_act_bwd:batch=2,m=11,k=13,n=9,act=gelu_erf,bshared=1",
    "gemm_bias_act_bwd:batch=3,m=7,k=10,n=12,act=relu,bshared=0",
    "gemm_bias_act_bwd:m=20,k=6,n=15,act=tanh",
    "conv2d:n=2,c=6,h=13,w=11,k=4,r=3,s=2,sh=2,sw=1,ph=1,pw=2,dh=2,dw=1,g=2,bias=1",
    "conv2d_bwd_data:n=2,c=6,h=12,w=9,k=9,r=3,s=3,sh=2,sw=3,ph=1,pw=0,dh=1,dw=2,g=3",
    "conv2d_bwd_weight:n=3,c=4,h=10,w=7,k=6,r=2,s=3,sh=1,sw=2,ph=0,pw=1,dh=2,dw=1,g=2,bias=1",
};

struct Case {
  Problem p;
  std::vector<TensorF> in;
  std::vector<TensorD> ref;
  std::vector<TensorF> got;  // the reference rounded to float: a correct kernel
};

Case make_case(const std::string& line, Values values, uint64_t seed = 7) {
  Case c{Problem::parse(line), {}, {}, {}};
  Rng rng(seed);
  std::vector<TensorD> in_d;
  for (const auto& decl : signature_of(c.p).inputs) {
    c.in.push_back(make_input(decl, values, rng));
    in_d.push_back(c.in.back().convert<double>());
  }
  c.ref = run_reference(c.p, in_d);
  for (const auto& r : c.ref) c.got.push_back(r.convert<float>());
  return c;
}

// The worst error/bound ratio of the full check.
double full_worst_ratio(const Case& c, bool ints) {
  std::vector<TensorD> in_d;
  for (const auto& t : c.in) in_d.push_back(t.convert<double>());
  const auto models = error_models(c.p, in_d, c.ref, ints);
  double worst = 0;
  for (size_t o = 0; o < c.ref.size(); ++o) worst = std::max(worst, compare("out", c.got[o], c.ref[o], models[o]).worst_ratio);
  return worst;
}

}  // namespace

TEST(Sampling, ACorrectKernelPassesAndSmallProblemsAreSampledWhole) {
  for (const auto& line : kProblems)
    for (Values v : {Values::Integers, Values::Normal}) {
      const Case c = make_case(line, v);
      const SampledCheck s = check_sampled(c.p, c.in, c.got, v == Values::Integers, 1);
      EXPECT_TRUE(s.passed) << line << ": " << s.message;
      // Small enough that every unit fits the budget: the same elements, the same worst ratio.
      EXPECT_NE(s.summary.find("(all)"), std::string::npos) << s.summary;
      EXPECT_EQ(s.summary.find("caught with"), std::string::npos) << s.summary;
      EXPECT_NEAR(s.worst_ratio, full_worst_ratio(c, v == Values::Integers), 1e-6 + 1e-6 * s.worst_ratio) << line;
      int64_t outputs = 0;
      for (const auto& t : c.got) outputs += t.numel();
      // Every output element is covered (d_bias once per filter of d_w: at least as many).
      EXPECT_GE(s.elements, outputs) << line << ": " << s.summary;
    }
}

TEST(Sampling, AWrongElementInACornerUnitIsAlwaysFound) {
  for (const auto& line : kProblems) {
    Case c = make_case(line, Values::Normal);
    // The last element of the first output lies in the grid's last corner unit.
    TensorF& y = c.got[0];
    y[y.numel() - 1] += 1.0f + 2 * std::abs(y[y.numel() - 1]);
    const SampledCheck s = check_sampled(c.p, c.in, c.got, false, 3);
    EXPECT_FALSE(s.passed) << line;
    EXPECT_EQ(s.verdict, "wrong") << line;
    const std::string name = signature_of(c.p).outputs[0].name;
    EXPECT_NE(s.message.find("output '" + name + "' element ["), std::string::npos) << s.message;
  }
}

TEST(Sampling, LargeProblemsAreSampledWithAStatedDetectionRate) {
  // 256 x 2048 x 256: 65536 elements of y; elements are cheap, so the cap (kMaxSampledUnits) decides how
  // many are drawn; the summary states the fraction caught with 99% probability.
  Case c = make_case("matmul:m=256,k=2048,n=256", Values::Uniform);
  const SampledCheck s = check_sampled(c.p, c.in, c.got, false, 5);
  EXPECT_TRUE(s.passed) << s.message;
  EXPECT_NE(s.summary.find("of 65536 elements of y (a fault in 0.112% of them is caught with probability 99%)"), std::string::npos) << s.summary;
  EXPECT_NEAR(fraction_caught(4096), 1 - std::pow(0.01, 1.0 / 4096), 1e-15);
  // 2% of the outputs wrong (every 50th): missed with probability 0.98^4096 ~ 1e-36.
  for (int64_t i = 0; i < c.got[0].numel(); i += 50) c.got[0][i] += 1.0f;  // the bound is ~0.1 here
  const SampledCheck w = check_sampled(c.p, c.in, c.got, false, 5);
  EXPECT_FALSE(w.passed);
  EXPECT_GT(w.mismatches, 40);
}

TEST(Sampling, ExactModeHoldsOnSampledIntegerProblems) {
  Case c = make_case("conv2d:n=2,c=6,h=13,w=11,k=4,r=3,s=2,sh=2,sw=1,ph=1,pw=2,dh=2,dw=1,g=2,bias=1", Values::Integers);
  c.got[0][0] = std::nextafter(c.got[0][0], 1e30f);  // one ulp off, in the first corner plane
  const SampledCheck s = check_sampled(c.p, c.in, c.got, true, 1);
  EXPECT_FALSE(s.passed);
  EXPECT_NE(s.message.find("exact mode"), std::string::npos) << s.message;
  EXPECT_NE(s.message.find("element [0,0,0,0]"), std::string::npos) << s.message;
}

TEST(Sampling, ANaNOutsideTheSampleIsFoundByTheWholeTensorCheck) {
  Case c = make_case("matmul:m=300,k=1200,n=300", Values::Normal);
  // Inside: elements of row 150 are random units only by chance; the whole-tensor check finds any.
  for (int64_t j = 100; j < 103; ++j) c.got[0][150 * 300 + j] = NAN;
  const SampledCheck s = check_sampled(c.p, c.in, c.got, false, 1);
  EXPECT_FALSE(s.passed);
  EXPECT_EQ(s.verdict, "non-finite");
  EXPECT_NE(s.message.find("output 'y' element [150,100]: kernel nan where every input is finite"), std::string::npos) << s.message;
}

TEST(Sampling, MostlyZeroOutputsAreUntrustworthy) {
  Case c = make_case("gemm_bias_act:batch=2,m=40,k=50,n=60,act=none,bshared=0", Values::Normal);
  for (auto& v : c.got[0].data) v = 0;
  const SampledCheck s = check_sampled(c.p, c.in, c.got, false, 1);
  EXPECT_FALSE(s.passed);
  EXPECT_TRUE(s.untrustworthy) << s.message;
}

TEST(Sampling, TheVerdictDoesNotDependOnTheThreads) {
  Case c = make_case("gemm_bias_act_bwd:batch=2,m=11,k=13,n=9,act=gelu_erf,bshared=1", Values::Normal);
  for (auto& t : c.got)
    for (int64_t i = 0; i < t.numel(); i += 7) t[i] += 0.5f;
  const SampledCheck a = check_sampled(c.p, c.in, c.got, false, 9), b = check_sampled(c.p, c.in, c.got, false, 9);
  EXPECT_EQ(a.message, b.message);
  EXPECT_EQ(a.mismatches, b.mismatches);
  EXPECT_EQ(a.worst_ratio, b.worst_ratio);
}

// Units that share most of their slice are cut together (gemm_bias_act_bwd's rows share B, its columns
// A; a convolution's planes of one image and group share x), up to 16 a slice, and a mismatch is still
// named by its own unit, in every output, with B per batch entry or shared, over groups.
TEST(Sampling, AUnitCutTogetherWithOthersIsNamedByItself) {
  struct Planted {
    std::string line;
    size_t output;
    int64_t flat;
    std::string unit;
  };
  const std::string batched = "gemm_bias_act_bwd:batch=2,m=20,k=6,n=19,act=relu,bshared=0", shared = "gemm_bias_act_bwd:m=40,k=6,n=37,act=tanh";
  const std::string conv = "conv2d:n=2,c=4,h=6,w=5,k=36,r=3,s=3,sh=1,sw=1,ph=1,pw=1,dh=1,dw=1,g=2,bias=1";  // 6 x 5 planes
  const std::vector<Planted> planted = {
      {batched, 0, (20 + 13) * 6 + 2, "[1,13] of the rows of d_a"},   // d_a[1, 13, 2]
      {batched, 1, (6 + 3) * 19 + 11, "[11] of the columns of d_b"},  // d_b[1, 3, 11]
      {batched, 2, 9, "[9] of the columns of d_b"},                   // d_bias[9]
      {shared, 0, 13 * 6 + 2, "[0,13] of the rows of d_a"},
      {shared, 1, 3 * 37 + 11, "[11] of the columns of d_b"},
      {shared, 2, 9, "[9] of the columns of d_b"},
      {conv, 0, (36 + 23) * 30 + 4, "[1,23] of the planes of y"},  // y[1, 23, 0, 4]: the second group's
  };
  for (const auto& [line, output, flat, unit] : planted) {
    Case c = make_case(line, Values::Uniform);  // no outliers: every bound here is far below 1
    c.got[output][flat] += 1.0f + 2 * std::abs(c.got[output][flat]);
    const SampledCheck s = check_sampled(c.p, c.in, c.got, false, 3);
    EXPECT_FALSE(s.passed) << line << ": output " << output;
    EXPECT_NE(s.message.find("(sampled unit " + unit), std::string::npos) << line << ": " << s.message;
  }
}
