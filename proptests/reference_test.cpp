// reference/ and the gradient checker: every reference backward against finite differences, identities
// that tie the references to independent formulations, hand-computed values, and planted wrong
// derivatives that the checker must reject.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>

#include "check/generators.hpp"
#include "check/gradcheck.hpp"
#include "core/random.hpp"
#include "core/registry.hpp"
#include "reference/activation.hpp"
#include "reference/reference.hpp"

using namespace plumbline;

namespace {

constexpr double kGradBudget = 2e5;

std::vector<std::string> backward_ops() {
  std::vector<std::string> v;
  for (const auto& s : Registry::get().all())
    if (!s.forward.empty()) v.push_back(s.name);
  return v;
}

std::vector<TensorD> random_inputs(const Problem& p, Values values, uint64_t seed) {
  Rng rng(seed);
  std::vector<TensorD> in;
  for (const auto& decl : signature_of(p).inputs) in.push_back(make_input(decl, values, rng).convert<double>());
  return in;
}

}  // namespace

// ---- every reference backward agrees with finite differences -------------------------------------

class ReferenceBackward : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceBackward, AgreesWithFiniteDifferences) {
  const std::string op = GetParam();
  const bool ok = rc::check(op + " agrees with finite differences", [op] {
    const Problem p = *problem_gen(op, kGradBudget);
    const auto seed = *rc::gen::inRange<uint64_t>(0, 1u << 30);
    const GradcheckResult r = gradcheck(p, seed);
    RC_TAG(r.mode);
    RC_LOG() << r.summary() << "\nrepro: plumbline gradcheck " << op << " --problem '" << p.line() << "' --seed " << seed << "\n";
    RC_ASSERT(r.passed);
  });
  EXPECT_TRUE(ok);
}

INSTANTIATE_TEST_SUITE_P(All, ReferenceBackward, ::testing::ValuesIn(backward_ops()), [](const auto& info) { return info.param; });

// Full and fast modes both run on every operator (Auto picks by size; force each once).
TEST(Gradcheck, BothModesPassOnEveryBackward) {
  for (const auto& op : backward_ops()) {
    for (auto mode : {GradcheckOptions::Mode::Full, GradcheckOptions::Mode::Fast}) {
      GradcheckOptions o;
      o.mode = mode;
      const GradcheckResult r = gradcheck(sample_problem(op, 2e4, 3, 0, 1).value(), 5, o);
      EXPECT_TRUE(r.passed) << op << ": " << r.summary();
      EXPECT_GT(r.checks, 0) << op;
    }
  }
}

// ---- the checker fails when it should ------------------------------------------------------------

namespace {

GradcheckResult check_with(const std::string& line, BackwardFn wrong, GradcheckOptions::Mode mode) {
  GradcheckOptions o;
  o.mode = mode;
  o.backward = std::move(wrong);
  return gradcheck(Problem::parse(line), 17, o);
}

void expect_rejected(const std::string& line, const BackwardFn& wrong) {
  for (auto mode : {GradcheckOptions::Mode::Full, GradcheckOptions::Mode::Fast}) {
    const GradcheckResult r = check_with(line, wrong, mode);
    EXPECT_FALSE(r.passed) << line << " (" << r.mode << "): " << r.summary();
    EXPECT_GT(r.worst_ratio, 1.0);
  }
  // ... and the same problem passes with the true backward, so the failure is the derivative's.
  EXPECT_TRUE(gradcheck(Problem::parse(line), 17).passed) << line;
}

}  // namespace

TEST(GradcheckRejects, GeluBackwardWithTheOtherFormula) {
  // A training framework's bug: forward gelu_tanh, backward the derivative of gelu_erf.
  expect_rejected("act_bwd:n=64,act=gelu_tanh", [](const Problem&, const std::vector<TensorD>& in) {
    TensorD dx(in[0].shape);
    for (int64_t i = 0; i < dx.numel(); ++i) dx[i] = in[1][i] * act_derivative(Act::GeluErf, in[0][i]);
    return std::vector<TensorD>{dx};
  });
}

