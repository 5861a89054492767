// conv2d_bwd_weight's d_bias on the tensor-core variants' files (conv_igemm_mma.cl, conv_gemm_mma.cl).
#ifndef CONV_MMA_BIAS_GRAD_H
#define CONV_MMA_BIAS_GRAD_H
#include "storage.h"

// d_bias[kk] = the sum of d_y's plane kk over every image: one work-group of 256 a channel, each
// work-item's strided float sum, then a tree in local memory (a fixed order: the same bits every run).
// Global size 256 * k, local 256.
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void conv2d_mma_bias_grad(__global const real_t* d_y, __global real_t* d_bias, int n, int k, int pq) {
  __local float part[256];
  const int kk = get_group_id(0), lid = get_local_id(0);
  float sum = 0.0f;
  for (int image = 0; image < n; ++image) {
    __global const real_t* plane = d_y + ((long)image * k + kk) * pq;
    for (int i = lid; i < pq; i += 256) sum += LD(plane, i);
  }
  part[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int span = 128; span > 0; span /= 2) {
    if (lid < span) part[lid] += part[lid + span];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) ST(d_bias, kk, part[0]);
}

#endif  // CONV_MMA_BIAS_GRAD_H
