// Error models of the convolution family: linear, so the reference on |inputs| bounds every sum.
//   conv2d: c/g * r * s products (+ the bias) per output; IEEE evaluation multiplies padding by the
//     weights (0 x Inf = NaN), which the reference leaves out;
//   conv2d_bwd_data: at most k/g * r * s terms per input element;
//   conv2d_bwd_weight: n * p * q terms per weight, and per bias; IEEE evaluation multiplies padding by
//     d_y (0 x Inf = NaN), which the reference leaves out;
// Exact on integer inputs.
// In winograd(m, 3) (core/numeric_mode.hpp), with n = m + 2 and Lavin and Gray's transforms, an output
// tile is A^T [sum_c (G g_c G^T) . (B^T d_c B)] A. Each stage's float rounding is bounded by the same
// expression on absolute values, W = |A^T| [sum_c (|G| |g_c| |G^T|) . (|B^T| |d_c| |B|)] |A| (+ |bias|):
// the filter transform (two sums of 3 terms, G's constants such as 1/6 rounded: 6 + 2 u), the input
// transform (two sums of n: 2n u), the product (u), the sum over the c/g channels, the output
// transform (2n u), the bias (u). So |y - y_winograd| <= gamma(4n + 6 + c/g + 3 [+ 1]) W to first order;
// W exceeds the direct sum of |x w| by the transforms' growth (Barabasz et al., 2020), which is why
// the mode has a bound of its own. An output whose tile holds a non-finite input or weight is not
// judged: the transforms mix the tile (Inf - Inf = NaN reaches outputs whose window holds no Inf).
#include <algorithm>
#include <cmath>
#include <functional>

#include "check/error_models.hpp"
#include "core/registry.hpp"
#include "reference/reference.hpp"

#include <Eigen/Dense>

