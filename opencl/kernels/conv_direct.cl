// Convolutions shaped for CPUs (the `direct` variants of conv.plan, `devices cpu`): a work-item holds
// PX neighbouring output pixels of one row for KV output channels, as PX vectors of KV channels. Each
// tap then costs one vector load of KV packed weights and PX scalar loads of the input, each broadcast
// into one vector FMA: on a CPU that is the register-blocked micro-kernel of a BLAS (PoCL compiles a
// float16 to one AVX-512 register). A GPU wants the opposite (neighbouring work-items on neighbouring
// pixels), which the igemm variants have.
//
// The weights are packed first (a step of the plan) as [g][cin/g][r*s][roundup(cout/g, KV)], zero past
// cout/g, so the KV channels of a tap are one vector. Taps in the padding are skipped, not multiplied
// as zeros: each output is a sum of exactly the convolution's terms (0 * Inf would be a NaN the
// convolution does not have), taps in (input channel, r, s) order, in float.
//
// Forward and backward data share the tile. Backward data is a correlation of d_y with the weights read
// the other way, split by output phase as igemm's is: the d_x pixels (a + i*sh, b + j*sw) of phase
// (a, b) meet the same taps, those with (a + ph - r*dh) % sh == 0 (and likewise s), at d_y pixel
// (i + (a + ph - r*dh) / sh, j + (b + pw - s*dw) / sw): a dense correlation per phase, no pixel tests
// a tap it does not meet. In general the tile's output pixel (a + i*div_h, b + j*div_w) reads, for
// tap (r, s) with t_h = off_h + a + r*step_h divisible by div_h (and likewise t_w), input pixel
// (i*st_h + t_h / div_h, j*st_w + t_w / div_w). The forward has one phase: div = 1, a = b = 0.
#include "storage.h"