TEST(GradcheckRejects, MaxPoolGradientSpreadLikeAveragePool) {
  expect_rejected("max_pool2d_bwd:n=1,c=2,h=6,w=5,kh=3,kw=2,sh=2,sw=1", [](const Problem& p, const std::vector<TensorD>& in) {
    const Problem avg = Problem::make("avg_pool2d_bwd", {{"n", p.i("n")},
                                                         {"c", p.i("c")},
                                                         {"h", p.i("h")},
                                                         {"w", p.i("w")},
                                                         {"kh", p.i("kh")},
                                                         {"kw", p.i("kw")},
                                                         {"sh", p.i("sh")},
                                                         {"sw", p.i("sw")},
                                                         {"ph", p.i("ph")},
                                                         {"pw", p.i("pw")}});
    return run_reference(avg, {in[1]});
  });
}

TEST(GradcheckRejects, BatchedWeightGradientSummedIntoFirstSlice) {
  expect_rejected("gemm_bias_act_bwd:batch=3,m=4,k=3,n=5,act=relu,bshared=0", [](const Problem& p, const std::vector<TensorD>& in) {
    std::vector<TensorD> g = run_reference(p, in);
    const int64_t slice = p.i("k") * p.i("n");
    for (int64_t b = 1; b < p.i("batch"); ++b)
      for (int64_t j = 0; j < slice; ++j) g[1][j] += g[1][b * slice + j], g[1][b * slice + j] = 0;
    return g;
  });
}

TEST(GradcheckRejects, LayerNormBackwardMissingTheVarianceTerm) {
  expect_rejected("layer_norm_bwd:m=3,n=7", [](const Problem& p, const std::vector<TensorD>& in) {
    // d_x = rstd * (g - mean(g)): forgets that the variance depends on x.
    std::vector<TensorD> g = run_reference(p, in);
    const int64_t m = p.i("m"), n = p.i("n");
    for (int64_t i = 0; i < m; ++i) {
      double mean = 0, var = 0, mg = 0;
      for (int64_t j = 0; j < n; ++j) mean += in[0][i * n + j] / n;
      for (int64_t j = 0; j < n; ++j) var += (in[0][i * n + j] - mean) * (in[0][i * n + j] - mean) / n;
      for (int64_t j = 0; j < n; ++j) mg += in[2][i * n + j] * in[1][j] / n;
      for (int64_t j = 0; j < n; ++j) g[0][i * n + j] = (in[2][i * n + j] * in[1][j] - mg) / std::sqrt(var + p.f("eps"));
    }
    return g;
  });
}

TEST(GradcheckRejects, EpsOutsideTheSquareRoot) {
  expect_rejected("rms_norm_bwd:m=2,n=5,eps=0.1", [](const Problem& p, const std::vector<TensorD>& in) {
    // The derivative of x / (sqrt(mean(x^2)) + eps) * gamma: eps added outside the root.
    const int64_t m = p.i("m"), n = p.i("n");
    const double eps = p.f("eps");
    TensorD dx(in[0].shape), dg(in[1].shape);
    for (int64_t i = 0; i < m; ++i) {
      double ms = 0, dot = 0;
      for (int64_t j = 0; j < n; ++j) ms += in[0][i * n + j] * in[0][i * n + j] / n, dot += in[2][i * n + j] * in[1][j] * in[0][i * n + j];
      const double rms = std::sqrt(ms), d = rms + eps;
      for (int64_t j = 0; j < n; ++j) {
        dx[i * n + j] = in[1][j] * in[2][i * n + j] / d - in[0][i * n + j] * dot / (n * rms * d * d);
        dg[j] += in[2][i * n + j] * in[0][i * n + j] / d;
      }
    }
    return std::vector<TensorD>{dx, dg};
  });
}

// ---- identities with independent formulations ----------------------------------------------------

