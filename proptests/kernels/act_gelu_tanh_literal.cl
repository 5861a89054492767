// gelu_tanh as its formula reads, 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), evaluated in IEEE
// arithmetic: at x = -Inf it is -Inf x 0 = NaN, where the reference takes the limit -0. cli_test checks
// that `--nonfinite ieee` passes it and the default policy fails it naming the rule.
// tanh with OpenCL's exact limits: PoCL 3.1's tanh(-Inf) is -0.99999994, which would make -Inf of
// 0.5 x (1 + tanh) where IEEE arithmetic with OpenCL's tanh gives NaN.
float tanh_exact_limits(float z) { return isinf(z) ? copysign(1.0f, z) : tanh(z); }

__kernel void gelu_tanh_literal(__global const float* x, __global float* y, int n, int act) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const float v = x[i];
  y[i] = 0.5f * v * (1.0f + tanh_exact_limits(0.7978845608f * (v + 0.044715f * v * v * v)));
}
