// References of the reductions and shape family.
#include "core/registry.hpp"
#include "reference/families.hpp"

namespace plumbline {

namespace {

template <class T>
std::vector<Tensor<T>> reduce(const Problem& p, const std::vector<Tensor<T>>& in, bool mean) {
  const int64_t m = p.i("m"), n = p.i("n");
  if (p.s("over") == "all") {
    Tensor<T> y(Shape{});
    for (T v : in[0].data) y[0] += v;
    if (mean) y[0] /= static_cast<T>(m * n);
    return moved(y);
  }
  Tensor<T> y(Shape{m});
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) y[i] += in[0][i * n + j];
    if (mean) y[i] /= static_cast<T>(n);
  }
  return moved(y);
}

template <class T>
std::vector<Tensor<T>> sum(const Problem& p, const std::vector<Tensor<T>>& in) {
  return reduce(p, in, false);
}
template <class T>
std::vector<Tensor<T>> mean(const Problem& p, const std::vector<Tensor<T>>& in) {
  return reduce(p, in, true);
}

template <class T>
std::vector<Tensor<T>> transpose(const Problem& p, const std::vector<Tensor<T>>& in) {
  const int64_t m = p.i("m"), n = p.i("n");
  Tensor<T> y(Shape{n, m});
  y.matrix(n, m) = in[0].matrix(m, n).transpose();
  return moved(y);
}

}  // namespace

void add_reduction_refs(std::vector<ReferenceOp>& ops) {
  ops.push_back({"sum", sum<double>, sum<float>});
  ops.push_back({"mean", mean<double>, mean<float>});
  ops.push_back({"transpose", transpose<double>, transpose<float>});
}

}  // namespace plumbline