namespace {

// A conv2d problem from the generator with stride 1 and padding no larger than the dilated kernel.
Problem stride_one_conv(const Problem& p) {
  const int64_t r = p.i("r"), s = p.i("s"), dh = p.i("dh"), dw = p.i("dw");
  return Problem::make("conv2d", {{"n", p.i("n")},
                                  {"c", p.i("c")},
                                  {"h", std::max(p.i("h"), dh * (r - 1) + 1)},
                                  {"w", std::max(p.i("w"), dw * (s - 1) + 1)},
                                  {"k", p.i("k")},
                                  {"r", r},
                                  {"s", s},
                                  {"ph", std::min(p.i("ph"), dh * (r - 1))},
                                  {"pw", std::min(p.i("pw"), dw * (s - 1))},
                                  {"dh", dh},
                                  {"dw", dw},
                                  {"g", p.i("g")}});
}

}  // namespace

RC_GTEST_PROP(ReferenceIdentity, BwdDataIsConvOfFlippedTransposedKernelAtStride1, ()) {
  const Problem p = stride_one_conv(*problem_gen("conv2d", 1e6));
  const Problem bwd = p.as("conv2d_bwd_data");
  const auto in = random_inputs(bwd, Values::Integers, *rc::gen::arbitrary<uint64_t>());  // w, d_y
  const int64_t c = p.i("c"), k = p.i("k"), g = p.i("g"), r = p.i("r"), s = p.i("s"), cg = c / g, kg = k / g;
  // w'[c, k/g, r, s] = w[k, c/g, R-1-r, S-1-s] within each group.
  TensorD flipped(Shape{c, kg, r, s});
  for (int64_t gi = 0; gi < g; ++gi)
    for (int64_t kl = 0; kl < kg; ++kl)
      for (int64_t cl = 0; cl < cg; ++cl)
        for (int64_t a = 0; a < r; ++a)
          for (int64_t b = 0; b < s; ++b)
            flipped[(((gi * cg + cl) * kg + kl) * r + a) * s + b] = in[0][(((gi * kg + kl) * cg + cl) * r + (r - 1 - a)) * s + (s - 1 - b)];
  const Shape y = signature_of(p).output("y").shape;
  const Problem full = Problem::make("conv2d", {{"n", p.i("n")},
                                                {"c", k},
                                                {"h", y[2]},
                                                {"w", y[3]},
                                                {"k", c},
                                                {"r", r},
                                                {"s", s},
                                                {"ph", p.i("dh") * (r - 1) - p.i("ph")},
                                                {"pw", p.i("dw") * (s - 1) - p.i("pw")},
                                                {"dh", p.i("dh")},
                                                {"dw", p.i("dw")},
                                                {"g", g}});
  const TensorD expected = run_reference(bwd, in)[0];
  const TensorD got = run_reference(full, {in[1], flipped})[0];
  RC_ASSERT(got.shape == expected.shape);
  RC_ASSERT(got.data == expected.data);  // integer values: exact in double
}

RC_GTEST_PROP(ReferenceIdentity, BwdWeightIsTheImplicitGemmOfSeed003, ()) {
  // M = K/g filters, N = C/g * R * S, K_gemm = N * P * Q, one GEMM per group (Eigen).
  const Problem p = (*problem_gen("conv2d", 1e6)).as("conv2d_bwd_weight");
  const auto in = random_inputs(p, Values::Integers, *rc::gen::arbitrary<uint64_t>());  // x, d_y
  const Shape ys = signature_of(p).input("d_y").shape;
  const int64_t n = p.i("n"), c = p.i("c"), h = p.i("h"), w = p.i("w"), k = p.i("k"), r = p.i("r"), s = p.i("s");
  const int64_t g = p.i("g"), cg = c / g, kg = k / g, P = ys[2], Q = ys[3];
  using Mat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  TensorD dw(Shape{k, cg, r, s});
  for (int64_t gi = 0; gi < g; ++gi) {
    Mat A(kg, n * P * Q), B = Mat::Zero(n * P * Q, cg * r * s);
    for (int64_t kl = 0; kl < kg; ++kl)
      for (int64_t ni = 0; ni < n; ++ni)
        for (int64_t pq = 0; pq < P * Q; ++pq) A(kl, ni * P * Q + pq) = in[1][((ni * k + gi * kg + kl) * P * Q) + pq];
    for (int64_t ni = 0; ni < n; ++ni)
      for (int64_t pi = 0; pi < P; ++pi)
        for (int64_t qi = 0; qi < Q; ++qi)
          for (int64_t cl = 0; cl < cg; ++cl)
            for (int64_t a = 0; a < r; ++a)
              for (int64_t b = 0; b < s; ++b) {
                const int64_t hi = pi * p.i("sh") - p.i("ph") + a * p.i("dh"), wi = qi * p.i("sw") - p.i("pw") + b * p.i("dw");
                if (hi >= 0 && hi < h && wi >= 0 && wi < w)
                  B((ni * P + pi) * Q + qi, (cl * r + a) * s + b) = in[0][((ni * c + gi * cg + cl) * h + hi) * w + wi];
              }
    Eigen::Map<Mat>(dw.data.data() + gi * kg * cg * r * s, kg, cg * r * s) = A * B;
  }
  RC_ASSERT(run_reference(p, in)[0].data == dw.data);
}