namespace plumbline::models {

namespace {

// IEEE evaluation of a padded sum multiplies each padding cell by what meets it (a weight in conv2d, a
// d_y in conv2d_bwd_weight): 0 x Inf (or NaN) is NaN wherever a non-finite one meets padding; the
// reference leaves padding out. An output's filter holds some count of non-finite in[1] values; the
// reference on ones (for in[0]) and in[1]'s non-finite indicator counts those meeting input cells, and
// fewer means one met padding. filter_of_input and filter_of_output give an element's filter (of k).
void nonfinite_meets_padding(ErrorModel& m, const Problem& p, const std::vector<TensorD>& in, int64_t k,
                             const std::function<int64_t(int64_t)>& filter_of_input, const std::function<int64_t(int64_t)>& filter_of_output,
                             const std::string& why) {
  if (p.i("ph") == 0 && p.i("pw") == 0) return;
  std::vector<TensorD> marks{TensorD(in[0].shape, 1.0), TensorD(in[1].shape)};
  if (in.size() > 2) marks.push_back(TensorD(in[2].shape));
  std::vector<double> per_filter(static_cast<size_t>(k));
  for (int64_t i = 0; i < in[1].numel(); ++i)
    if (!std::isfinite(in[1][i])) marks[1][i] = 1, ++per_filter[static_cast<size_t>(filter_of_input(i))];
  if (std::all_of(per_filter.begin(), per_filter.end(), [](double c) { return c == 0; })) return;  // every value finite
  const TensorD met = run_reference(p, marks)[0];                                                  // per output: its non-finite values on input cells
  for (int64_t o = 0; o < met.numel(); ++o)
    if (met[o] < per_filter[static_cast<size_t>(filter_of_output(o))]) m.depart(met.numel(), o, IeeeOutcome::kNaN, EdgeRule::Padding, why);
}

// conv2d: a filter's weights are c/g * r * s consecutive values; y is n, k, p, q.
void padding_times_nonfinite(ErrorModel& m, const Problem& p, const std::vector<TensorD>& in) {
  const int64_t k = p.i("k"), taps = p.i("c") / p.i("g") * p.i("r") * p.i("s");
  const Shape y = signature_of(p).outputs[0].shape;
  const int64_t plane = y[2] * y[3];
  nonfinite_meets_padding(
      m, p, in, k, [&](int64_t i) { return i / taps; }, [&](int64_t o) { return o / plane % k; },
      "a non-finite weight meets padding, which the reference leaves out, where IEEE evaluation of the padded sum gives 0 x Inf = NaN");
}

// conv2d_bwd_weight: d_y is n, k, p, q; d_w is k, c/g, r, s.
void padding_times_nonfinite_dy(ErrorModel& m, const Problem& p, const std::vector<TensorD>& in) {
  const Shape& dy = in[1].shape;
  const int64_t k = dy[1], plane = dy[2] * dy[3], taps = p.i("c") / p.i("g") * p.i("r") * p.i("s");
  nonfinite_meets_padding(
      m, p, in, k, [&](int64_t i) { return i / plane % k; }, [&](int64_t o) { return o / taps; },
      "a non-finite d_y meets padding, which the reference leaves out, where IEEE evaluation of the padded sum gives 0 x Inf = NaN");
}

using Small = Eigen::MatrixXd;

Small matrix(int rows, int cols, std::initializer_list<double> v) {
  Small a(rows, cols);
  auto it = v.begin();
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) a(i, j) = *it++;
  return a;
}

// Lavin and Gray's transforms of F(m x m, 3 x 3), as absolute values: B^T, G, A^T.
struct Transforms {
  Small bt, g, at;
};

Transforms abs_transforms(int m) {
  Transforms t;
  if (m == 2) {
    t.bt = matrix(4, 4, {1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 0, -1});
    t.g = matrix(4, 3, {1, 0, 0, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0, 0, 1});
    t.at = matrix(2, 4, {1, 1, 1, 0, 0, 1, -1, -1});
  } else {
    t.bt = matrix(6, 6, {4, 0, -5, 0, 1, 0, 0, -4, -4, 1, 1, 0, 0, 4, -4, -1, 1, 0, 0, -2, -1, 2, 1, 0, 0, 2, -1, -2, 1, 0, 0, 4, 0, -5, 0, 1});
    t.g = matrix(6, 3,
                 {1. / 4, 0, 0, -1. / 6, -1. / 6, -1. / 6, -1. / 6, 1. / 6, -1. / 6, 1. / 24, 1. / 12, 1. / 6, 1. / 24, -1. / 12, 1. / 6, 0, 0, 1});
    t.at = matrix(4, 6, {1, 1, 1, 1, 1, 0, 0, 1, -1, 2, -2, 0, 0, 1, 1, 4, 4, 0, 0, 1, -1, 8, -8, 1});
  }
  t.bt = t.bt.cwiseAbs(), t.g = t.g.cwiseAbs(), t.at = t.at.cwiseAbs();
  return t;
}

}  // namespace

