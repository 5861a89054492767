// bug: the loss gradient not scaled by d_loss (assumed 1)
// op: cross_entropy_bwd
// entries: ce_bwd_no_dloss
#include "softmax.cl"
__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void ce_bwd_no_dloss(__global const float* logits, __global const float* target, __global const float* d_loss,
                     __global float* d_logits, int b, int c, int labels) {
  __local float part[ROW_WG];
  const long i = get_group_id(0);
  float mx, sum;
  row_max_sum(logits + i * c, c, part, &mx, &sum);
  float mine = 0.0f;
  for (int j = get_local_id(0); j < c; j += ROW_WG) mine += target_weight(target, labels, c, i, j);
  const float weights = workgroup_sum(mine, part);
  for (int j = get_local_id(0); j < c; j += ROW_WG)
    d_logits[i * c + j] = (exp(logits[i * c + j] - mx) / sum * weights - target_weight(target, labels, c, i, j)) / (float)b;
}
