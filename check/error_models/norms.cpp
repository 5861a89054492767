// Error models of the normalization family: running-error bounds per segment, in units of u (K = 1).
// For a segment of L values with mean mu, d = x - mu, var = sum d^2 / L, r = 1/sqrt(var + eps):
//   mean: (L + 1) * mean|x|                       (L scaled terms summed)
//   var:  (L + 3) * var + 2 * mean|d| * dmean     (squares, scaling, the sum; mu's error through d)
//   r:    relative 0.5 * (1 + dvar / (var + eps)) + 3   (rsqrt: 2 ulp)
//   xhat = d r:  r (|d| + dmean) + |xhat| (rel r + 1)
//   y = xhat gamma + beta: |gamma| dxhat + 2 (|xhat gamma| + |y|) + |gamma| FLT_MIN / u: a product
//     that underflows carries an absolute error up to FLT_MIN (subnormal, or flushed), which gamma scales
// Backward: d_x = r (gg - mean(gg) - xhat mean(gg xhat)) with gg = d_y gamma; each sum adds (L + 2)
// times its |terms|, xhat and r carry the errors above. Parameter gradients sum over the segments
// that use a parameter. rms_norm likewise without the mean. peak: the segment's sum of squares, which
// a float evaluation must hold.
#include <cfloat>
#include <cmath>

#include "check/error_models.hpp"