std::vector<ErrorModel> winograd(const Problem& p, const std::vector<TensorD>& in, int m) {
  const int64_t N = p.i("n"), C = p.i("c"), H = p.i("h"), W = p.i("w"), K = p.i("k"), G = p.i("g"), ph = p.i("ph"), pw = p.i("pw");
  const int64_t cg = C / G, kg = K / G, P = H + 2 * ph - 2, Q = W + 2 * pw - 2, n = m + 2;
  const Transforms t = abs_transforms(m);
  auto finite_abs = [](double v) { return std::isfinite(v) ? std::abs(v) : 0.0; };  // as linear(): an Inf gives its class
  // |G| |g| |G^T| per filter and channel.
  std::vector<Small> u(static_cast<size_t>(K * cg));
  for (int64_t k = 0; k < K; ++k)
    for (int64_t c = 0; c < cg; ++c) {
      Small g(3, 3);
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) g(a, b) = finite_abs(in[1][((k * cg + c) * 3 + a) * 3 + b]);
      u[static_cast<size_t>(k * cg + c)] = t.g * g * t.g.transpose();
    }
  // A non-finite weight or tile input: the transforms mix the tile's values (Inf - Inf), so any class
  // may come out of any output of the tile, and none is judged (marked: peak Inf).
  std::vector<bool> filter_finite(static_cast<size_t>(K), true);
  for (int64_t i = 0; i < in[1].numel(); ++i)
    filter_finite[static_cast<size_t>(i / (cg * 9))] = filter_finite[static_cast<size_t>(i / (cg * 9))] && std::isfinite(in[1][i]);
  ErrorModel e{false, static_cast<double>(4 * n + 6 + cg + 3 + (p.i("bias") ? 1 : 0)), 0, TensorD(Shape{N, K, P, Q}), TensorD(Shape{N, K, P, Q})};
  const int64_t tiles_p = (P + m - 1) / m, tiles_q = (Q + m - 1) / m;
  Small d(n, n);
  std::vector<Small> v(static_cast<size_t>(cg));
  for (int64_t b = 0; b < N; ++b)
    for (int64_t grp = 0; grp < G; ++grp)
      for (int64_t tp = 0; tp < tiles_p; ++tp)
        for (int64_t tq = 0; tq < tiles_q; ++tq) {
          bool tile_finite = true;
          double largest = 0;                 // the largest transformed value the tile's evaluation holds
          for (int64_t c = 0; c < cg; ++c) {  // |B^T| |d| |B| of the tile's inputs, zeros outside
            for (int64_t i = 0; i < n; ++i)
              for (int64_t j = 0; j < n; ++j) {
                const int64_t y = tp * m + i - ph, x = tq * m + j - pw;
                const double value = y >= 0 && y < H && x >= 0 && x < W ? in[0][((b * C + grp * cg + c) * H + y) * W + x] : 0.0;
                tile_finite = tile_finite && std::isfinite(value);
                d(i, j) = finite_abs(value);
              }
            v[static_cast<size_t>(c)] = t.bt * d * t.bt.transpose();
            largest = std::max(largest, v[static_cast<size_t>(c)].maxCoeff());
          }
          for (int64_t k = grp * kg; k < (grp + 1) * kg; ++k) {
            Small sum = Small::Zero(n, n);
            double peak = largest;
            for (int64_t c = 0; c < cg; ++c) {
              sum += u[static_cast<size_t>(k * cg + c)].cwiseProduct(v[static_cast<size_t>(c)]);
              peak = std::max({peak, u[static_cast<size_t>(k * cg + c)].maxCoeff(), sum.maxCoeff()});
            }
            const Small y = t.at * sum * t.at.transpose();
            const double bias = p.i("bias") ? finite_abs(in[2][k]) : 0.0;
            const bool judged = tile_finite && filter_finite[static_cast<size_t>(k)];
            for (int64_t i = 0; i < m && tp * m + i < P; ++i)
              for (int64_t j = 0; j < m && tq * m + j < Q; ++j) {
                const int64_t o = ((b * K + k) * P + tp * m + i) * Q + tq * m + j;
                e.mag[o] = y(i, j) + bias;
                e.peak[o] = judged ? std::max(peak, e.mag[o]) : INFINITY;
              }
          }
        }
  return moved(e);
}

void add_conv(std::map<std::string, ErrorModelFn>& m) {
  m["conv2d"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool ints) {
    auto v = linear(p, in, {static_cast<double>(p.i("c") / p.i("g") * p.i("r") * p.i("s") + 1)}, ints);
    padding_times_nonfinite(v[0], p, in);
    return v;
  };
  m["conv2d_bwd_data"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool ints) {
    return linear(p, in, {static_cast<double>(p.i("k") / p.i("g") * p.i("r") * p.i("s"))}, ints);
  };
  m["conv2d_bwd_weight"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool ints) {
    const Shape y = signature_of(p).input("d_y").shape;
    const double terms = static_cast<double>(y[0] * y[2] * y[3]);
    auto v = linear(p, in, std::vector<double>(p.i("bias") ? 2 : 1, terms), ints);
    padding_times_nonfinite_dy(v[0], p, in);
    return v;
  };
}

}  // namespace plumbline::models
