// Numeric modes (core/numeric_mode.hpp, docs/verification.md): host implementations of each mode's
// arithmetic pass under its bound and fail the exact contract; the mode's planted bugs (a TF32 that
// keeps bf16's 7 bits, a split that drops a cross product, a Winograd constant off by 1e-3) fail
// under it; a mode never fits what it cannot compute. OpenCL kernels in a mode: cli_test.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "check/function_check.hpp"
#include "core/dtype.hpp"
#include "core/numeric_mode.hpp"
#include "core/problem.hpp"
#include "core/registry.hpp"

namespace plumbline {
namespace {

// x with its mantissa rounded to `bits` explicit bits, to nearest even (tf32: 10, bf16: 7).
float keep_bits(float x, int bits) {
  if (!std::isfinite(x)) return x;
  uint32_t u = std::bit_cast<uint32_t>(x);
  const int drop = 23 - bits;
  const uint32_t half = 1u << (drop - 1), rest = u & ((1u << drop) - 1), lsb = (u >> drop) & 1;
  u &= ~((1u << drop) - 1);
  if (rest > half || (rest == half && lsb)) u += 1u << drop;
  return std::bit_cast<float>(u);
}

// matmul with each product computed by `product` and summed in float.
template <class Product>
OutputsFn matmul_by(Product product) {
  return [product](const Problem& p, const std::vector<TensorF>& in) {
    const int64_t batches = std::max<int64_t>(p.i("batch"), 1), m = p.i("m"), k = p.i("k"), n = p.i("n");
    const bool ta = p.i("ta"), tb = p.i("tb");
    TensorF y(signature_of(p).outputs[0].shape);
    for (int64_t b = 0; b < batches; ++b)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          float s = 0;
          for (int64_t l = 0; l < k; ++l)
            s += product(in[0][b * m * k + (ta ? l * m + i : i * k + l)], in[1][b * k * n + (tb ? j * k + l : l * n + j)]);
          y[(b * m + i) * n + j] = s;
        }
    return std::vector<TensorF>{y};
  };
}

const OutputsFn tf32 = matmul_by([](float a, float b) { return keep_bits(a, 10) * keep_bits(b, 10); });
const OutputsFn tf32_with_bf16_bits = matmul_by([](float a, float b) { return keep_bits(a, 7) * keep_bits(b, 7); });
float hi(float x) { return keep_bits(x, 7); }
float lo(float x) { return std::isfinite(hi(x)) ? keep_bits(x - hi(x), 7) : 0.0f; }  // an Inf's lo part is 0, not Inf - Inf
// A part of 0 must not meet an Inf as 0 x Inf = NaN (the planted fault of proptests/kernels/
// mma_emulated_split_lo_meets_inf.plan): products with a zero part are left out.
float times(float x, float y) { return x == 0 || y == 0 ? 0.0f : x * y; }
const OutputsFn bf16x3 = matmul_by([](float a, float b) { return hi(a) * hi(b) + times(hi(a), lo(b)) + times(lo(a), hi(b)); });
const OutputsFn bf16x3_without_hi_lo = matmul_by([](float a, float b) { return hi(a) * hi(b) + times(lo(a), hi(b)); });

const NumericMode kTf32 = NumericMode::parse("tf32"), kBf16x3 = NumericMode::parse("bf16x3");

FunctionCheck matmuls(const OutputsFn& fn, const NumericMode& mode, Values values, int cases = 60) {
  return check_function("matmul", fn, cases, 1, values, std::nullopt, {"f32"}, NonfinitePolicy::Limits, mode);
}

TEST(NumericModes, Tf32PassesItsModeAndFailsTheExactContract) {
  const Problem p = Problem::parse("matmul:m=16,k=64,n=16");
  for (Values v : {Values::Integers, Values::Uniform, Values::Normal, Values::Edge})
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      const CaseResult r = check_function_case(p, v, seed, tf32, NonfinitePolicy::Limits, kTf32);
      EXPECT_TRUE(r.passed) << to_string(v) << " " << seed << ": " << r.message;
      EXPECT_EQ(r.math, "tf32");
    }
  const CaseResult exact = check_function_case(p, Values::Normal, 1, tf32);
  EXPECT_FALSE(exact.passed) << "tf32's input rounding is far outside the exact contract";
}

TEST(NumericModes, ATf32KeepingOnlyBf16sBitsFailsTf32) {
  const Problem p = Problem::parse("matmul:m=16,k=8,n=16");
  const CaseResult r = check_function_case(p, Values::Normal, 1, tf32_with_bf16_bits, NonfinitePolicy::Limits, kTf32);
  EXPECT_EQ(r.verdict, "wrong") << r.message;
  EXPECT_NE(r.message.find(" of tf32"), std::string::npos) << r.message;
}

