// GEMM kernels. ABI (docs/kernel-abi.md): inputs, outputs, then every attribute.
#define TILE 16

// matmul: y[b] = op(a[b]) @ op(b[b]). One 16x16 work-group per 16x16 tile of y; the reduction walks
// k in 16-wide slabs staged in local memory. Padding cells of a slab are 0 on both sides, so they add
// 0 * 0 (never 0 * Inf). Global size: (ceil(n/16)*16, ceil(m/16)*16, max(batch, 1)).
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void matmul(__global const float* a, __global const float* b, __global float* y,
            int batch, int m, int k, int n, int ta, int tb) {
  __local float a_tile[TILE][TILE], b_tile[TILE][TILE];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int col = get_group_id(0) * TILE + lx, row = get_group_id(1) * TILE + ly, bi = get_group_id(2);
  const long a_off = (long)bi * m * k, b_off = (long)bi * k * n;
  float acc = 0.0f;
  for (int t = 0; t < k; t += TILE) {
    const int ak = t + lx, bk = t + ly;
    a_tile[ly][lx] = (row < m && ak < k) ? (ta ? a[a_off + (long)ak * m + row] : a[a_off + (long)row * k + ak]) : 0.0f;
    b_tile[ly][lx] = (bk < k && col < n) ? (tb ? b[b_off + (long)col * k + bk] : b[b_off + (long)bk * n + col]) : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int q = 0; q < TILE; ++q) acc += a_tile[ly][q] * b_tile[q][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < m && col < n) y[(long)bi * m * n + (long)row * n + col] = acc;
}
