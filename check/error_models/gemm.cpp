// Error models of the GEMM family (in units of u unless K says otherwise).
//   matmul: each output sums k products: gamma(k) * (|A| @ |B|) for any order; exact on integers.
//   gemm_bias_act: pre = A @ B + bias errs by dpre = (k + 1) (|A| @ |B| + |bias|); y = act(pre) by
//     the largest |act'| within dpre of pre, times dpre, plus act's own rounding.
//   gemm_bias_act_bwd: grad_pre = d_y act'(pre) errs by |d_y| (dpre + act' rounding) + |grad_pre|
//     (|act''| <= 1 for every activation here); at relu's kink (|pre| within its error) act' may be 0
//     or 1, so grad_pre may err by all of |d_y|. d_a, d_b, d_bias add their sums (gamma of the depth
//     times the |products|) to the propagated error of grad_pre.
#include <cmath>

#include "check/error_models.hpp"
#include "reference/reference.hpp"

namespace plumbline::models {

namespace {

constexpr double kFloatMin = 1.1754943508222875e-38;

using Mat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Eigen::Map<const Mat> view(const TensorD& t, int64_t slice, int64_t rows, int64_t cols) {
  return Eigen::Map<const Mat>(t.data.data() + slice * rows * cols, rows, cols);
}

struct Pre {
  TensorD value, dpre;  // pre-activation and its error (units of u)
  TensorD products;     // |A| @ |B| over finite terms: what a float evaluation must hold
};

Pre pre_activation(const Problem& p, const std::vector<TensorD>& in) {
  const Problem linear_p = p.as("gemm_bias_act").with("act", std::string("none"));
  std::vector<TensorD> abs_in(in.begin(), in.begin() + 3);
  for (auto& t : abs_in)
    for (auto& v : t.data) v = std::abs(v);
  // The finite products alone: a float sum of them can overflow to Inf and meet an infinite term as
  // Inf - Inf = NaN, where double gives the infinite term's sign.
  std::vector<TensorD> finite_abs{abs_in[0], abs_in[1], TensorD(in[2].shape)};
  for (int t = 0; t < 2; ++t)
    for (auto& v : finite_abs[t].data) v = std::isfinite(v) ? v : 0.0;
  Pre r{run_reference(linear_p, {in[0], in[1], in[2]})[0], run_reference(linear_p, abs_in)[0], run_reference(linear_p, finite_abs)[0]};
  for (auto& v : r.dpre.data) v *= static_cast<double>(p.i("k") + 1);
  return r;
}

// The largest |act'| within the pre-activation's error of pre.
double slope_bound(Act a, double pre, double dpre) {
  const double d = kBoundConstant * kUnitRoundoff * dpre;
  return std::max({std::abs(act_derivative(a, pre - d)), std::abs(act_derivative(a, pre)), std::abs(act_derivative(a, pre + d))});
}

std::vector<ErrorModel> forward(const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>& ref, bool ints) {
  const Act a = parse_act(p.s("act"));
  const Pre pre = pre_activation(p, in);
  ErrorModel e{ints && (a == Act::None || a == Act::Relu), 1, 0, TensorD(ref[0].shape), pre.dpre};
  for (int64_t i = 0; i < e.mag.numel(); ++i) {
    e.mag[i] = std::isfinite(pre.value[i]) ? slope_bound(a, pre.value[i], pre.dpre[i]) * pre.dpre[i] + act_magnitude(a, pre.value[i]) : 0;
    act_departure(e, e.mag.numel(), i, a, pre.value[i], pre.dpre[i]);
  }
  return moved(e);
}

std::vector<ErrorModel> backward(const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>& ref, bool ints) {
  const Act a = parse_act(p.s("act"));
  const int64_t batches = std::max<int64_t>(p.i("batch"), 1), m = p.i("m"), k = p.i("k"), n = p.i("n");
  const bool shared = p.i("batch") == 0 || p.i("bshared");
  const Pre pre = pre_activation(p, in);
  // grad_pre, |grad_pre| and its error (units of u).
  TensorD gp(pre.value.shape), egp(pre.value.shape);
  for (int64_t i = 0; i < gp.numel(); ++i) {
    const double x = pre.value[i], dy = in[3][i];
    gp[i] = std::abs(dy * act_derivative(a, x));
    const bool kink = a == Act::Relu && std::abs(x) <= kBoundConstant * kUnitRoundoff * pre.dpre[i];
    // An infinite pre-activation (an Inf among A's or B's terms; the finite products within float's
    // range, else `beyond` below) is what a float evaluation gets too, and act' there is its limit: G is
    // d_y times it, one rounding, not the Inf that pre's error (k + 1) |A| @ |B| would make of G's error.
    // With Inf there every output that sums G's row or column went unjudged, a whole d_a for one Inf in
    // B, so that what a kernel makes of G meeting that Inf (0 * Inf of a split factor) was never seen.
    const double dpre = std::isinf(x) ? 0.0 : pre.dpre[i];
    // ... plus FLT_MIN (in units of u) for act' or the product underflowing, which later factors scale.
    egp[i] = kink ? std::abs(dy) / kUnitRoundoff
                  : std::abs(dy) * (dpre + slope_magnitude(a, x)) + gp[i] +
                        kFloatMin / kUnitRoundoff * (1 + std::abs(dy)) * (1 + (std::isfinite(x) ? std::abs(x) : 0.0));
  }
  // Integer inputs: pre is exact, so relu' and grad_pre are exact too, and so are the sums.
  const bool exact = ints && (a == Act::None || a == Act::Relu);
  ErrorModel da{exact, 1, 0, TensorD(in[0].shape), TensorD(in[0].shape)};
  ErrorModel db{exact, 1, 0, TensorD(in[1].shape), TensorD(in[1].shape)};
  ErrorModel dbias{exact, 1, 0, TensorD(in[2].shape), TensorD(in[2].shape)};
  // The sums' magnitudes over finite terms (as linear()'s, error_models.cpp): an Inf of A or B gives the
  // outputs it meets the reference's class, judged as such (its sign is the exact inputs'). An infinite
  // G (an infinite d_y) stays in: its sign is act''s, which rounding may flip near a zero of act' (gelu's
  // at -0.75), so what sums it is not judged, as before. NaN bookkeeping (Inf * 0) stays out.
  auto finite_only = [](TensorD t) {
    for (auto& v : t.data) v = std::isfinite(v) ? std::abs(v) : 0.0;
    return t;
  };
  auto without_nan = [](TensorD t) {
    for (auto& v : t.data) v = std::isnan(v) ? 0.0 : std::abs(v);
    return t;
  };
  const TensorD a_abs = finite_only(in[0]), b_abs = finite_only(in[1]), gp_abs = without_nan(gp), egp_abs = without_nan(egp);
  for (int64_t b = 0; b < batches; ++b) {
    Mat abs_b = view(b_abs, shared ? 0 : b, k, n), abs_a = view(a_abs, b, m, k);
    const auto g = view(gp_abs, b, m, n), eg = view(egp_abs, b, m, n);
    Eigen::Map<Mat>(da.peak.data.data() + b * m * k, m, k) = g * abs_b.transpose();
    Eigen::Map<Mat>(da.mag.data.data() + b * m * k, m, k) = static_cast<double>(n + 1) * (g * abs_b.transpose()) + eg * abs_b.transpose();
    Eigen::Map<Mat>(db.peak.data.data() + (shared ? 0 : b) * k * n, k, n) += abs_a.transpose() * g;
    Eigen::Map<Mat>(db.mag.data.data() + (shared ? 0 : b) * k * n, k, n) += abs_a.transpose() * eg;
    for (int64_t j = 0; j < n; ++j) {
      dbias.peak[j] += g.col(j).sum();
      dbias.mag[j] += eg.col(j).sum();
    }
  }
  // A grad_pre (or a pre-activation's terms) finite in double but beyond float's range: no float
  // evaluation holds it, so the outputs that sum it are not judged: d_a's row, d_b's and d_bias's column.
  // NaN and Inf are not "beyond": the reference carries them and they are compared by class.
  // (with the value's own error: a grad_pre within its bound of the overflow threshold may round to Inf)
  auto beyond = [](double v, double err_units = 0) {
    return std::isfinite(v) && v + kBoundConstant * kUnitRoundoff * err_units >= 3.4028235677973366e38;
  };
  for (int64_t b = 0; b < batches; ++b)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const int64_t e = (b * m + i) * n + j;
        const bool kink = a == Act::Relu && std::abs(pre.value[e]) <= kBoundConstant * kUnitRoundoff * pre.dpre[e];
        const bool lost = (std::isinf(in[3][e]) && kink) || inf_times_vanishing_slope(a, in[3][e], pre.value[e]);
        if (!beyond(gp[e], egp[e]) && !beyond(pre.products[e]) && !lost) continue;
        for (int64_t c = 0; c < k; ++c) da.peak[(b * m + i) * k + c] = INFINITY;
        for (int64_t r = 0; r < k; ++r) db.peak[((shared ? 0 : b) * k + r) * n + j] = INFINITY;
        dbias.peak[j] = INFINITY;
      }
  const double depth_b = static_cast<double>(shared ? batches * m : m) + 1, depth_bias = static_cast<double>(batches * m) + 1;
  for (int64_t i = 0; i < db.mag.numel(); ++i) db.mag[i] += depth_b * db.peak[i];
  for (int64_t j = 0; j < n; ++j) dbias.mag[j] += depth_bias * dbias.peak[j];
  return moved(da, db, dbias);
}

}  // namespace

void add_gemm(std::map<std::string, ErrorModelFn>& m) {
  m["matmul"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool ints) {
    return linear(p, in, {static_cast<double>(p.i("k"))}, ints);
  };
  m["gemm_bias_act"] = forward;
  m["gemm_bias_act_bwd"] = backward;
}

}  // namespace plumbline::models