RC_GTEST_PROP(ReferenceIdentity, GroupNormWithOneGroupIsLayerNormOverCHW, ()) {
  const Problem gp = (*problem_gen("group_norm", 1e6)).with("g", int64_t{1});
  const int64_t c = gp.i("c"), hw = gp.i("h") * gp.i("w");
  const Problem lp = Problem::make("layer_norm", {{"m", gp.i("n")}, {"n", c * hw}, {"eps", gp.f("eps")}});
  const auto in = random_inputs(gp, Values::Normal, *rc::gen::arbitrary<uint64_t>());
  TensorD gamma(Shape{c * hw}), beta(Shape{c * hw});
  for (int64_t i = 0; i < c * hw; ++i) gamma[i] = in[1][i / hw], beta[i] = in[2][i / hw];
  TensorD x = in[0];
  x.shape = Shape{gp.i("n"), c * hw};
  const TensorD a = run_reference(gp, in)[0], b = run_reference(lp, {x, gamma, beta})[0];
  for (int64_t i = 0; i < a.numel(); ++i) RC_ASSERT(std::abs(a[i] - b[i]) <= 1e-12 * (1 + std::abs(b[i])));
}

RC_GTEST_PROP(ReferenceIdentity, SoftmaxIsInvariantToAConstantPerRow, ()) {
  const Problem p = *problem_gen(*rc::gen::element<std::string>("softmax", "log_softmax"), 1e6);
  const auto in = random_inputs(p, Values::Normal, *rc::gen::arbitrary<uint64_t>());
  const int64_t m = p.i("m"), n = p.i("n");
  TensorD shifted = in[0];
  for (int64_t i = 0; i < m; ++i) {
    const double shift = *rc::gen::inRange(-50, 51) + 0.25;
    for (int64_t j = 0; j < n; ++j) shifted[i * n + j] += shift;
  }
  const TensorD a = run_reference(p, in)[0], b = run_reference(p, {shifted})[0];
  // Adding the shift rounds x by at most half an ulp of 50: a few 1e-14 in the result.
  for (int64_t i = 0; i < a.numel(); ++i) RC_ASSERT(std::abs(a[i] - b[i]) <= 1e-12 * (1 + std::abs(a[i])));
}

RC_GTEST_PROP(ReferenceIdentity, GeluTanhStaysWithin5e4OfGeluErf, ()) {
  const double x = *rc::gen::map(rc::gen::inRange(-2000000, 2000001), [](int v) { return v / 100000.0; });
  RC_ASSERT(std::abs(act_forward(Act::GeluTanh, x) - act_forward(Act::GeluErf, x)) < 5e-4);
}

TEST(ReferenceIdentity, GeluFormulasReallyDiffer) {
  // The bound above must not hold trivially: the two formulas differ by more than 4e-4 somewhere.
  double worst = 0;
  for (int i = -40000; i <= 40000; ++i) worst = std::max(worst, std::abs(act_forward(Act::GeluTanh, i / 1e4) - act_forward(Act::GeluErf, i / 1e4)));
  EXPECT_GT(worst, 4e-4);
  EXPECT_LT(worst, 5e-4);
}

