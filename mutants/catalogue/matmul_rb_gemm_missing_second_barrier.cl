// bug: a tiled GEMM without the barrier after a tile's products: fast work-items load the next tile over the one slower work-items still read
// op: matmul
// plan: matmul_rb_gemm_missing_second_barrier.plan
// sanitize: race
// examples/kernels/rb_gemm.cl with its second barrier removed. It passes every random case on PoCL (a
// work-group's work-items run region by region there) and on a GPU until the tiles are many
// (matmul:m=2048,k=1024,n=2048 on an H200); Oclgrind reports the race at once.
#ifndef TS
#define TS 32
#endif
#ifndef WPT
#define WPT 4
#endif
#define RTS (TS / WPT)  // work-items per tile side

__kernel void rb_gemm(int m, int n, int k, int batch, int ta, int tb, __global const float* a, __global const float* b,
                      __global float* y) {
  const int tx = get_local_id(0), ty = get_local_id(1);  // tx walks Y's columns, ty its rows
  const int col0 = get_group_id(0) * TS, row0 = get_group_id(1) * TS;
  const long bi = get_global_id(2);
  a += bi * (long)m * k;
  b += bi * (long)k * n;
  y += bi * (long)m * n;
  __local float As[TS][TS];  // As[row][e]: op(A) rows of this tile, depth slab e
  __local float Bs[TS][TS];  // Bs[e][col]
  float acc[WPT][WPT];
  for (int i = 0; i < WPT; ++i)
    for (int j = 0; j < WPT; ++j) acc[i][j] = 0.0f;
  const int tiles = (k + TS - 1) / TS;
  for (int t = 0; t < tiles; ++t) {
    // Each work-item stages WPT x WPT elements of each tile; cells past m, n or k hold 0.
    for (int i = 0; i < WPT; ++i)
      for (int j = 0; j < WPT; ++j) {
        const int r = ty + i * RTS, c = tx + j * RTS;
        const int ar = row0 + r, ae = t * TS + c;  // As[r][c] = op(A)(ar, ae)
        As[r][c] = (ar < m && ae < k) ? (ta ? a[(long)ae * m + ar] : a[(long)ar * k + ae]) : 0.0f;
        const int be = t * TS + r, bc = col0 + c;  // Bs[r][c] = op(B)(be, bc)
        Bs[r][c] = (be < k && bc < n) ? (tb ? b[(long)bc * k + be] : b[(long)be * n + bc]) : 0.0f;
      }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = 0; e < TS; ++e) {
      float bv[WPT];
      for (int j = 0; j < WPT; ++j) bv[j] = Bs[e][tx + j * RTS];
      for (int i = 0; i < WPT; ++i) {
        const float av = As[ty + i * RTS][e];
        for (int j = 0; j < WPT; ++j) acc[i][j] += av * bv[j];
      }
    }
  }
  for (int i = 0; i < WPT; ++i)
    for (int j = 0; j < WPT; ++j) {
      const int r = row0 + ty + i * RTS, c = col0 + tx + j * RTS;
      if (r < m && c < n) y[(long)r * n + c] = acc[i][j];
    }
}
