// Error models of the softmax and loss family: running-error bounds per row, in units of u (K = 1).
// For a row x with max m, e_j = exp(x_j - m), S = sum e_j, y_j = e_j / S:
//   x_j - m rounds by |x_j - m| u, which exp turns into a relative error of |x_j - m| u, plus exp's 3 ulp:
//     rel(e_j) <= (|x_j - m| + 4) u;
//   S sums n terms: rel(S) <= (n + sum_k y_k (|x_k - m| + 4)) u;
//   y_j = e_j / S (2.5 ulp): |dy_j| <= y_j (rel(e_j) + rel(S) + 3) u.
// log_softmax: y_j = (x_j - m) - log S: |x_j - m| u + |log S| (3 + 1) u + rel(S) + |y_j| u.
// Backwards and the loss compose these with their sums (gamma(n) over |terms|). An exp that underflows
// (exp(-104)) has an absolute error up to FLT_MIN (subnormal, or flushed): where a large factor
// multiplies it afterwards (d_loss / b, a row sum of d_y), that error is scaled with it.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "check/error_models.hpp"
#include "core/parallel.hpp"

namespace plumbline::models {

namespace {

constexpr double kUnderflow = FLT_MIN / kUnitRoundoff;  // FLT_MIN, in units of u

struct Row {
  std::vector<double> shift, y;  // x_j - m, softmax
  double rel_sum = 0;            // rel(S) / u
  double log_sum = 0;            // log S
};

// A -Inf entry has weight 0: its shift counts as 0 in the magnitudes (its output is exact: 0 or -Inf).
Row row_stats(const double* x, int64_t n) {
  Row r{std::vector<double>(n), std::vector<double>(n)};
  double m = x[0];
  for (int64_t j = 1; j < n; ++j) m = std::max(m, x[j]);
  double s = 0;
  for (int64_t j = 0; j < n; ++j) {
    s += r.y[j] = std::exp(x[j] - m);
    r.shift[j] = std::isinf(x[j]) ? 0.0 : x[j] - m;
  }
  r.rel_sum = static_cast<double>(n);
  for (int64_t j = 0; j < n; ++j) {
    r.y[j] /= s;
    r.rel_sum += r.y[j] * (std::abs(r.shift[j]) + 4);
  }
  r.log_sum = std::log(s);
  return r;
}

// Rows with NaN or +Inf give NaN everywhere: compared by class only. All -Inf rows too.
bool finite_row(const double* x, int64_t n) {
  bool any_finite = false;
  for (int64_t j = 0; j < n; ++j) {
    if (std::isnan(x[j]) || (std::isinf(x[j]) && x[j] > 0)) return false;
    any_finite |= std::isfinite(x[j]);
  }
  return any_finite;
}

double softmax_mag(const Row& r, int64_t j) { return r.y[j] * ((std::abs(r.shift[j]) + 4) + r.rel_sum + 3); }
double log_softmax_mag(const Row& r, int64_t j) {
  return std::abs(r.shift[j]) + 4 * std::abs(r.log_sum) + r.rel_sum + std::abs(r.shift[j] - r.log_sum);
}

// Soft labels: IEEE evaluation of -sum t log_softmax(x) multiplies a zero weight by a log_softmax of
// -Inf, 0 x -Inf = NaN, where the reference takes the limit 0 (t log t -> 0): at a logit of -Inf, or
// one whose x - max overflows float (the difference of two finite logits a rounding cannot hold).
void zero_weight_times_log_zero(ErrorModel& e, const std::vector<TensorD>& in, int64_t b, int64_t c) {
  for (int64_t i = 0; i < b; ++i) {
    const double* x = in[0].data.data() + i * c;
    if (!finite_row(x, c)) continue;  // NaN either way
    const double m = *std::max_element(x, x + c);
    for (int64_t j = 0; j < c; ++j) {
      if (in[1][i * c + j] != 0) continue;
      if (x[j] == -INFINITY)
        e.depart(1, 0, IeeeOutcome::kNaN, EdgeRule::Limit,
                 "a zero label weight meets a logit of -Inf: the reference takes t log t -> 0, where IEEE evaluation gives 0 x -Inf = NaN");
      else if (x[j] - m <= -overflow_threshold(DType::F32))
        e.depart(1, 0, IeeeOutcome::kNaN, EdgeRule::Overflow,
                 "a zero label weight meets a logit whose x - max overflows float to -Inf: IEEE evaluation gives 0 x -Inf = NaN");
    }
  }
}

template <class F>  // F(row stats, row index) -> void, fills mag
ErrorModel per_row(const TensorD& x, int64_t rows, int64_t n, F&& fill) {
  ErrorModel m{false, 1, 0, TensorD(x.shape)};
  parallel_rows(rows, n, [&](int64_t i) {  // rows apart (core/parallel.hpp): the same bits as one by one
    if (finite_row(x.data.data() + i * n, n)) fill(row_stats(x.data.data() + i * n, n), i, m.mag.data.data() + i * n);
  });
  return m;
}

}  // namespace

void add_softmax(std::map<std::string, ErrorModelFn>& m) {
  m["softmax"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool) {
    const int64_t n = p.i("n");
    return moved(per_row(in[0], p.i("m"), n, [n](const Row& r, int64_t, double* mag) {
      for (int64_t j = 0; j < n; ++j) mag[j] = softmax_mag(r, j);
    }));
  };
  m["log_softmax"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool) {
    const int64_t n = p.i("n");
    return moved(per_row(in[0], p.i("m"), n, [n](const Row& r, int64_t, double* mag) {
      for (int64_t j = 0; j < n; ++j) mag[j] = log_softmax_mag(r, j);
    }));
  };
  // d_x = y d_y - y dot, dot = sum d_y y over n terms; y and d_y are exact inputs. The sum of |d_y y|
  // must fit in float.
  m["softmax_bwd"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>& ref, bool) {
    const int64_t rows = p.i("m"), n = p.i("n");
    ErrorModel e{false, 1, 0, TensorD(ref[0].shape), TensorD(ref[0].shape)};
    parallel_rows(rows, n, [&](int64_t i) {
      double dot = 0, abs_dot = 0;
      for (int64_t j = 0; j < n; ++j) dot += in[1][i * n + j] * in[0][i * n + j], abs_dot += std::abs(in[1][i * n + j] * in[0][i * n + j]);
      for (int64_t j = 0; j < n; ++j) {
        const int64_t k = i * n + j;
        e.mag[k] = std::abs(in[0][k]) * (std::abs(in[1][k]) + std::abs(dot) + (n + 1) * abs_dot) + 2 * std::abs(ref[0][k]);
        e.peak[k] = std::max(e.mag[k], abs_dot);
      }
    });
    return moved(e);
  };
  // d_x = d_y - exp(y) * total, total = sum d_y over n terms; exp 3 ulp, product, difference. The sum
  // of |d_y| must fit in float.
  m["log_softmax_bwd"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>& ref, bool) {
    const int64_t rows = p.i("m"), n = p.i("n");
    ErrorModel e{false, 1, 0, TensorD(ref[0].shape), TensorD(ref[0].shape)};
    parallel_rows(rows, n, [&](int64_t i) {
      double total = 0, abs_total = 0;
      for (int64_t j = 0; j < n; ++j) total += in[1][i * n + j], abs_total += std::abs(in[1][i * n + j]);
      for (int64_t j = 0; j < n; ++j) {
        const int64_t k = i * n + j;
        const double ey = std::exp(in[0][k]);
        e.mag[k] = std::abs(in[1][k]) + ey * (5 * std::abs(total) + n * abs_total) + kUnderflow * abs_total + 2 * std::abs(ref[0][k]);
        e.peak[k] = std::max(e.mag[k], abs_total);
      }
    });
    return moved(e);
  };
  // loss = -(1/b) sum t_ij ls_ij: each ls_ij carries log_softmax_mag, the b*c products and the sum
  // gamma(b*c) of |t ls|, the division one more rounding.
  m["cross_entropy"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>& ref, bool) {
    const int64_t b = p.i("b"), c = p.i("c");
    const bool soft = p.s("labels") == "soft";
    double mag = 0;
    for (int64_t i = 0; i < b; ++i) {
      if (!finite_row(in[0].data.data() + i * c, c)) continue;
      const Row r = row_stats(in[0].data.data() + i * c, c);
      for (int64_t j = 0; j < c; ++j) {
        const double t = soft ? in[1][i * c + j] : (static_cast<int64_t>(in[1][i]) == j ? 1.0 : 0.0);
        if (t == 0) continue;
        mag += std::abs(t) * (log_softmax_mag(r, j) + (b * c + 2) * std::abs(r.shift[j] - r.log_sum));
      }
    }
    ErrorModel e{false, 1, 2, TensorD(ref[0].shape, mag / static_cast<double>(b))};
    if (soft) zero_weight_times_log_zero(e, in, b, c);
    return moved(e);
  };
  // d_ij = d_loss / b * (p_ij T_i - t_ij), T_i = sum_j t_ij (c terms); p_ij carries softmax_mag.
  m["cross_entropy_bwd"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>& ref, bool) {
    const int64_t b = p.i("b"), c = p.i("c");
    const bool soft = p.s("labels") == "soft";
    const double scale = std::abs(in[2][0]) / static_cast<double>(b);
    ErrorModel e{false, 1, 0, TensorD(ref[0].shape)};
    parallel_rows(b, c, [&](int64_t i) {
      if (!finite_row(in[0].data.data() + i * c, c)) return;
      const Row r = row_stats(in[0].data.data() + i * c, c);
      double weights = 0;
      for (int64_t j = 0; j < c; ++j) weights += soft ? std::abs(in[1][i * c + j]) : (static_cast<int64_t>(in[1][i]) == j ? 1.0 : 0.0);
      for (int64_t j = 0; j < c; ++j) {
        const double t = soft ? in[1][i * c + j] : (static_cast<int64_t>(in[1][i]) == j ? 1.0 : 0.0);
        e.mag[i * c + j] =
            scale * (weights * (softmax_mag(r, j) + kUnderflow) + r.y[j] * (c + 2) * weights + std::abs(t)) + 3 * std::abs(ref[0][i * c + j]);
      }
    });
    return moved(e);
  };
}

}  // namespace plumbline::models