#ifndef KV  // the plan (conv.plan) defines these; the defaults serve a build without it
#define KV 16
#endif
#ifndef PX
#define PX 14
#endif
#ifndef TB
#define TB 3
#endif
#ifndef CB
#define CB 4
#endif
#ifndef PACK_PIXELS
#define PACK_PIXELS 16
#endif

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
        if (ix0 >= 0 && ix0 + (PX - 1) * st_w < wi) {  // every pixel's tap inside the row
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

__kernel void conv2d_direct_bias(__global const real_t* x, __global const float* wp, __global const real_t* bias, __global real_t* y,
                                 int n, int c, int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g,
                                 int p, int q) {
  direct_tile(x, wp, bias, y, n, c, h, w, k, g, p, q, r, s, sh, sw, -ph, -pw, dh, dw, 1, 1);
}

// Backward data: d_x[y][x] = the sum over k, r, s with y + ph - r*dh = sh * i and x + pw - s*dw = sw * j
// of d_y[i][j] * w[k][c][r][s], one phase of (y mod sh, x mod sw) at a time.
__kernel void conv2d_direct_data(__global const float* wp, __global const real_t* d_y, __global real_t* d_x, int n, int c, int h, int w,
                                 int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q) {
  direct_tile(d_y, wp, 0, d_x, n, k, p, q, c, g, h, w, r, s, 1, 1, ph, pw, -dh, -dw, sh, sw);
}

// ---- backward weight ---------------------------------------------------------------------------------
// d_w[k][c][r][s] = sum over images and output pixels of d_y[k][y][x] * x[c][y*sh - ph + r*dh][x*sw - pw + s*dw].
// d_y is packed first as [n][g][p*q][roundup(k/g, KV)] (zero past k/g), so that KV output channels of a
// pixel are one vector; a work-item then holds TB taps of CB input channels for KV output channels,
// CB * TB vectors, and walks every pixel of every image in order: one vector load and CB * TB
// broadcast loads per pixel, and the same order of terms on every run (no split, no atomics).
// A transpose: a work-item reads PACK_PIXELS pixels of each channel of an (image, group) in a row (its
// reads contiguous) and writes them as PACK_PIXELS rows of channels (a few KB, in cache until whole).
// Global (cdiv(p*q, PACK_PIXELS), n * g).
__kernel void conv2d_direct_pack_d_y(__global const real_t* d_y, __global float* dyt, int n, int k, int g, int pq) {
  const int kg = k / g, kgp = (kg + KV - 1) / KV * KV, pix0 = get_global_id(0) * PACK_PIXELS;
  const long ig = get_global_id(1);  // image * g + group
  if (pix0 >= pq) return;
  const int count = min(PACK_PIXELS, pq - pix0);
  __global const real_t* src = d_y + ((ig / g) * k + (ig % g) * kg) * (long)pq + pix0;
  __global float* dst = dyt + (ig * pq + pix0) * kgp;
  for (int o = 0; o < kgp; ++o)
    for (int j = 0; j < count; ++j) dst[(long)j * kgp + o] = o < kg ? LD(src, (long)o * pq + j) : 0.0f;
}

// Global (cdiv(r*s, TB), cdiv(c/g, CB), g * cdiv(k/g, KV)).
__kernel void conv2d_direct_weight(__global const real_t* x, __global const float* dyt, __global real_t* d_w, int n, int c, int h, int w,
                                   int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q) {
  const int kg = k / g, cg = c / g, kgp = (kg + KV - 1) / KV * KV, blocks = kgp / KV, rs = r * s;
  const int t0 = get_global_id(0) * TB, c0 = get_global_id(1) * CB, kb = get_global_id(2) % blocks, gi = get_global_id(2) / blocks;
  if (t0 >= rs || c0 >= cg) return;
  long chan[CB];  // each channel's plane from the first's; channels past the last repeat it, unstored
#pragma unroll
  for (int cb = 0; cb < CB; ++cb) chan[cb] = (long)(min(c0 + cb, cg - 1) - c0) * h * w;
  int tr[TB], ts[TB], off[TB];  // each tap's row and column in the window, and its offset from the corner
  int rmin = r, rmax = 0, smin = s, smax = 0;
#pragma unroll
  for (int t = 0; t < TB; ++t) {
    const int tap = min(t0 + t, rs - 1);  // taps past the last repeat it, unstored
    tr[t] = tap / s * dh;
    ts[t] = tap % s * dw;
    off[t] = tr[t] * w + ts[t];
    rmin = min(rmin, tr[t]), rmax = max(rmax, tr[t]), smin = min(smin, ts[t]), smax = max(smax, ts[t]);
  }
  // The output columns whose window holds every tap of this work-item inside the row: [qlo, qhi).
  const int last = w - 1 + pw - smax;  // the last column whose window's right tap is inside: last / sw
  const int qlo = min(q, max(0, (pw - smin + sw - 1) / sw)), qhi = last < 0 ? qlo : max(qlo, min(q, last / sw + 1));
  floatK acc[CB][TB];
  for (int cb = 0; cb < CB; ++cb)
    for (int t = 0; t < TB; ++t) acc[cb][t] = (floatK)0.0f;
  for (int img = 0; img < n; ++img) {
    __global const real_t* plane = x + ((long)img * c + gi * cg + c0) * h * w;
    __global const float* dyp = dyt + ((long)img * g + gi) * p * q * kgp + kb * KV;
    for (int y = 0; y < p; ++y) {
      const int y0 = y * sh - ph;
      // Columns [lo, hi) hold every tap inside the image: no tests there. The rest test each tap.
      const bool rows_inside = y0 + rmin >= 0 && y0 + rmax < h;
      const int lo = rows_inside ? qlo : q, hi = rows_inside ? qhi : q;
      __global const float* dyr = dyp + (long)y * q * kgp;
      for (int xo = 0; xo < q; ++xo) {
        if (xo == lo) {  // the inner columns, once per row
          __global const real_t* corner = plane + (long)y0 * w + xo * sw - pw;
          for (; xo < hi; ++xo, corner += sw) {
            const floatK d = vloadK(0, dyr + (long)xo * kgp);
#pragma unroll
            for (int cb = 0; cb < CB; ++cb)
#pragma unroll
              for (int t = 0; t < TB; ++t) acc[cb][t] = mad((floatK)LD(corner + chan[cb], off[t]), d, acc[cb][t]);
          }
          if (xo == q) break;
        }
        const int x0 = xo * sw - pw;
        const floatK d = vloadK(0, dyr + (long)xo * kgp);
#pragma unroll
        for (int t = 0; t < TB; ++t) {
          const int iy = y0 + tr[t], ix = x0 + ts[t];
          if (iy >= 0 && iy < h && ix >= 0 && ix < w)
#pragma unroll
            for (int cb = 0; cb < CB; ++cb) acc[cb][t] = mad((floatK)LD(plane + chan[cb], (long)iy * w + ix), d, acc[cb][t]);
        }
      }
    }
  }
  const int kmax = min(KV, kg - kb * KV), tmax = min(TB, rs - t0), cmax = min(CB, cg - c0);
  for (int cb = 0; cb < cmax; ++cb)
    for (int t = 0; t < tmax; ++t) {
      float v[KV];
      vstoreK(acc[cb][t], 0, v);
      for (int kk = 0; kk < kmax; ++kk) ST(d_w, ((long)(gi * kg + kb * KV + kk) * cg + c0 + cb) * rs + t0 + t, v[kk]);
    }
}

// d_bias[k] = the sum of d_y over images and pixels, KV channels a work-item from the packed d_y, in
// order. Global g * cdiv(k/g, KV).
__kernel void conv2d_direct_bias_grad(__global const float* dyt, __global real_t* d_bias, int n, int k, int g, int pq) {
  const int kg = k / g, kgp = (kg + KV - 1) / KV * KV, blocks = kgp / KV;
  const int kb = get_global_id(0) % blocks, gi = get_global_id(0) / blocks;
  if (gi >= g) return;
  floatK acc = (floatK)0.0f;
  for (int img = 0; img < n; ++img) {
    __global const float* dyp = dyt + ((long)img * g + gi) * pq * kgp + kb * KV;
    for (int pix = 0; pix < pq; ++pix) acc += vloadK(0, dyp + (long)pix * kgp);
  }
  float v[KV];
  vstoreK(acc, 0, v);
  for (int kk = 0; kk < min(KV, kg - kb * KV); ++kk) ST(d_bias, gi * kg + kb * KV + kk, v[kk]);
}