TEST(NumericModes, Bf16x3PassesAndASplitWithoutACrossProductFails) {
  const Problem p = Problem::parse("matmul:m=16,k=64,n=16");
  for (Values v : {Values::Integers, Values::Uniform, Values::Normal, Values::Edge})
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      const CaseResult r = check_function_case(p, v, seed, bf16x3, NonfinitePolicy::Limits, kBf16x3);
      EXPECT_TRUE(r.passed) << to_string(v) << " " << seed << ": " << r.message;
    }
  EXPECT_FALSE(check_function_case(p, Values::Normal, 1, bf16x3).passed) << "bf16x3 is outside the exact contract";
  EXPECT_FALSE(check_function_case(p, Values::Normal, 1, bf16x3_without_hi_lo, NonfinitePolicy::Limits, kBf16x3).passed);
}

TEST(NumericModes, RandomMatmulsInTheirModes) {
  for (const auto& [fn, mode] : {std::pair{tf32, kTf32}, std::pair{bf16x3, kBf16x3}}) {
    const FunctionCheck r = check_function("matmul", fn, 60, 1, std::nullopt, std::nullopt, {"f32"}, NonfinitePolicy::Limits, mode);
    EXPECT_TRUE(r.passed) << mode.name() << ": " << r.failure.message << " at " << r.failure.problem.line() << ", values "
                          << to_string(r.failure.values) << ", seed " << r.failure.seed;
  }
  EXPECT_EQ(matmuls(tf32_with_bf16_bits, kTf32, Values::Normal).failure.verdict, "wrong");
  EXPECT_EQ(matmuls(bf16x3_without_hi_lo, kBf16x3, Values::Normal).failure.verdict, "wrong");
}

// conv2d as Winograd's F(m x m, 3 x 3) in float, with Lavin and Gray's transforms; `nudge` is added to
// one constant of G (a planted bug).
OutputsFn winograd(int m, float nudge = 0) {
  return [m, nudge](const Problem& p, const std::vector<TensorF>& in) {
    const int n = m + 2;
    std::vector<float> bt, g, at;
    if (m == 2) {
      bt = {1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 0, -1};
      g = {1, 0, 0, 0.5f, 0.5f, 0.5f, 0.5f, -0.5f, 0.5f, 0, 0, 1};
      at = {1, 1, 1, 0, 0, 1, -1, -1};
    } else {
      bt = {4, 0, -5, 0, 1, 0, 0, -4, -4, 1, 1, 0, 0, 4, -4, -1, 1, 0, 0, -2, -1, 2, 1, 0, 0, 2, -1, -2, 1, 0, 0, 4, 0, -5, 0, 1};
      g = {1.f / 4,  0,        0,       -1.f / 6, -1.f / 6,  -1.f / 6, -1.f / 6, 1.f / 6, -1.f / 6,
           1.f / 24, 1.f / 12, 1.f / 6, 1.f / 24, -1.f / 12, 1.f / 6,  0,        0,       1};
      at = {1, 1, 1, 1, 1, 0, 0, 1, -1, 2, -2, 0, 0, 1, 1, 4, 4, 0, 0, 1, -1, 8, -8, 1};
    }
    g[3] += nudge;
    const int64_t N = p.i("n"), C = p.i("c"), H = p.i("h"), W = p.i("w"), K = p.i("k"), G = p.i("g"), ph = p.i("ph"), pw = p.i("pw");
    const int64_t cg = C / G, kg = K / G, P = H + 2 * ph - 2, Q = W + 2 * pw - 2;
    TensorF y(Shape{N, K, P, Q});
    std::vector<float> u(static_cast<size_t>(n * n)), v(static_cast<size_t>(n * n)), mm(static_cast<size_t>(n * n)), t(static_cast<size_t>(n * n));
    for (int64_t b = 0; b < N; ++b)
      for (int64_t k = 0; k < K; ++k)
        for (int64_t tp = 0; tp * m < P; ++tp)
          for (int64_t tq = 0; tq * m < Q; ++tq) {
            std::fill(mm.begin(), mm.end(), 0.0f);
            for (int64_t c = 0; c < cg; ++c) {
              const int64_t ch = (k / kg) * cg + c;
              for (int i = 0; i < n; ++i)  // U = G w G^T
                for (int j = 0; j < n; ++j) {
                  float s = 0;
                  for (int a = 0; a < 3; ++a)
                    for (int e = 0; e < 3; ++e) s += g[i * 3 + a] * in[1][((k * cg + c) * 3 + a) * 3 + e] * g[j * 3 + e];
                  u[i * n + j] = s;
                }
              for (int i = 0; i < n; ++i)  // V = B^T d B
                for (int j = 0; j < n; ++j) {
                  float s = 0;
                  for (int a = 0; a < n; ++a)
                    for (int e = 0; e < n; ++e) {
                      const int64_t yy = tp * m + a - ph, xx = tq * m + e - pw;
                      const float d = yy >= 0 && yy < H && xx >= 0 && xx < W ? in[0][((b * C + ch) * H + yy) * W + xx] : 0.0f;
                      if (bt[i * n + a] != 0 && bt[j * n + e] != 0) s += bt[i * n + a] * d * bt[j * n + e];
                    }
                  v[i * n + j] = s;
                }
              for (int i = 0; i < n * n; ++i) mm[i] += u[i] * v[i];
            }
            for (int i = 0; i < m; ++i)  // Y = A^T M A
              for (int j = 0; j < m; ++j) {
                float s = 0;
                for (int a = 0; a < n; ++a)
                  for (int e = 0; e < n; ++e)
                    if (at[i * n + a] != 0 && at[j * n + e] != 0) s += at[i * n + a] * mm[a * n + e] * at[j * n + e];
                if (tp * m + i < P && tq * m + j < Q) y[((b * K + k) * P + tp * m + i) * Q + tq * m + j] = s + (p.i("bias") ? in[2][k] : 0.0f);
              }
          }
    return std::vector<TensorF>{y};
  };
}

