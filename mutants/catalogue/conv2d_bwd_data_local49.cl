// bug: a local-memory array of 49 weights, too small for kernels over 7x7
// op: conv2d_bwd_data
// entries: dgrad49
// Planted bug (seed 000, meganeura's conv2d backward-data): the weights of one filter are staged in a
// local array of 49 floats, "up to 7x7 (practically <= 3x3)". Larger kernels lose every tap past the
// 49th. Otherwise the seed's algorithm: full convolution, 16x16 work-groups over (w, h), z = n*c.
int out_size(int in, int k, int s, int p, int d) { return (in + 2 * p - d * (k - 1) - 1) / s + 1; }

__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void dgrad49(__global const float* wt, __global const float* d_y, __global float* d_x, int n, int c, int h, int w,
             int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int bias) {
  __local float wl[49];
  const int iw = get_global_id(0), ih = get_global_id(1), nc = get_global_id(2);
  const int ni = nc / c, ci = nc % c, cg = c / g, kg = k / g, group = ci / cg, cl = ci % cg;
  const int p = out_size(h, r, sh, ph, dh), q = out_size(w, s, sw, pw, dw);
  const int tid = get_local_id(1) * 16 + get_local_id(0), taps = r * s;
  float acc = 0.0f;
  for (int kl = 0; kl < kg; ++kl) {
    const int ki = group * kg + kl;
    if (tid < 49 && tid < taps) wl[tid] = wt[((long)ki * cg + cl) * taps + tid];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (iw < w && ih < h)
      for (int t = 0; t < min(taps, 49); ++t) {
        const int a = t / s, b = t % s, hoff = ih + ph - a * dh, woff = iw + pw - b * dw;
        if (hoff < 0 || woff < 0 || hoff % sh || woff % sw) continue;
        const int oh = hoff / sh, ow = woff / sw;
        if (oh < p && ow < q) acc += d_y[(((long)ni * k + ki) * p + oh) * q + ow] * wl[t];
      }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (iw < w && ih < h) d_x[(((long)ni * c + ci) * h + ih) * w + iw] = acc;
}