// ---- hand-computed values ------------------------------------------------------------------------

namespace {

TensorD tensor(Shape s, std::vector<double> v) {
  TensorD t(std::move(s));
  t.data = std::move(v);
  return t;
}

}  // namespace

TEST(ReferenceValues, SmallCasesByHand) {
  // softmax([0, ln 3]) = [1/4, 3/4]
  auto y = run_reference(Problem::parse("softmax:m=1,n=2"), {tensor({1, 2}, {0, std::log(3.0)})})[0];
  EXPECT_NEAR(y[0], 0.25, 1e-15);
  EXPECT_NEAR(y[1], 0.75, 1e-15);
  // log_softmax beside a huge maximum: (x - max) - log(sum), never x - (max + log(sum)), where log 2 would
  // be absorbed by FLT_MAX (a bug the kernel checks found in this reference).
  const double big = 3.4028234663852886e38;
  auto lsm = run_reference(Problem::parse("log_softmax:m=1,n=3"), {tensor({1, 3}, {big, 1.0, big})})[0];
  EXPECT_NEAR(lsm[0], -std::log(2.0), 1e-15);
  EXPECT_NEAR(lsm[2], -std::log(2.0), 1e-15);
  // cross entropy of uniform logits is ln C, whatever the label.
  auto ce = run_reference(Problem::parse("cross_entropy:b=2,c=4"), {TensorD(Shape{2, 4}, 3.0), tensor({2}, {0, 3})})[0];
  EXPECT_NEAR(ce[0], std::log(4.0), 1e-15);
  // layer_norm([1, 2, 3]) with eps = 0: [-sqrt(1.5), 0, sqrt(1.5)]
  auto ln = run_reference(Problem::parse("layer_norm:m=1,n=3,eps=0"), {tensor({1, 3}, {1, 2, 3}), TensorD(Shape{3}, 1.0), TensorD(Shape{3}, 0.0)})[0];
  EXPECT_NEAR(ln[0], -std::sqrt(1.5), 1e-15);
  EXPECT_NEAR(ln[1], 0, 1e-15);
  // conv2d 3x3 of a 3x3 image of ones with padding 1: corners see 4 cells, edges 6, the center 9.
  auto conv =
      run_reference(Problem::parse("conv2d:h=3,w=3,r=3,s=3,ph=1,pw=1"), {TensorD(Shape{1, 1, 3, 3}, 1.0), TensorD(Shape{1, 1, 3, 3}, 1.0)})[0];
  EXPECT_EQ(conv.data, (std::vector<double>{4, 6, 4, 6, 9, 6, 4, 6, 4}));
  // stride 2, dilation 2 on a 5x5 ramp, 2x2 kernel of ones: y[p,q] = x[2p,2q]+x[2p,2q+2]+x[2p+2,2q]+x[2p+2,2q+2]
  TensorD ramp(Shape{1, 1, 5, 5});
  for (int i = 0; i < 25; ++i) ramp[i] = i;
  auto dil = run_reference(Problem::parse("conv2d:h=5,w=5,r=2,s=2,sh=2,sw=2,dh=2,dw=2"), {ramp, TensorD(Shape{1, 1, 2, 2}, 1.0)})[0];
  EXPECT_EQ(dil.data, (std::vector<double>{24, 32, 64, 72}));
  // max pool: the gradient goes to the first of tied maxima; padding never wins.
  auto mp = run_reference(Problem::parse("max_pool2d_bwd:h=2,w=2,kh=2,kw=2"), {tensor({1, 1, 2, 2}, {5, 5, 5, 1}), tensor({1, 1, 1, 1}, {1})})[0];
  EXPECT_EQ(mp.data, (std::vector<double>{1, 0, 0, 0}));
  auto neg = run_reference(Problem::parse("max_pool2d:h=1,w=1,kh=3,kw=3,ph=1,pw=1,sh=1,sw=1"), {tensor({1, 1, 1, 1}, {-7})})[0];
  EXPECT_EQ(neg[0], -7);
  // avg pool at a padded corner: 1/4 of the window with count_include_pad, all of it without.
  auto a1 = run_reference(Problem::parse("avg_pool2d:h=2,w=2,kh=2,kw=2,ph=1,pw=1,cip=1"), {TensorD(Shape{1, 1, 2, 2}, 4.0)})[0];
  auto a0 = run_reference(Problem::parse("avg_pool2d:h=2,w=2,kh=2,kw=2,ph=1,pw=1,cip=0"), {TensorD(Shape{1, 1, 2, 2}, 4.0)})[0];
  EXPECT_EQ(a1[0], 1.0);
  EXPECT_EQ(a0[0], 4.0);
  // matmul with both transposes: (A^T)^T (B^T)^T
  auto mm = run_reference(Problem::parse("matmul:m=2,k=2,n=1,ta=1,tb=1"), {tensor({2, 2}, {1, 3, 2, 4}), tensor({1, 2}, {5, 6})})[0];
  EXPECT_EQ(mm.data, (std::vector<double>{1 * 5 + 2 * 6, 3 * 5 + 4 * 6}));
  // shared B: d_b sums over the batch; d_bias over batch and rows.
  auto gb = run_reference(Problem::parse("gemm_bias_act_bwd:batch=2,m=1,k=1,n=1,bshared=1"),
                          {tensor({2, 1, 1}, {2, 3}), tensor({1, 1}, {1}), tensor({1}, {0}), tensor({2, 1, 1}, {1, 1})});
  EXPECT_EQ(gb[1][0], 5.0);
  EXPECT_EQ(gb[2][0], 2.0);
}

