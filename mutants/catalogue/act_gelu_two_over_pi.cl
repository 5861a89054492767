// bug: gelu_tanh with 2/pi where sqrt(2/pi) belongs (a constant typed wrong)
// op: act
// entries: gelu_typo
#include "activation.h"
// act = 2 is gelu_tanh; every other activation is ours.
__kernel void gelu_typo(__global const float* x, __global float* y, int n, int act) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const float v = x[i];
  y[i] = act == 2 ? 0.5f * v * (1.0f + tanh_limits(0.63661977f * (v + 0.044715f * v * v * v))) : act_value(act, v);
}
