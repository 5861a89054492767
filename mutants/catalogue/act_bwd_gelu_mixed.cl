// bug: the forward and backward use different GELU formulas (tanh forward, erf derivative)
// op: act_bwd
// entries: mixed_backward
// Planted bug (a training framework's GELU): the forward uses the tanh form, the backward the derivative
// of the erf form. The two differ by up to ~4e-3 in the derivative.
#include "activation.h"

__kernel void mixed_backward(__global const float* x, __global const float* d_y, __global float* d_x, int n, int act) {
  const int i = get_global_id(0);
  if (i < n) d_x[i] = d_y[i] * act_slope(act == 2 ? 3 : act, x[i]);
}
