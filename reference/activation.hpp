#pragma once
// The seven activations and their derivatives, shared by act and gemm_bias_act.
// At +-Inf both are defined by their limits (silu(-Inf) = -0, gelu'(+Inf) = 1, ...): the naive formulas
// give Inf * 0 = NaN there, which the mathematics does not. NaN in gives NaN out (relu included).
// Written without cancellation, so that they stay accurate at extreme arguments: 1 - tanh(x)^2 is 0 in
// double at x = -133 where the derivative is 2.3e-116 (and Inf times it is Inf, not NaN); sigmoid'
// is s(x) s(-x), not s (1 - s); 1 + tanh(z) is 2 sigmoid(2z); 1 + erf is erfc.
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
  if (x >= T(0)) return T(1) / (T(1) + std::exp(-x));
  const T e = std::exp(x);
  return e / (T(1) + e);
}

// 1 / cosh(x)^2, the derivative of tanh; 0 where cosh overflows.
template <class T>
T sech2(T x) {
  const T c = std::cosh(x);
  return T(1) / (c * c);
}

template <class T>
T act_forward(Act a, T x) {
  if (std::isnan(x)) return x;
  const bool pos_inf = std::isinf(x) && x > 0, neg_inf = std::isinf(x) && x < 0;
  switch (a) {
    case Act::None:
      return x;
    case Act::Relu:
      return x > T(0) ? x : T(0);
    case Act::Sigmoid:
      return sigmoid_of(x);
    case Act::Tanh:
      return std::tanh(x);
    case Act::Silu:
      if (neg_inf) return T(-0.0);
      return pos_inf ? x : x * sigmoid_of(x);
    case Act::GeluTanh: {  // 0.5 x (1 + tanh z) = x sigmoid(2z)
      if (neg_inf) return T(-0.0);
      if (pos_inf) return x;
      const T inner = T(0.7978845608028654) * (x + T(0.044715) * x * x * x);
      return x * sigmoid_of(T(2) * inner);
    }
    case Act::GeluErf:  // 0.5 x (1 + erf(x / sqrt 2)) = 0.5 x erfc(-x / sqrt 2)
      if (neg_inf) return T(-0.0);
      if (pos_inf) return x;
      return T(0.5) * x * std::erfc(-x / std::sqrt(T(2)));
  }
  return x;
}

template <class T>
T act_derivative(Act a, T x) {
  // The identity's derivative is 1 at every input, NaN included: no activation multiplies the
  // gradient by nothing (as autograd in PyTorch and JAX gives), so a NaN pre-activation does not
  // reach d_a or d_b through it. Every other activation's derivative at NaN is NaN.
  if (a == Act::None) return T(1);
  if (std::isnan(x)) return x;
  const bool pos_inf = std::isinf(x) && x > 0, neg_inf = std::isinf(x) && x < 0;
  switch (a) {
    case Act::None:
      return T(1);
    case Act::Relu:
      return x > T(0) ? T(1) : T(0);  // relu'(0) = 0
    case Act::Sigmoid:
      return sigmoid_of(x) * sigmoid_of(-x);
    case Act::Tanh:
      return sech2(x);
    case Act::Silu: {
      if (neg_inf) return T(0);
      if (pos_inf) return T(1);
      return sigmoid_of(x) * (T(1) + x * sigmoid_of(-x));
    }
    case Act::GeluTanh: {
      if (neg_inf) return T(0);
      if (pos_inf) return T(1);
      const T k = T(0.7978845608028654), c = T(0.044715);
      const T inner = k * (x + c * x * x * x), s2 = sech2(inner);
      return sigmoid_of(T(2) * inner) + (s2 == T(0) ? T(0) : T(0.5) * x * s2 * k * (T(1) + T(3) * c * x * x));
    }
    case Act::GeluErf: {
      if (neg_inf) return T(0);
      if (pos_inf) return T(1);
      const T inv_sqrt_2pi = T(0.3989422804014327);
      return T(0.5) * std::erfc(-x / std::sqrt(T(2))) + x * inv_sqrt_2pi * std::exp(T(-0.5) * x * x);
    }
  }
  return T(1);
}

}  // namespace plumbline
