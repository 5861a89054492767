// bug: d_gamma summed as d_y alone, without the normalized input (d_gamma = d_beta)
// op: layer_norm_bwd
// entries: layer_norm_stats,layer_norm_backward_data,params_no_xhat
#include "norms.cl"
__kernel void params_no_xhat(__global const float* x, __global const float* gamma, __global const float* d_y, __global float* d_x,
                             __global float* d_gamma, __global float* d_beta, __global float* stats, int m, int n, float eps) {
  const int j = get_global_id(0);
  if (j >= n) return;
  float dg = 0.0f, db = 0.0f;
  for (int i = 0; i < m; ++i) dg += d_y[(long)i * n + j], db += d_y[(long)i * n + j];
  d_gamma[j] = dg;
  d_beta[j] = db;
}
