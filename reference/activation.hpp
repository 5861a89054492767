#pragma once
// The seven activations and their derivatives, shared by act and gemm_bias_act.
// At +-Inf both are defined by their limits (silu(-Inf) = -0, gelu'(+Inf) = 1, ...): the naive formulas
// give Inf * 0 = NaN there, which the mathematics does not. NaN in gives NaN out (relu included).
#include <cmath>
#include <string>

#include "core/error.hpp"

namespace plumbline {

enum class Act { None, Relu, GeluTanh, GeluErf, Silu, Sigmoid, Tanh };

inline Act parse_act(const std::string& s) {
  if (s == "none") return Act::None;
  if (s == "relu") return Act::Relu;
  if (s == "gelu_tanh") return Act::GeluTanh;
  if (s == "gelu_erf") return Act::GeluErf;
  if (s == "silu") return Act::Silu;
  if (s == "sigmoid") return Act::Sigmoid;
  if (s == "tanh") return Act::Tanh;
  throw Error("unknown activation '" + s + "'");
}

template <class T>
T sigmoid_of(T x) {
  return T(1) / (T(1) + std::exp(-x));
}

template <class T>
T act_forward(Act a, T x) {
  if (std::isnan(x)) return x;
  const bool pos_inf = std::isinf(x) && x > 0, neg_inf = std::isinf(x) && x < 0;
  switch (a) {
    case Act::None: return x;
    case Act::Relu: return x > T(0) ? x : T(0);
    case Act::Sigmoid: return sigmoid_of(x);
    case Act::Tanh: return std::tanh(x);
    case Act::Silu:
      if (neg_inf) return T(-0.0);
      return pos_inf ? x : x * sigmoid_of(x);
    case Act::GeluTanh: {
      if (neg_inf) return T(-0.0);
      if (pos_inf) return x;
      const T inner = T(0.7978845608028654) * (x + T(0.044715) * x * x * x);
      return T(0.5) * x * (T(1) + std::tanh(inner));
    }
    case Act::GeluErf:
      if (neg_inf) return T(-0.0);
      if (pos_inf) return x;
      return T(0.5) * x * (T(1) + std::erf(x / std::sqrt(T(2))));
  }
  return x;
}

template <class T>
T act_derivative(Act a, T x) {
  if (std::isnan(x)) return x;
  const bool pos_inf = std::isinf(x) && x > 0, neg_inf = std::isinf(x) && x < 0;
  switch (a) {
    case Act::None: return T(1);
    case Act::Relu: return x > T(0) ? T(1) : T(0);  // relu'(0) = 0
    case Act::Sigmoid: {
      const T s = sigmoid_of(x);
      return s * (T(1) - s);
    }
    case Act::Tanh: {
      const T t = std::tanh(x);
      return T(1) - t * t;
    }
    case Act::Silu: {
      if (neg_inf) return T(0);
      if (pos_inf) return T(1);
      const T s = sigmoid_of(x);
      return s * (T(1) + x * (T(1) - s));
    }
    case Act::GeluTanh: {
      if (neg_inf) return T(0);
      if (pos_inf) return T(1);
      const T k = T(0.7978845608028654), c = T(0.044715);
      const T t = std::tanh(k * (x + c * x * x * x));
      return T(0.5) * (T(1) + t) + T(0.5) * x * (T(1) - t * t) * k * (T(1) + T(3) * c * x * x);
    }
    case Act::GeluErf: {
      if (neg_inf) return T(0);
      if (pos_inf) return T(1);
      const T inv_sqrt_2pi = T(0.3989422804014327);
      return T(0.5) * (T(1) + std::erf(x / std::sqrt(T(2)))) + x * inv_sqrt_2pi * std::exp(T(-0.5) * x * x);
    }
  }
  return T(1);
}

}  // namespace plumbline
