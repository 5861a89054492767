// Elementwise kernels: activations and their derivatives, add, mul, bias_add and its backward.
// ABI (docs/kernel-abi.md): inputs, outputs, then every attribute of the operator as int/float.
// Activation codes: 0 none, 1 relu, 2 gelu_tanh, 3 gelu_erf, 4 silu, 5 sigmoid, 6 tanh.

// sigmoid without overflow: exp of a non-positive argument only, so exp never overflows and
// sigmoid of a large negative number stays a tiny positive number instead of 1/Inf.
float sigmoid_stable(float x) {
  const float e = exp(-fabs(x));
  return x >= 0.0f ? 1.0f / (1.0f + e) : e / (1.0f + e);
}

// tanh with its exact limits: OpenCL requires tanh(+-Inf) = +-1, but PoCL 3.1 returns 0.99999994 there
// (found by plumbline's edge values). gelu_tanh reaches it too, when x^3 overflows.
float tanh_limits(float z) { return isinf(z) ? copysign(1.0f, z) : tanh(z); }

float act_value(int kind, float x) {
  if (isnan(x)) return x;
  if (isinf(x) && kind >= 2 && kind <= 4) return x > 0.0f ? x : -0.0f;  // the limits of gelu, silu
  switch (kind) {
    case 1: return x > 0.0f ? x : 0.0f;
    case 2: return 0.5f * x * (1.0f + tanh_limits(0.7978845608f * (x + 0.044715f * x * x * x)));
    case 3: return 0.5f * x * (1.0f + erf(x * 0.70710678118f));
    case 4: return x * sigmoid_stable(x);
    case 5: return sigmoid_stable(x);
    case 6: return tanh_limits(x);
    default: return x;
  }
}

float act_slope(int kind, float x) {
  if (isnan(x)) return x;
  if (isinf(x) && kind >= 2 && kind <= 4) return x > 0.0f ? 1.0f : 0.0f;
  switch (kind) {
    case 1: return x > 0.0f ? 1.0f : 0.0f;  // relu'(0) = 0
    case 2: {
      const float k = 0.7978845608f, c = 0.044715f;
      const float t = tanh_limits(k * (x + c * x * x * x));
      return 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * k * (1.0f + 3.0f * c * x * x);
    }
    case 3: return 0.5f * (1.0f + erf(x * 0.70710678118f)) + x * 0.39894228040f * exp(-0.5f * x * x);
    case 4: {
      const float s = sigmoid_stable(x);
      return s * (1.0f + x * (1.0f - s));
    }
    case 5: {
      const float s = sigmoid_stable(x);
      return s * (1.0f - s);
    }
    case 6: {
      const float t = tanh_limits(x);
      return 1.0f - t * t;
    }
    default: return 1.0f;
  }
}

// act: one work-item per element.
__kernel void act_forward(__global const float* x, __global float* y, int n, int act) {
  const int i = get_global_id(0);
  if (i < n) y[i] = act_value(act, x[i]);
}

// act_bwd: d_x = d_y * act'(x).
__kernel void act_backward(__global const float* x, __global const float* d_y, __global float* d_x, int n, int act) {
  const int i = get_global_id(0);
  if (i < n) d_x[i] = d_y[i] * act_slope(act, x[i]);
}

__kernel void add(__global const float* a, __global const float* b, __global float* y, int n) {
  const int i = get_global_id(0);
  if (i < n) y[i] = a[i] + b[i];
}

__kernel void mul(__global const float* a, __global const float* b, __global float* y, int n) {
  const int i = get_global_id(0);
  if (i < n) y[i] = a[i] * b[i];
}

// bias_add: one work-item per element of the m x n matrix.
__kernel void bias_add(__global const float* x, __global const float* bias, __global float* y, int m, int n) {
  const int i = get_global_id(0);
  if (i < m * n) y[i] = x[i] + bias[i % n];
}

// bias_add_bwd, pass 1: d_x = d_y, one work-item per element.
__kernel void bias_add_backward_data(__global const float* d_y, __global float* d_x, __global float* d_bias, int m, int n) {
  const int i = get_global_id(0);
  if (i < m * n) d_x[i] = d_y[i];
}

// bias_add_bwd, pass 2: d_bias = column sums, one work-item per column (coalesced across columns).
__kernel void bias_add_backward_bias(__global const float* d_y, __global float* d_x, __global float* d_bias, int m, int n) {
  const int j = get_global_id(0);
  if (j >= n) return;
  float s = 0.0f;
  for (int i = 0; i < m; ++i) s += d_y[i * n + j];
  d_bias[j] = s;
}
