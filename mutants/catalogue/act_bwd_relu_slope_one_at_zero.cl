// bug: relu'(0) taken as 1 (x >= 0) where the convention is 0
// op: act_bwd
// entries: relu_kink
#include "activation.h"
__kernel void relu_kink(__global const float* x, __global const float* d_y, __global float* d_x, int n, int act) {
  const int i = get_global_id(0);
  if (i < n) d_x[i] = act == 1 ? (x[i] >= 0.0f ? d_y[i] : d_y[i] * 0.0f) : d_y[i] * act_slope(act, x[i]);
}