namespace plumbline::models {

namespace {

constexpr double kUnderflow = FLT_MIN / kUnitRoundoff;  // FLT_MIN, in units of u

struct Geometry {
  int64_t segments, length, inner, params;
  bool rms;
  int64_t param(int64_t seg, int64_t j) const { return ((seg * (length / inner)) % params) + j / inner; }
};

Geometry geometry(const Problem& p) {
  const bool rms = p.op().rfind("rms_norm", 0) == 0;
  if (p.has("g")) {
    const int64_t hw = p.i("h") * p.i("w");
    return {p.i("n") * p.i("g"), p.i("c") / p.i("g") * hw, hw, p.i("c"), false};
  }
  return {p.i("m"), p.i("n"), 1, p.i("n"), rms};
}

struct Stats {
  double mean, var, r, dmean, rel_r, peak;
  bool finite;
};

Stats stats(const Geometry& g, const double* x, double eps) {
  const double L = static_cast<double>(g.length);
  Stats s{0, 0, 0, 0, 0, 0, true};
  double abs_sum = 0;
  for (int64_t j = 0; j < g.length; ++j) {
    s.finite &= std::isfinite(x[j]);
    s.mean += x[j];
    abs_sum += std::abs(x[j]);
  }
  s.mean = g.rms ? 0 : s.mean / L;
  s.dmean = g.rms ? 0 : (L + 1) * abs_sum / L;
  double abs_d = 0;
  for (int64_t j = 0; j < g.length; ++j) {
    const double d = x[j] - s.mean;
    s.var += d * d;
    abs_d += std::abs(d);
  }
  s.peak = s.var;
  s.var /= L;
  s.r = 1 / std::sqrt(s.var + eps);
  const double dvar = (L + 3) * s.var + 2 * (abs_d / L) * s.dmean;
  s.rel_r = 0.5 * (1 + dvar / (s.var + eps)) + 3;
  return s;
}

double dxhat(const Stats& s, double x) { return s.r * (std::abs(x - s.mean) + s.dmean) + std::abs((x - s.mean) * s.r) * (s.rel_r + 1); }

// IEEE evaluation of the moments as sum x and sum x^2 (E[x^2] - mean^2, as PyTorch's CPU kernels and
// many one-pass GPU kernels compute them) overflows float where the reference's sum of (x - mean)^2
// does not (one value of 1e30 in a row of one): var is then Inf - Inf = NaN, or Inf where mean^2 stays
// finite, and y = (x - mean) * 0 * gamma + beta = beta. The segment's elements get those outcomes.
void one_pass_overflow(ErrorModel& e, const Geometry& g, const std::vector<TensorD>& in, int64_t seg, const Stats& s) {
  if (g.rms || !s.finite || !(s.peak <= FLT_MAX)) return;  // rms_norm's peak is sum x^2 already
  const double* x = in[0].data.data() + seg * g.length;
  double squares = 0, abs_sum = 0;
  for (int64_t j = 0; j < g.length; ++j) squares += x[j] * x[j], abs_sum += std::abs(x[j]);
  const double threshold = 3.4028235677973366e38 / (1 + gamma_of(static_cast<double>(g.length)));
  if (squares < threshold) return;  // (abs_sum reaches it only where squares do)
  // A partial sum of x overflowing makes mean infinite and x - mean infinite: NaN too.
  const bool nan = s.mean * s.mean >= threshold || abs_sum >= threshold;
  for (int64_t j = 0; j < g.length; ++j) {
    const double gamma = in[1][g.param(seg, j)], beta = in[2][g.param(seg, j)];
    // var = Inf, rstd = 0: beta (0 x an infinite gamma: NaN).
    const uint8_t c = nan || !std::isfinite(gamma) ? IeeeOutcome::kNaN : IeeeOutcome::kValue;
    e.depart(in[0].numel(), seg * g.length + j, c, EdgeRule::Overflow,
             "the moments as sums of x and x^2 (var = E[x^2] - mean^2) overflow float, where the sum of (x - mean)^2 does not", beta);
  }
}

std::vector<ErrorModel> forward_model(const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>& ref, bool) {
  const Geometry g = geometry(p);
  ErrorModel e{false, 1, 0, TensorD(ref[0].shape), TensorD(ref[0].shape)};
  for (int64_t seg = 0; seg < g.segments; ++seg) {
    const Stats s = stats(g, in[0].data.data() + seg * g.length, p.f("eps"));
    one_pass_overflow(e, g, in, seg, s);
    for (int64_t j = 0; j < g.length; ++j) {
      const int64_t k = seg * g.length + j;
      e.peak[k] = s.peak;
      if (!s.finite) continue;
      const double gamma = std::abs(in[1][g.param(seg, j)]), xhat = std::abs((in[0][k] - s.mean) * s.r);
      if (std::isinf(gamma)) {
        // y = xhat * +-Inf + beta: +-Inf (NaN against an infinite beta of the other sign), compared by
        // class (a magnitude of 0 keeps the element judged). Unless xhat is 0 within its rounding, or
        // x - mean or xhat may underflow to 0 (devices may flush subnormals): the reference's 0 * Inf
        // is NaN and a float evaluation's +-Inf, or the other way round. Not judgeable then.
        const double margin = kBoundConstant * kUnitRoundoff * (dxhat(s, in[0][k]) + kUnderflow);
        if (xhat <= margin || std::abs(in[0][k] - s.mean) <= kBoundConstant * FLT_MIN) e.peak[k] = INFINITY;
        continue;
      }
      e.mag[k] = gamma * (dxhat(s, in[0][k]) + kUnderflow) + 2 * (xhat * gamma + std::abs(ref[0][k]));
    }
  }
  return moved(e);
}

std::vector<ErrorModel> backward_model(const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>& ref, bool) {
  const Geometry g = geometry(p);
  const double L = static_cast<double>(g.length), uses = static_cast<double>(g.segments * g.length / g.params);
  std::vector<ErrorModel> out;
  for (const auto& r : ref) out.push_back({false, 1, 0, TensorD(r.shape), TensorD(r.shape)});
  std::vector<double> own(g.params), terms(g.params), abs_dy(g.params);
  for (int64_t seg = 0; seg < g.segments; ++seg) {
    const int64_t base = seg * g.length;
    const Stats s = stats(g, in[0].data.data() + base, p.f("eps"));
    // Sums over the segment: gg = d_y gamma, and gg xhat (rms: gg x).
    double sum_g = 0, abs_g = 0, sum_gx = 0, abs_gx = 0, abs_g_dxhat = 0;
    bool finite = s.finite, infinite_dy = false, inf_times_zero_xhat = false;
    for (int64_t j = 0; j < g.length; ++j) {
      infinite_dy |= std::isinf(in[2][base + j]);
      // An infinite gg (gamma Inf) whose xhat is 0 within its rounding (as the forward's rule): the
      // reference's gg xhat is 0 * Inf = NaN, a float evaluation's +-Inf where its mean is a rounding off
      // (two subnormals x of a row: the terms x / L underflow to 0), and mean(gg xhat) decides the class
      // of every d_x of the segment. Not judgeable then.
      const double x = in[0][base + j];
      const double margin = kBoundConstant * kUnitRoundoff * (dxhat(s, x) + kUnderflow);
      inf_times_zero_xhat |= !g.rms && s.finite && std::isinf(in[1][g.param(seg, j)]) && in[2][base + j] != 0 &&
                             (std::abs((x - s.mean) * s.r) <= margin || std::abs(x - s.mean) <= kBoundConstant * FLT_MIN);
    }
    for (int64_t j = 0; j < g.length; ++j) {
      const double gg = in[2][base + j] * in[1][g.param(seg, j)], x = in[0][base + j];
      const double gx = g.rms ? gg * x : gg * (x - s.mean) * s.r;
      finite &= std::isfinite(gg);
      sum_g += gg, abs_g += std::abs(gg), sum_gx += gx, abs_gx += std::abs(gx);
      abs_g_dxhat += std::abs(gg) * dxhat(s, x);
    }
    for (int64_t j = 0; j < g.length; ++j) {
      const int64_t k = base + j, c = g.param(seg, j);
      const double gg = in[2][k] * in[1][c], x = in[0][k], xhat = (x - s.mean) * s.r;
      const double peak = s.peak + abs_gx + abs_g;
      // An infinite d_y in the segment: d_x is Inf - Inf inside the formula, NaN or Inf by rounding.
      out[0].peak[k] = infinite_dy || inf_times_zero_xhat ? INFINITY : peak;
      // Parameter gradients: every term that is finite adds to the magnitudes (a NaN or Inf term makes
      // the sum non-finite, compared by class).
      const double term = std::abs(in[2][k] * (g.rms ? x * s.r : xhat));
      if (s.finite && std::isfinite(term)) {
        own[c] += std::abs(in[2][k]) * ((g.rms ? std::abs(x) * s.r * (s.rel_r + 1) : dxhat(s, x)) + s.r * kUnderflow);
        terms[c] += term;
      }
      // A float variance beyond range makes rstd 0 and the gradient Inf * 0: not judgeable.
      for (size_t o = 1; o < out.size(); ++o) out[o].peak[c] = std::max(out[o].peak[c], std::isnan(peak) ? INFINITY : peak);
      if (std::isfinite(in[2][k])) abs_dy[c] += std::abs(in[2][k]);
      if (!finite) continue;
      if (g.rms) {  // r gamma d_y - x r^3 dot / n
        const double r3 = s.r * s.r * s.r;
        out[0].mag[k] = std::abs(s.r * gg) * (s.rel_r + 2) + std::abs(x) * r3 / L * (std::abs(sum_gx) * (3 * s.rel_r + 3) + (L + 2) * abs_gx);
      } else {  // r (gg - mean(gg) - xhat mean(gg xhat))
        const double mean_gx = sum_gx / L;
        out[0].mag[k] =
            s.r * (std::abs(gg) + (L + 2) * abs_g / L + dxhat(s, x) * std::abs(mean_gx) + std::abs(xhat) * ((L + 2) * abs_gx / L + abs_g_dxhat / L) +
                   2 * (std::abs(gg) + std::abs(sum_g / L) + std::abs(xhat * mean_gx))) +
            std::abs(ref[0][k]) * (s.rel_r + 1);
      }
      // Underflowing products (gg, xhat, x r) scaled by what multiplies them afterwards.
      out[0].mag[k] += kUnderflow * s.r * (1 + std::abs(in[1][c]) + std::abs(in[2][k]) + L * (abs_g + abs_gx) / L);
    }
  }
  for (int64_t c = 0; c < g.params; ++c) {
    out[1].mag[c] = own[c] + (uses + 3) * terms[c];
    if (out.size() > 2) out[2].mag[c] = (uses + 1) * abs_dy[c];  // d_beta: a plain sum of d_y
  }
  return out;
}

}  // namespace

void add_norms(std::map<std::string, ErrorModelFn>& m) {
  for (const char* op : {"group_norm", "layer_norm", "rms_norm"}) {
    m[op] = forward_model;
    m[std::string(op) + "_bwd"] = backward_model;
  }
}

}  // namespace plumbline::models
