// References of the softmax and loss family, in their numerically stable forms:
//   softmax(x) = exp(x - max) / sum exp(x - max);  log_softmax(x) = x - max - log(sum exp(x - max)).
#include <cmath>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "core/registry.hpp"
#include "reference/families.hpp"

namespace plumbline {

namespace {

// log_softmax of one row into out.
template <class T>
void log_softmax_row(const T* x, T* out, int64_t n) {
  T mx = x[0];
  for (int64_t j = 1; j < n; ++j) mx = (x[j] > mx || std::isnan(x[j])) ? x[j] : mx;
  T sum = 0;
  for (int64_t j = 0; j < n; ++j) sum += std::exp(x[j] - mx);
  // (x - max) - log(sum), never x - (max + log(sum)): beside a huge max, log(sum) would be absorbed
  // (a row with FLT_MAX twice must give -log 2, not 0).
  const T log_sum = std::log(sum);
  for (int64_t j = 0; j < n; ++j) out[j] = (x[j] - mx) - log_sum;
}

template <class T>
std::vector<Tensor<T>> softmax(const Problem& p, const std::vector<Tensor<T>>& in) {
  const int64_t m = p.i("m"), n = p.i("n");
  Tensor<T> y(in[0].shape);
  parallel_rows(m, n, [&](int64_t i) {  // rows apart (core/parallel.hpp): the same bits as one by one
    const T* x = in[0].data.data() + i * n;
    T mx = x[0];
    for (int64_t j = 1; j < n; ++j) mx = (x[j] > mx || std::isnan(x[j])) ? x[j] : mx;
    T sum = 0;
    for (int64_t j = 0; j < n; ++j) sum += y[i * n + j] = std::exp(x[j] - mx);
    for (int64_t j = 0; j < n; ++j) y[i * n + j] /= sum;
  });
  return moved(y);
}

template <class T>
std::vector<Tensor<T>> log_softmax(const Problem& p, const std::vector<Tensor<T>>& in) {
  const int64_t m = p.i("m"), n = p.i("n");
  Tensor<T> y(in[0].shape);
  parallel_rows(m, n, [&](int64_t i) { log_softmax_row(in[0].data.data() + i * n, y.data.data() + i * n, n); });
  return moved(y);
}

// d_x = y * (d_y - sum_j d_y_j * y_j)
template <class T>
std::vector<Tensor<T>> softmax_bwd(const Problem& p, const std::vector<Tensor<T>>& in) {
  const int64_t m = p.i("m"), n = p.i("n");
  const Tensor<T>&y = in[0], &dy = in[1];
  Tensor<T> dx(y.shape);
  parallel_rows(m, n, [&](int64_t i) {
    T dot = 0;
    for (int64_t j = 0; j < n; ++j) dot += dy[i * n + j] * y[i * n + j];
    for (int64_t j = 0; j < n; ++j) dx[i * n + j] = y[i * n + j] * (dy[i * n + j] - dot);
  });
  return moved(dx);
}

// d_x = d_y - exp(y) * sum_j d_y_j   (y = log_softmax(x), so exp(y) = softmax(x))
template <class T>
std::vector<Tensor<T>> log_softmax_bwd(const Problem& p, const std::vector<Tensor<T>>& in) {
  const int64_t m = p.i("m"), n = p.i("n");
  const Tensor<T>&y = in[0], &dy = in[1];
  Tensor<T> dx(y.shape);
  parallel_rows(m, n, [&](int64_t i) {
    T sum = 0;
    for (int64_t j = 0; j < n; ++j) sum += dy[i * n + j];
    for (int64_t j = 0; j < n; ++j) dx[i * n + j] = dy[i * n + j] - std::exp(y[i * n + j]) * sum;
  });
  return moved(dx);
}

// Target weights of row i: one-hot for class indices (checked to be integers in [0, c)), else the row.
template <class T>
void target_row(const Problem& p, const Tensor<T>& target, int64_t i, std::vector<T>& w) {
  const int64_t c = p.i("c");
  if (p.s("labels") == "soft") {
    for (int64_t j = 0; j < c; ++j) w[j] = target[i * c + j];
    return;
  }
  const T t = target[i];
  if (!(t >= 0 && t < static_cast<T>(c)) || t != std::floor(t))
    throw Error(p.line() + ": target[" + std::to_string(i) + "] = " + std::to_string(static_cast<double>(t)) + " is not a class index in [0, " +
                std::to_string(c) + ")");
  std::fill(w.begin(), w.end(), T(0));
  w[static_cast<size_t>(t)] = T(1);
}

// loss = -(1/b) sum_i sum_j target_ij * log_softmax(logits_i)_j
template <class T>
std::vector<Tensor<T>> cross_entropy(const Problem& p, const std::vector<Tensor<T>>& in) {
  const int64_t b = p.i("b"), c = p.i("c");
  std::vector<T> w(static_cast<size_t>(c)), ls(static_cast<size_t>(c));
  T total = 0;
  for (int64_t i = 0; i < b; ++i) {
    target_row(p, in[1], i, w);
    log_softmax_row(in[0].data.data() + i * c, ls.data(), c);
    for (int64_t j = 0; j < c; ++j)
      if (w[j] != T(0)) total -= w[j] * ls[j];  // a zero weight contributes nothing, even against -Inf
  }
  Tensor<T> loss(Shape{});
  loss[0] = total / static_cast<T>(b);
  return moved(loss);
}

// d_logits_ij = d_loss / b * (softmax_ij * sum_j target_ij - target_ij)
template <class T>
std::vector<Tensor<T>> cross_entropy_bwd(const Problem& p, const std::vector<Tensor<T>>& in) {
  const int64_t b = p.i("b"), c = p.i("c");
  const T scale = in[2][0] / static_cast<T>(b);
  Tensor<T> d(in[0].shape);
  parallel_row_ranges(b, c, [&](int64_t begin, int64_t end) {  // a bad target: the first row's error, as one by one
    std::vector<T> w(static_cast<size_t>(c)), ls(static_cast<size_t>(c));
    for (int64_t i = begin; i < end; ++i) {
      target_row(p, in[1], i, w);
      log_softmax_row(in[0].data.data() + i * c, ls.data(), c);
      T wsum = 0;
      for (int64_t j = 0; j < c; ++j) wsum += w[j];
      for (int64_t j = 0; j < c; ++j) d[i * c + j] = scale * (std::exp(ls[j]) * wsum - w[j]);
    }
  });
  return moved(d);
}

}  // namespace

void add_softmax_refs(std::vector<ReferenceOp>& ops) {
  ops.push_back({"softmax", softmax<double>, softmax<float>});
  ops.push_back({"softmax_bwd", softmax_bwd<double>, softmax_bwd<float>});
  ops.push_back({"log_softmax", log_softmax<double>, log_softmax<float>});
  ops.push_back({"log_softmax_bwd", log_softmax_bwd<double>, log_softmax_bwd<float>});
  ops.push_back({"cross_entropy", cross_entropy<double>, cross_entropy<float>});
  ops.push_back({"cross_entropy_bwd", cross_entropy_bwd<double>, cross_entropy_bwd<float>});
}

}  // namespace plumbline
