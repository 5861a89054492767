// bug: the loss summed over the batch, not averaged
// op: cross_entropy
// entries: ce_sum
#include "softmax.cl"
__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void ce_sum(__global const float* logits, __global const float* target, __global float* loss, int b, int c, int labels) {
  __local float part[ROW_WG];
  float total = 0.0f;
  for (long i = 0; i < b; ++i) {
    float mx, sum;
    row_max_sum(logits + i * c, c, part, &mx, &sum);
    const float lse = log(sum);
    float mine = 0.0f;
    for (int j = get_local_id(0); j < c; j += ROW_WG) {
      const float t = target_weight(target, labels, c, i, j);
      if (t != 0.0f) mine -= t * ((logits[i * c + j] - mx) - lse);
    }
    total += workgroup_sum(mine, part);
  }
  if (get_local_id(0) == 0) loss[0] = total;
}