FunctionCheck convs(const OutputsFn& fn, const NumericMode& mode, std::optional<Values> values, int cases) {
  return check_function("conv2d", fn, cases, 1, values, std::nullopt, {"f32"}, NonfinitePolicy::Limits, mode);
}

TEST(NumericModes, WinogradPassesItsModeOnRandomProblemsOfEveryDistribution) {
  for (int m : {2, 4}) {
    const NumericMode mode = NumericMode::parse("winograd(" + std::to_string(m) + ",3)");
    const FunctionCheck r = convs(winograd(m), mode, std::nullopt, 48);
    EXPECT_TRUE(r.passed) << mode.name() << ": " << r.failure.verdict << " " << r.failure.message << " at " << r.failure.problem.line();
  }
}

TEST(NumericModes, WinogradFailsTheExactContractAndAConstantOffBy1e3FailsItsMode) {
  const Problem p = Problem::parse("conv2d:n=1,c=8,h=12,w=12,k=4,r=3,s=3,ph=1,pw=1");
  for (int m : {2, 4}) {
    const NumericMode mode = NumericMode::parse("winograd(" + std::to_string(m) + ",3)");
    EXPECT_TRUE(check_function_case(p, Values::Normal, 1, winograd(m), NonfinitePolicy::Limits, mode).passed) << mode.name();
    EXPECT_FALSE(check_function_case(p, Values::Normal, 1, winograd(m)).passed) << mode.name() << " within the exact contract";
    const FunctionCheck nudged = convs(winograd(m, 1e-3f), mode, Values::Normal, 24);
    EXPECT_EQ(nudged.failure.verdict, "wrong") << mode.name() << " with a constant off by 1e-3 passed";
  }
}

TEST(NumericModes, AModeFitsOnlyWhatItComputes) {
  auto error_of = [](auto f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const NumericMode w = NumericMode::parse("winograd(4,3)");
  EXPECT_EQ(error_of([&] { check_function_case(Problem::parse("conv2d:h=8,w=8,r=3,s=3,sh=2"), Values::Normal, 1, winograd(4), {}, w); }),
            "numeric mode winograd(4,3) does not fit conv2d:n=1,c=1,h=8,w=8,k=1,r=3,s=3,sh=2,sw=1,ph=0,pw=0,dh=1,dw=1,g=1,bias=0: it needs r == 3 "
            "&& s == 3 && sh == 1 && sw == 1 && dh == 1 && dw == 1 (sh is 2)");
  EXPECT_NE(error_of([&] {
              check_function_case(Problem::parse("softmax:m=2,n=3"), Values::Normal, 1, tf32, {}, kTf32);
            }).find("numeric mode tf32 covers the operators whose sums are of the operator's own products"),
            std::string::npos);
  EXPECT_NE(
      error_of([] { NumericMode::parse("winograd(6,3)"); }).find("the modes are exact (the default), tf32, bf16x3, winograd(2,3), winograd(4,3)"),
      std::string::npos);
}

}  // namespace
}  // namespace plumbline
