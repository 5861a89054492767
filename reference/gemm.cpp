// References of the GEMM family. Products use Eigen; every batch entry is one matrix product.
#include "core/registry.hpp"
#include "reference/activation.hpp"
#include "reference/families.hpp"

namespace plumbline {

namespace {

template <class T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <class T>
Eigen::Map<const Mat<T>> slice(const Tensor<T>& t, int64_t b, int64_t rows, int64_t cols) {
  return Eigen::Map<const Mat<T>>(t.data.data() + b * rows * cols, rows, cols);
}
template <class T>
Eigen::Map<Mat<T>> slice(Tensor<T>& t, int64_t b, int64_t rows, int64_t cols) {
  return Eigen::Map<Mat<T>>(t.data.data() + b * rows * cols, rows, cols);
}

template <class T>
std::vector<Tensor<T>> matmul(const Problem& p, const std::vector<Tensor<T>>& in) {
  const int64_t batches = std::max<int64_t>(p.i("batch"), 1), m = p.i("m"), k = p.i("k"), n = p.i("n");
  const bool ta = p.i("ta"), tb = p.i("tb");
  Tensor<T> y(signature_of(p).outputs[0].shape);
  for (int64_t b = 0; b < batches; ++b) {
    Mat<T> a = ta ? Mat<T>(slice(in[0], b, k, m).transpose()) : Mat<T>(slice(in[0], b, m, k));
    Mat<T> bm = tb ? Mat<T>(slice(in[1], b, n, k).transpose()) : Mat<T>(slice(in[1], b, k, n));
    slice(y, b, m, n) = a * bm;
  }
  return moved(y);
}

// pre[b] = A[b] @ B[b or shared] + bias, for every batch entry.
template <class T>
Tensor<T> pre_activation(const Problem& p, const std::vector<Tensor<T>>& in) {
  const int64_t batches = std::max<int64_t>(p.i("batch"), 1), m = p.i("m"), k = p.i("k"), n = p.i("n");
  const bool shared = p.i("bshared") || p.i("batch") == 0;
  Tensor<T> pre(signature_of(p.as("gemm_bias_act")).outputs[0].shape);
  const auto bias = Eigen::Map<const Eigen::Matrix<T, 1, Eigen::Dynamic>>(in[2].data.data(), n);
  for (int64_t b = 0; b < batches; ++b) {
    auto out = slice(pre, b, m, n);
    out = slice(in[0], b, m, k) * slice(in[1], shared ? 0 : b, k, n);
    out.rowwise() += bias;
  }
  return pre;
}

template <class T>
std::vector<Tensor<T>> gemm_bias_act(const Problem& p, const std::vector<Tensor<T>>& in) {
  const Act act = parse_act(p.s("act"));
  Tensor<T> y = pre_activation(p, in);
  for (auto& v : y.data) v = act_forward(act, v);
  return moved(y);
}

// grad_pre = d_y * act'(pre); d_a = grad_pre @ B^T; d_b = A^T @ grad_pre (summed over the batch when
// B is shared); d_bias = column sums of grad_pre over every batch entry.
template <class T>
std::vector<Tensor<T>> gemm_bias_act_bwd(const Problem& p, const std::vector<Tensor<T>>& in) {
  const int64_t batches = std::max<int64_t>(p.i("batch"), 1), m = p.i("m"), k = p.i("k"), n = p.i("n");
  const bool shared = p.i("bshared") || p.i("batch") == 0;
  const Act act = parse_act(p.s("act"));
  Tensor<T> grad_pre = act == Act::None ? in[3] : pre_activation(p, in);  // act=none: d_y is the gradient
  if (act != Act::None)
    for (int64_t i = 0; i < grad_pre.numel(); ++i) grad_pre[i] = in[3][i] * act_derivative(act, grad_pre[i]);

  Tensor<T> d_a(in[0].shape), d_b(in[1].shape), d_bias(in[2].shape);
  auto d_bias_row = Eigen::Map<Eigen::Matrix<T, 1, Eigen::Dynamic>>(d_bias.data.data(), n);
  for (int64_t b = 0; b < batches; ++b) {
    const auto gp = slice(grad_pre, b, m, n);
    const auto bm = slice(in[1], shared ? 0 : b, k, n);
    slice(d_a, b, m, k) = gp * bm.transpose();
    slice(d_b, shared ? 0 : b, k, n) += slice(in[0], b, m, k).transpose() * gp;
    d_bias_row += gp.colwise().sum();
  }
  return moved(d_a, d_b, d_bias);
}

}  // namespace

void add_gemm_refs(std::vector<ReferenceOp>& ops) {
  ops.push_back({"matmul", matmul<double>, matmul<float>});
  ops.push_back({"gemm_bias_act", gemm_bias_act<double>, gemm_bias_act<float>});
  ops.push_back({"gemm_bias_act_bwd", gemm_bias_act_bwd<double>, gemm_bias_act_bwd<float>});
}

}  // namespace plumbline
