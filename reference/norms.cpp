// References of the normalization family. All three normalize "segments" of the input:
//   group_norm: segment = one (n, group): c/g channels x h x w, parameters indexed by channel
//   layer_norm, rms_norm: segment = one row of length n, parameters indexed by column
// Variance is biased (divide by the segment length); eps is added under the square root.
#include <cmath>

#include "core/registry.hpp"
#include "reference/families.hpp"

namespace plumbline {

namespace {

struct Segments {
  int64_t count;   // number of independent segments
  int64_t length;  // elements per segment
  int64_t inner;   // consecutive elements that share one parameter (h*w for group_norm, 1 for rows)
  int64_t params;  // length of gamma / beta
  // Parameter index of element j of segment seg.
  int64_t param(int64_t seg, int64_t j) const {
    const int64_t per_segment = length / inner;  // parameters a segment spans
    return ((seg * per_segment) % params) + j / inner;
  }
};

Segments segments(const Problem& p) {
  if (p.has("g")) {
    const int64_t c = p.i("c"), hw = p.i("h") * p.i("w"), g = p.i("g");
    return {p.i("n") * g, (c / g) * hw, hw, c};
  }
  return {p.i("m"), p.i("n"), 1, p.i("n")};
}

template <class T>
std::vector<Tensor<T>> mean_var_norm(const Problem& p, const std::vector<Tensor<T>>& in) {
  const Segments sg = segments(p);
  const T eps = static_cast<T>(p.f("eps"));
  const Tensor<T>&x = in[0], &gamma = in[1], &beta = in[2];
  Tensor<T> y(x.shape);
  for (int64_t seg = 0; seg < sg.count; ++seg) {
    const T* xs = x.data.data() + seg * sg.length;
    T mean = 0, var = 0;
    for (int64_t j = 0; j < sg.length; ++j) mean += xs[j];
    mean /= static_cast<T>(sg.length);
    for (int64_t j = 0; j < sg.length; ++j) var += (xs[j] - mean) * (xs[j] - mean);
    var /= static_cast<T>(sg.length);
    const T rstd = T(1) / std::sqrt(var + eps);
    for (int64_t j = 0; j < sg.length; ++j) {
      const int64_t c = sg.param(seg, j);
      y[seg * sg.length + j] = (xs[j] - mean) * rstd * gamma[c] + beta[c];
    }
  }
  return moved(y);
}

// With xhat = (x - mean) * rstd and g = d_y * gamma:
//   d_x = rstd * (g - mean(g) - xhat * mean(g * xhat)),  d_gamma = sum d_y * xhat,  d_beta = sum d_y.
template <class T>
std::vector<Tensor<T>> mean_var_norm_bwd(const Problem& p, const std::vector<Tensor<T>>& in) {
  const Segments sg = segments(p);
  const T eps = static_cast<T>(p.f("eps"));
  const Tensor<T>&x = in[0], &gamma = in[1], &dy = in[2];
  Tensor<T> dx(x.shape), dgamma(gamma.shape), dbeta(gamma.shape);
  std::vector<T> xhat(static_cast<size_t>(sg.length)), g(static_cast<size_t>(sg.length));
  for (int64_t seg = 0; seg < sg.count; ++seg) {
    const int64_t base = seg * sg.length;
    T mean = 0, var = 0;
    for (int64_t j = 0; j < sg.length; ++j) mean += x[base + j];
    mean /= static_cast<T>(sg.length);
    for (int64_t j = 0; j < sg.length; ++j) var += (x[base + j] - mean) * (x[base + j] - mean);
    var /= static_cast<T>(sg.length);
    const T rstd = T(1) / std::sqrt(var + eps);
    T mean_g = 0, mean_gx = 0;
    for (int64_t j = 0; j < sg.length; ++j) {
      const int64_t c = sg.param(seg, j);
      xhat[j] = (x[base + j] - mean) * rstd;
      g[j] = dy[base + j] * gamma[c];
      mean_g += g[j];
      mean_gx += g[j] * xhat[j];
      dgamma[c] += dy[base + j] * xhat[j];
      dbeta[c] += dy[base + j];
    }
    mean_g /= static_cast<T>(sg.length);
    mean_gx /= static_cast<T>(sg.length);
    for (int64_t j = 0; j < sg.length; ++j) dx[base + j] = rstd * (g[j] - mean_g - xhat[j] * mean_gx);
  }
  return moved(dx, dgamma, dbeta);
}

// rms_norm: r = 1 / sqrt(mean(x^2) + eps); y = x * r * gamma.
template <class T>
std::vector<Tensor<T>> rms_norm(const Problem& p, const std::vector<Tensor<T>>& in) {
  const int64_t m = p.i("m"), n = p.i("n");
  const T eps = static_cast<T>(p.f("eps"));
  Tensor<T> y(in[0].shape);
  for (int64_t i = 0; i < m; ++i) {
    T ms = 0;
    for (int64_t j = 0; j < n; ++j) ms += in[0][i * n + j] * in[0][i * n + j];
    const T r = T(1) / std::sqrt(ms / static_cast<T>(n) + eps);
    for (int64_t j = 0; j < n; ++j) y[i * n + j] = in[0][i * n + j] * r * in[1][j];
  }
  return moved(y);
}

// d_x_j = r * gamma_j * d_y_j - x_j * r^3 / n * sum_i(d_y_i * gamma_i * x_i);  d_gamma_j = sum_rows d_y_j * x_j * r.
template <class T>
std::vector<Tensor<T>> rms_norm_bwd(const Problem& p, const std::vector<Tensor<T>>& in) {
  const int64_t m = p.i("m"), n = p.i("n");
  const T eps = static_cast<T>(p.f("eps"));
  const Tensor<T>&x = in[0], &gamma = in[1], &dy = in[2];
  Tensor<T> dx(x.shape), dgamma(gamma.shape);
  for (int64_t i = 0; i < m; ++i) {
    T ms = 0, dot = 0;
    for (int64_t j = 0; j < n; ++j) {
      ms += x[i * n + j] * x[i * n + j];
      dot += dy[i * n + j] * gamma[j] * x[i * n + j];
    }
    const T r = T(1) / std::sqrt(ms / static_cast<T>(n) + eps);
    for (int64_t j = 0; j < n; ++j) {
      dx[i * n + j] = r * gamma[j] * dy[i * n + j] - x[i * n + j] * r * r * r / static_cast<T>(n) * dot;
      dgamma[j] += dy[i * n + j] * x[i * n + j] * r;
    }
  }
  return moved(dx, dgamma);
}

}  // namespace

void add_norm_refs(std::vector<ReferenceOp>& ops) {
  ops.push_back({"group_norm", mean_var_norm<double>, mean_var_norm<float>});
  ops.push_back({"group_norm_bwd", mean_var_norm_bwd<double>, mean_var_norm_bwd<float>});
  ops.push_back({"layer_norm", mean_var_norm<double>, mean_var_norm<float>});
  ops.push_back({"layer_norm_bwd", mean_var_norm_bwd<double>, mean_var_norm_bwd<float>});
  ops.push_back({"rms_norm", rms_norm<double>, rms_norm<float>});
  ops.push_back({"rms_norm_bwd", rms_norm_bwd<double>, rms_norm_bwd<float>});
}

}  // namespace plumbline