TEST(ReferenceValues, ActivationEdgeValuesFollowTheLimits) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(act_derivative(Act::Relu, 0.0), 0.0);  // relu'(0) = 0
  for (Act a : {Act::Silu, Act::GeluTanh, Act::GeluErf}) {
    EXPECT_EQ(act_forward(a, -inf), 0.0);
    EXPECT_EQ(act_forward(a, inf), inf);
    EXPECT_EQ(act_derivative(a, -inf), 0.0);
    EXPECT_EQ(act_derivative(a, inf), 1.0);
  }
  EXPECT_EQ(act_forward(Act::Sigmoid, -inf), 0.0);
  EXPECT_EQ(act_forward(Act::Tanh, inf), 1.0);
  for (Act a : {Act::None, Act::Relu, Act::GeluTanh, Act::GeluErf, Act::Silu, Act::Sigmoid, Act::Tanh}) {
    EXPECT_TRUE(std::isnan(act_forward(a, nan)));
    if (a != Act::None) EXPECT_TRUE(std::isnan(act_derivative(a, nan)));
  }
  // The identity's derivative is 1 everywhere: a NaN pre-activation does not turn d_y into NaN.
  EXPECT_EQ(act_derivative(Act::None, nan), 1.0);
}

TEST(ReferenceValues, BadClassIndexIsAClearError) {
  try {
    run_reference(Problem::parse("cross_entropy:b=2,c=3"), {TensorD(Shape{2, 3}), tensor({2}, {1, 3})});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("target[1] = 3.000000 is not a class index in [0, 3)"), std::string::npos);
  }
}

// A backward that is off by 0.1% everywhere: what a kink must never excuse.
GradcheckOptions slightly_wrong() {
  GradcheckOptions o;
  o.backward = [](const Problem& q, const std::vector<TensorD>& in) {
    std::vector<TensorD> g = run_reference(q, in);
    for (auto& t : g)
      for (auto& v : t.data) v *= 1.001;
    return g;
  };
  return o;
}

