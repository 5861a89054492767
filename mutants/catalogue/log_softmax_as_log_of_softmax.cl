// bug: log_softmax as log(softmax(x)): underflow gives -Inf where the value is finite
// op: log_softmax
// entries: log_of_softmax
#include "softmax.cl"
__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void log_of_softmax(__global const float* x, __global float* y, int m, int n) {
  __local float part[ROW_WG];
  const long row = get_group_id(0);
  float mx, sum;
  row_max_sum(x + row * n, n, part, &mx, &sum);
  for (int j = get_local_id(0); j < n; j += ROW_WG) y[row * n + j] = log(exp(x[row * n + j] - mx) / sum);
}
