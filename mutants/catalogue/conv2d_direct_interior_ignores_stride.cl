// bug: a CPU-shaped direct convolution whose test-free path is chosen by the span of PX neighbouring taps, as at stride 1: at stride 2 and more its last pixels read past the row (the next row's values, or past the tensor)
// op: conv2d
// plan: conv2d_direct_interior_ignores_stride.plan
// Our `direct` forward (conv_direct.cl: weight pack and tile) with one line changed: the test that
// lets a work-item's PX pixels skip their bounds tests ignores the stride.
#include "storage.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define floatK CAT(float, KV)
#define vloadK CAT(vload, KV)
#define vstoreK CAT(vstore, KV)

// Weights [cout][cin/g][r*s] (forward: cout = k; `data`: the weight tensor read as [k][c/g][r*s] with
// the channels swapped, cout = c) packed as [g][cin/g][r*s][coutp].
void pack(__global const real_t* w, __global float* wp, int k, int c, int g, int rs, int data) {
  const long i = get_global_id(0);
  const int kg = k / g, cg = c / g;
  const int cout_g = data ? cg : kg, cin_g = data ? kg : cg, coutp = (cout_g + KV - 1) / KV * KV;
  if (i >= (long)g * cin_g * rs * coutp) return;
  const int o = i % coutp, tap = (i / coutp) % rs;
  const long gin = i / coutp / rs;  // group * cin_g + input channel
  const int in = gin % cin_g, gi = gin / cin_g;
  const long src = data ? ((long)(gi * kg + in) * cg + o) * rs + tap : ((long)(gi * kg + o) * cg + in) * rs + tap;
  wp[i] = o < cout_g ? LD(w, src) : 0.0f;
}

__kernel void conv2d_direct_pack(__global const real_t* w, __global float* wp, int k, int c, int g, int rs) { pack(w, wp, k, c, g, rs, 0); }
__kernel void conv2d_direct_pack_data(__global const real_t* w, __global float* wp, int k, int c, int g, int rs) { pack(w, wp, k, c, g, rs, 1); }

// Global (roundup(cdiv(cdiv(wo, div_w), PX), LQ), cdiv(ho, div_h), nimg * g * cdiv(cout/g, KV) * div_h * div_w).
void direct_tile(__global const real_t* in, __global const float* wp, __global const real_t* bias, __global real_t* out, int nimg,
                 int cin, int hi, int wi, int cout, int g, int ho, int wo, int r, int s, int st_h, int st_w, int off_h, int off_w,
                 int step_h, int step_w, int div_h, int div_w) {
  const int cin_g = cin / g, cout_g = cout / g, coutp = (cout_g + KV - 1) / KV * KV, blocks = coutp / KV;
  const int x0 = get_global_id(0) * PX, y = get_global_id(1), phases = div_h * div_w;
  const int a = get_global_id(2) % phases / div_w, b = get_global_id(2) % phases % div_w, z = get_global_id(2) / phases;
  const int ob = z % blocks, gi = (z / blocks) % g, img = z / blocks / g;
  const int rows = (ho - a + div_h - 1) / div_h, cols = (wo - b + div_w - 1) / div_w;  // the phase's pixels
  if (x0 >= cols || y >= rows) return;  // the work-group's last work-items past the row, or a short phase
  __global const real_t* src = in + ((long)img * cin + (long)gi * cin_g) * hi * wi;
  __global const float* wsrc = wp + (long)gi * cin_g * r * s * coutp + ob * KV;
  floatK acc[PX];
  for (int l = 0; l < PX; ++l) acc[l] = (floatK)0.0f;
  for (int ci = 0; ci < cin_g; ++ci)
    for (int rr = 0; rr < r; ++rr) {
      const int th = off_h + a + rr * step_h;
      if (div_h > 1 && th % div_h != 0) continue;  // a row of taps this phase does not meet (no division at stride 1)
      const int iy = y * st_h + (div_h == 1 ? th : th / div_h);
      if (iy < 0 || iy >= hi) continue;  // a row of taps in the padding
      __global const real_t* row = src + ((long)ci * hi + iy) * wi;
      __global const float* wrow = wsrc + (long)(ci * r + rr) * s * coutp;
      for (int ss = 0; ss < s; ++ss) {
        const int tw = off_w + b + ss * step_w;
        if (div_w > 1 && tw % div_w != 0) continue;
        const int ix0 = x0 * st_w + (div_w == 1 ? tw : tw / div_w);
        const floatK wv = vloadK(0, wrow + ss * coutp);
        if (ix0 >= 0 && ix0 + (PX - 1) < wi) {  // BUG: the span of PX neighbouring taps, as at stride 1
#pragma unroll
          for (int l = 0; l < PX; ++l) acc[l] = mad((floatK)LD(row, ix0 + l * st_w), wv, acc[l]);
        } else {
#pragma unroll
          for (int l = 0; l < PX; ++l) {
            const int ix = ix0 + l * st_w;
            if (ix >= 0 && ix < wi) acc[l] = mad((floatK)LD(row, ix), wv, acc[l]);
          }
        }
      }
    }
  const int kmax = min(KV, cout_g - ob * KV), lmax = min(PX, cols - x0);
  __global real_t* dst = out + (((long)img * cout + gi * cout_g + ob * KV) * ho + a + y * div_h) * wo + b + x0 * div_w;
  for (int l = 0; l < lmax; ++l) {
    float v[KV];
    vstoreK(acc[l], 0, v);
    for (int kk = 0; kk < kmax; ++kk)
      ST(dst, (long)kk * ho * wo + l * div_w, bias ? v[kk] + LD(bias, gi * cout_g + ob * KV + kk) : v[kk]);
  }
}

__kernel void conv2d_direct(__global const real_t* x, __global const float* wp, __global real_t* y, int n, int c, int h, int w, int k,
                            int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q) {
  direct_tile(x, wp, 0, y, n, c, h, w, k, g, p, q, r, s, sh, sw, -ph, -pw, dh, dw, 1, 1);
}