TEST(GradcheckKinks, RandomProjectionsOverManyRelusPass) {
  // k = 1: every pre-activation is a*b + bias. On a grid of inputs ((k + 1/4) / n * 4 - 2) many were
  // exactly 0, a projection crossed two of them in opposite directions, and the true backward failed at
  // ratio 5154 (analytic -15.61, numeric -14.14): the inputs are off the grid now. And a small kink
  // (one relu among 8127 within the step, its sides 0.4% apart) failed at ratio 72 once.
  for (const char* line :
       {"gemm_bias_act_bwd:batch=0,m=65,k=1,n=127,act=relu,bshared=0", "gemm_bias_act_bwd:batch=0,m=129,k=1,n=63,act=relu,bshared=0"}) {
    const Problem p = Problem::parse(line);
    for (uint64_t seed = 0; seed < 8; ++seed) {
      const GradcheckResult r = gradcheck(p, seed);
      EXPECT_TRUE(r.passed) << line << " seed " << seed << ": " << r.summary();
      const GradcheckResult bad = gradcheck(p, seed, slightly_wrong());
      EXPECT_FALSE(bad.passed) << line << " seed " << seed << ": " << bad.summary();
    }
  }
}

// gemm_bias_act with k = 1 at a point of our choosing: y_j = act(a * b_j + bias_j), m = 1.
GradcheckOptions at_point(double a, std::vector<double> b, std::vector<double> bias) {
  GradcheckOptions o;
  const int64_t n = static_cast<int64_t>(b.size());
  o.inputs = {tensor({1, 1}, {a}), tensor({1, n}, std::move(b)), tensor({n}, std::move(bias))};
  return o;
}

TEST(GradcheckKinks, TwoKinksWithinTheStepAreSteppedInside) {
  // Two relus 1e-7 from their kinks on either side of the point: a step of 1e-6 crosses both, in
  // opposite directions, so the analytic value is neither one-sided derivative; a step inside them
  // (1/256 of it) crosses neither and matches.
  const Problem p = Problem::parse("gemm_bias_act_bwd:batch=0,m=1,k=1,n=4,act=relu,bshared=0");
  GradcheckOptions o = at_point(0.75, {1.25, 1.5, -0.625, 0.875}, {-0.9375 + 1e-7, -1.125 - 1e-7, 1.0, 0.5});
  o.mode = GradcheckOptions::Mode::Fast;
  o.projections = 8;
  const GradcheckResult r = gradcheck(p, 3, o);
  EXPECT_TRUE(r.passed) << r.summary();
  EXPECT_GT(r.kinks, 0) << "this point is meant to put kinks within the step: " << r.summary();
  GradcheckOptions bad = slightly_wrong();
  bad.inputs = o.inputs, bad.mode = o.mode, bad.projections = o.projections;
  EXPECT_FALSE(gradcheck(p, 3, bad).passed);
}

TEST(GradcheckKinks, AtAKinkTheAnalyticValueMustBeAOneSidedDerivative) {
  // a*b + bias = 0 exactly at the first output: relu sits on its kink, where central differences read
  // the mean of its slopes. relu'(0) = 0 is the left derivative: accepted, and counted.
  const Problem p = Problem::parse("gemm_bias_act_bwd:batch=0,m=1,k=1,n=3,act=relu,bshared=0");
  const GradcheckOptions at_kink = at_point(0.5, {1.0, -1.5, 0.75}, {-0.5, 0.25, 1.0});
  const GradcheckResult r = gradcheck(p, 1, at_kink);
  EXPECT_TRUE(r.passed) << r.summary();
  EXPECT_GT(r.kinks, 0) << "this problem is meant to hit the kink: " << r.summary();
  // At an exact kink the central difference is the average of the two slopes (a subgradient of relu, so
  // accepted); a value outside both slopes is no derivative at all: rejected.
  GradcheckOptions o = at_kink;
  o.backward = [](const Problem& q, const std::vector<TensorD>& in) {
    std::vector<TensorD> g = run_reference(q, in);
    const TensorD pre = run_reference(q.as("gemm_bias_act").with("act", std::string("none")), {in[0], in[1], in[2]})[0];
    for (int64_t j = 0; j < pre.numel(); ++j)
      if (pre[j] == 0) g[2][j] = 2 * in[3][j], g[1][j] = 2 * in[3][j] * in[0][0], g[0][0] += 2 * in[3][j] * in[1][j];
    return g;
  };
  const GradcheckResult bad = gradcheck(p, 1, o);
  EXPECT_FALSE(bad.passed) << bad.summary();
}
