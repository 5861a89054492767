// References of the elementwise family.
#include "core/registry.hpp"
#include "reference/activation.hpp"
#include "reference/families.hpp"

namespace plumbline {

namespace {

template <class T>
std::vector<Tensor<T>> act(const Problem& p, const std::vector<Tensor<T>>& in) {
  const Act a = parse_act(p.s("act"));
  Tensor<T> y(in[0].shape);
  for (int64_t i = 0; i < y.numel(); ++i) y[i] = act_forward(a, in[0][i]);
  return moved(y);
}

template <class T>
std::vector<Tensor<T>> act_bwd(const Problem& p, const std::vector<Tensor<T>>& in) {
  const Act a = parse_act(p.s("act"));
  Tensor<T> dx(in[0].shape);
  for (int64_t i = 0; i < dx.numel(); ++i) dx[i] = in[1][i] * act_derivative(a, in[0][i]);
  return moved(dx);
}

template <class T>
std::vector<Tensor<T>> add(const Problem&, const std::vector<Tensor<T>>& in) {
  Tensor<T> y(in[0].shape);
  for (int64_t i = 0; i < y.numel(); ++i) y[i] = in[0][i] + in[1][i];
  return moved(y);
}

template <class T>
std::vector<Tensor<T>> mul(const Problem&, const std::vector<Tensor<T>>& in) {
  Tensor<T> y(in[0].shape);
  for (int64_t i = 0; i < y.numel(); ++i) y[i] = in[0][i] * in[1][i];
  return moved(y);
}

template <class T>
std::vector<Tensor<T>> bias_add(const Problem& p, const std::vector<Tensor<T>>& in) {
  const int64_t n = p.i("n");
  Tensor<T> y(in[0].shape);
  for (int64_t i = 0; i < y.numel(); ++i) y[i] = in[0][i] + in[1][i % n];
  return moved(y);
}

template <class T>
std::vector<Tensor<T>> bias_add_bwd(const Problem& p, const std::vector<Tensor<T>>& in) {
  const int64_t n = p.i("n");
  Tensor<T> dx = in[0], dbias(Shape{n});
  for (int64_t i = 0; i < dx.numel(); ++i) dbias[i % n] += in[0][i];
  return moved(dx, dbias);
}

}  // namespace

void add_elementwise_refs(std::vector<ReferenceOp>& ops) {
  ops.push_back({"act", act<double>, act<float>});
  ops.push_back({"act_bwd", act_bwd<double>, act_bwd<float>});
  ops.push_back({"add", add<double>, add<float>});
  ops.push_back({"mul", mul<double>, mul<float>});
  ops.push_back({"bias_add", bias_add<double>, bias_add<float>});
  ops.push_back({"bias_add_bwd", bias_add_bwd<double>, bias_add_bwd<float>});
}

}  // namespace plumbline
