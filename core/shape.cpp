#include "core/shape.hpp"

#include "core/error.hpp"

namespace plumbline {

int64_t Shape::numel() const {
  int64_t n = 1;
  for (int64_t d : dims_)
    if (__builtin_mul_overflow(n, d, &n)) throw Error("a tensor of shape " + str() + " has more than 2^63 elements");
  return n;
}

std::string Shape::str() const {
  std::string s = "[";
  for (size_t i = 0; i < dims_.size(); ++i) s += (i ? "," : "") + std::to_string(dims_[i]);
  return s + "]";
}

}  // namespace plumbline
