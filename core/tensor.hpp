#pragma once
// A contiguous, row-major tensor that owns its data. Double tensors feed the references,
// float tensors the kernels; convert<U>() moves between them.
#include <Eigen/Core>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "core/shape.hpp"

namespace plumbline {

template <class T>
struct Tensor {
  Shape shape;
  std::vector<T> data;

  Tensor() = default;
  explicit Tensor(Shape s, T fill = T(0)) : shape(std::move(s)), data(static_cast<size_t>(shape.numel()), fill) {}

  int64_t numel() const { return static_cast<int64_t>(data.size()); }
  T& operator[](int64_t i) { return data[static_cast<size_t>(i)]; }
  const T& operator[](int64_t i) const { return data[static_cast<size_t>(i)]; }

  template <class U>
  Tensor<U> convert() const {
    Tensor<U> out;
    out.shape = shape;
    out.data.assign(data.begin(), data.end());
    return out;
  }

  // The tensor seen as a rows x cols row-major matrix (rows * cols must equal numel()).
  using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<Matrix> matrix(int64_t rows, int64_t cols) {
    check_view(rows, cols);
    return Eigen::Map<Matrix>(data.data() + 0, rows, cols);
  }
  Eigen::Map<const Matrix> matrix(int64_t rows, int64_t cols) const {
    check_view(rows, cols);
    return Eigen::Map<const Matrix>(data.data(), rows, cols);
  }

 private:
  void check_view(int64_t rows, int64_t cols) const {
    if (rows * cols != numel())
      throw Error("tensor of shape " + shape.str() + " viewed as a " + std::to_string(rows) + "x" + std::to_string(cols) + " matrix");
  }
};

using TensorF = Tensor<float>;
using TensorD = Tensor<double>;

// A vector of its arguments, moved in: `return {y};` copies y (an initializer list's elements are
// const), which for a reference's or an error model's full-size tensors is a second allocation and a
// second pass over it (a sixth of a 1024 x 32000 cross_entropy_bwd check's host time on PoCL).
template <class First, class... Rest>
std::vector<std::decay_t<First>> moved(First&& first, Rest&&... rest) {
  std::vector<std::decay_t<First>> v;
  v.reserve(1 + sizeof...(Rest));
  v.push_back(std::move(first));
  (v.push_back(std::move(rest)), ...);
  return v;
}

}  // namespace plumbline
