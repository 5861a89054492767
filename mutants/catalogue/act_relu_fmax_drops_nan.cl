// bug: relu as fmax(x, 0): a NaN input silently becomes 0
// op: act
// entries: relu_fmax
#include "activation.h"
__kernel void relu_fmax(__global const float* x, __global float* y, int n, int act) {
  const int i = get_global_id(0);
  if (i < n) y[i] = act == 1 ? fmax(x[i], 0.0f) : act_value(act, x[i]);
}
