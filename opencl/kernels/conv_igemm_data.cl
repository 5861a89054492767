// conv2d backward data as an implicit GEMM on the tuned GEMM core (xgemm.h), split by phase. With
// stride sh x sw, the input pixels (h, w) of one phase (ah, aw) = (h mod sh, w mod sw) all meet the
// same taps: those with (ah + ph - r*dh) divisible by sh (likewise along w). So each phase is a dense
// GEMM over exactly the taps that reach it, instead of every pixel testing every tap. Per image, group
// and phase:
//   d_x[c', pixel] = W~[c', (k', r', s')] @ DY~[(k', r', s'), pixel]
// M = c/g channels, N = the phase's pixels, K = k/g * the phase's taps. W~ is the weight of tap (r, s)
// of filter k' for channel c'; DY~ is d_y at p = (h + ph - r*dh) / sh, q likewise (0 outside d_y).
// A stride-1 convolution is one phase: the flipped-kernel convolution as one GEMM.
// Global size (cdiv(cdiv(h, sh) * cdiv(w, sw), NWG) * NDIMC, cdiv(c/g, MWG) * MDIMC, n * g * sh * sw).
#include "conv_igemm_nan.h"

struct Phase {  // one phase of one image and group
  int cg, kg, h, w, r, s, p, q, sh, sw, ph, pw, dh, dw;
  int ah, aw;         // its pixels: rows ah, ah + sh, ...; columns aw, aw + sw, ...
  int wq;             // its pixels per row
  int r0, rstep, nr;  // its taps along r: r0, r0 + rstep, ... (nr of them)
  int s0, sstep, ns;
};
struct Gather;  // below: the gathers' state, sized by the core's loads per slab
#define XGEMM_PARAMS , struct Gather* gs
#define XGEMM_SLAB_A(k0, ra) phase_slab_a(a, gs, k0, m, k, ra)
#define XGEMM_SLAB_B(k0, rb) phase_slab_b(b, gs, k0, n, k, rb)
void phase_slab_a(__global const real_t* wt, struct Gather* gs, int k0, int m, int k, float4* r);
void phase_slab_b(__global const real_t* d_y, struct Gather* gs, int k0, int n, int k, float4* r);
#include "xgemm.h"

// The taps t of one axis that reach the inputs a, a + st, a + 2 st, ...: those with (a + pd - t*dl) a
// multiple of st. They form the progression t0, t0 + step, ... with step = st / gcd(st, dl).
void phase_taps(int a, int taps, int st, int pd, int dl, int* t0, int* step, int* count) {
  int x = st, y = dl;
  while (y) {
    const int t = x % y;
    x = y;
    y = t;
  }
  *step = st / x;
  *t0 = -1;
  for (int t = 0; t < min(*step, taps); ++t)
    if ((a + pd - t * dl) % st == 0) {  // C's remainder of a negative multiple is 0 too
      *t0 = t;
      break;
    }
  *count = *t0 < 0 ? 0 : (taps - *t0 + *step - 1) / *step;
}

// A depth of the phase's GEMM: e = (kl * nr + a) * ns + b is filter kl's tap (r0 + a rstep, s0 + b sstep).
struct Tap {
  int kl, a, b;
};

// Where tap (ri, si) of phase pixel (hh, ww) meets d_y: at (hh + off.x, ww + off.y). The phase's taps
// make (ah + ph - ri*dh) a multiple of sh, so p = (ah + hh*sh + ph - ri*dh) / sh = hh + off.x exactly.
int2 phase_offset(struct Phase f, int ri, int si) {
  const int hoff = f.ah + f.ph - ri * f.dh, woff = f.aw + f.pw - si * f.dw;
  return f.sh == 1 && f.sw == 1 ? (int2)(hoff, woff) : (int2)(hoff / f.sh, woff / f.sw);  // no division at stride 1
}

// The input pixel (row, column) of the phase's pixel j.
int2 phase_pixel(struct Phase f, int j) { return (int2)(f.ah + (j / f.wq) * f.sh, f.aw + (j % f.wq) * f.sw); }

// The gathers' state: the core asks for the slabs in depth order, KWG apart, so each load's tap is
// stepped from the last slab's (KWG depths = dk filters + da tap rows + db tap columns) instead of
// divided out of its depth again (divisions cost as much as the FMAs in these gathers).
struct Gather {
  struct Phase f;
  int k0;                   // the slab depth the taps below are at
  int dk, da, db;           // KWG depths in filters, tap rows, tap columns
  int2 off0, off_step;      // phase_offset of tap (r0, s0), and its change per tap row and column
  int a_i[A_LOADS];         // W~: load l's first channel
  struct Tap a_tap[A_LOADS];
  int b_j[B_LOADS], b_hh[B_LOADS], b_ww[B_LOADS];  // DY~: load l's first pixel (and its row, column)
  struct Tap b_tap[B_LOADS];
};

struct Tap tap_at(struct Phase f, int e) {
  const int taps = f.nr * f.ns, t = e % taps;
  return (struct Tap){e / taps, t / f.ns, t % f.ns};
}

void step_tap(const struct Gather* gs, struct Tap* t) {
  t->b += gs->db;
  if (t->b >= gs->f.ns) t->b -= gs->f.ns, ++t->a;
  t->a += gs->da;
  if (t->a >= gs->f.nr) t->a -= gs->f.nr, ++t->kl;
  t->kl += gs->dk;
}

// This work-item's loads at depth 0: the only divisions (a phase without taps has no depth: the core
// never asks it for a slab).
void gather_start(struct Gather* gs, int m0, int n0) {
  const struct Phase f = gs->f;
  const int lid = get_local_id(1) * NDIMC + get_local_id(0), taps = f.nr * f.ns;
  gs->k0 = 0;
  if (taps == 0) return;
  gs->dk = KWG / taps;
  gs->da = (KWG % taps) / f.ns;
  gs->db = (KWG % taps) % f.ns;
  gs->off0 = phase_offset(f, f.r0, f.s0);
  gs->off_step = (int2)(f.rstep * f.dh / f.sh, f.sstep * f.dw / f.sw);  // rstep * dh is a multiple of sh
  _Pragma("unroll") for (int l = 0; l < A_LOADS; ++l) {
    const int idx = lid + l * WGS;
    gs->a_i[l] = m0 + 4 * (idx % (MWG / 4));
    gs->a_tap[l] = tap_at(f, idx / (MWG / 4));
  }
  _Pragma("unroll") for (int l = 0; l < B_LOADS; ++l) {
    const int idx = lid + l * WGS, j = n0 + 4 * (idx % (NWG / 4));
    gs->b_j[l] = j;
    gs->b_hh[l] = j / f.wq;
    gs->b_ww[l] = j % f.wq;
    gs->b_tap[l] = tap_at(f, idx / (NWG / 4));
  }
}

// The slab of W~ at depth k0, laid out as slab_a lays out a [K][M] operand (ta = 1): depth rows of four
// channels (neighbouring channels of one tap are r*s apart in w). It runs before phase_slab_b for the
// same k0, which moves gs->k0 on.
void phase_slab_a(__global const real_t* wt, struct Gather* gs, int k0, int m, int k, float4* r) {
  const struct Phase f = gs->f;
  const int lid = get_local_id(1) * NDIMC + get_local_id(0);
  _Pragma("unroll") for (int l = 0; l < A_LOADS; ++l) {
    if (k0 != gs->k0) step_tap(gs, &gs->a_tap[l]);
    const int e = k0 + (lid + l * WGS) / (MWG / 4), i = gs->a_i[l];
    const struct Tap t = gs->a_tap[l];
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (e < k) {
      __global const real_t* tap = wt + ((long)t.kl * f.cg * f.r + f.r0 + t.a * f.rstep) * f.s + f.s0 + t.b * f.sstep;  // channel 0's
      for (int d = 0; d < 4; ++d)
        if (i + d < m) v[d] = LD(tap, (long)(i + d) * f.r * f.s);
    }
    r[l] = (float4)(v[0], v[1], v[2], v[3]);
  }
}

// The slab of DY~ at depth k0, laid out as slab_b lays out a [K][N] operand (tb = 0): depth rows of four
// pixels. 0 where the tap's d_y position falls outside d_y.
void phase_slab_b(__global const real_t* d_y, struct Gather* gs, int k0, int n, int k, float4* r) {
  const struct Phase f = gs->f;
  const int lid = get_local_id(1) * NDIMC + get_local_id(0);
  _Pragma("unroll") for (int l = 0; l < B_LOADS; ++l) {
    if (k0 != gs->k0) step_tap(gs, &gs->b_tap[l]);
    const int e = k0 + (lid + l * WGS) / (NWG / 4), j = gs->b_j[l];
    const struct Tap t = gs->b_tap[l];
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (e < k && j < n) {
      const int2 off = gs->off0 - (int2)(t.a, t.b) * gs->off_step;
      __global const real_t* plane = d_y + (long)t.kl * f.p * f.q;
      int hh = gs->b_hh[l], ww = gs->b_ww[l];  // stepped along the row: no division per pixel
      for (int d = 0; d < 4 && j + d < n; ++d) {
        const int pi = hh + off.x, qi = ww + off.y;
        if (pi >= 0 && pi < f.p && qi >= 0 && qi < f.q) v[d] = LD(plane, pi * f.q + qi);
        if (++ww == f.wq) ww = 0, ++hh;
      }
    }
    r[l] = (float4)(v[0], v[1], v[2], v[3]);
  }
  gs->k0 = k0;
}

// Phase (ah, aw) of one image and group: its pixels and its taps.
struct Phase phase_of(int c, int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q,
                      int ah, int aw) {
  struct Phase f = {c / g, k / g, h, w, r, s, p, q, sh, sw, ph, pw, dh, dw, ah, aw};
  f.wq = (w - aw + sw - 1) / sw;
  phase_taps(ah, r, sh, ph, dh, &f.r0, &f.rstep, &f.nr);
  phase_taps(aw, s, sw, pw, dw, &f.s0, &f.sstep, &f.ns);
  return f;
}

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void conv2d_igemm_data(__global const real_t* wt, __global const real_t* d_y, __global real_t* d_x, int c, int h, int w, int k,
                       int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q) {
  XGEMM_LOCALS
  const int phases = sh * sw, image = z / (g * phases), group = (z / phases) % g, phase = z % phases;
  const struct Phase f = phase_of(c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, p, q, phase / sw, phase % sw);
  const int pixels = (h - f.ah + sh - 1) / sh * f.wq, depth = f.kg * f.nr * f.ns;
  if (get_group_id(0) * NWG >= pixels) return;  // past a smaller phase's pixels (whole work-group)
  __global const real_t* wg = wt + (long)group * f.kg * f.cg * r * s;
  __global const real_t* dyg = d_y + ((long)image * k + group * f.kg) * p * q;
  struct Gather gs;
  gs.f = f;
  gather_start(&gs, get_group_id(1) * MWG, get_group_id(0) * NWG);
  xgemm_accumulate(f.cg, pixels, depth, wg, 0, 1, dyg, 0, 0, As, Bs, acc, &gs);
  __global real_t* dxg = d_x + ((long)image * c + group * f.cg) * h * w;
#define AS_IS(v, row, col) (v)
  if (phases == 1) {  // the phase's pixels are d_x's: the core's vector stores
    STORE_TILE(dxg, h * w, f.cg, h * w, AS_IS)
  } else {  // every sh-th row, sw-th column
    _Pragma("unroll") for (int i = 0; i < MWI; ++i) {
      const int row = row_of(i);
      if (row >= f.cg) continue;
      _Pragma("unroll") for (int jj = 0; jj < NWI; ++jj) {
        const int col = col_of(jj);
        if (col >= pixels) continue;
        const int2 px = phase_pixel(f, col);
        ST(dxg, ((long)row * h + px.x) * w + px.y, acc[i * NWI + jj]);
      }
    }
  }
}

// The second step: each NaN of d_x summed again directly (data_direct, conv_igemm_nan.h), one work-item
// per element. The GEMM multiplies the taps that fall outside d_y as zeros, which turns an Inf or NaN
// weight there into NaN where the true gradient is finite: such outputs are rare, and one call site (not
// one per accumulator) keeps the build small.
__kernel void conv2d_igemm_data_nan(__global const real_t* wt, __global const real_t* d_y, __global real_t* d_x, int n, int c, int h,
                                    int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q) {
  const long o = get_global_id(0);
  if (o < (long)n * c * h * w && isnan(LD(d_x, o))) ST(d_x, o, data_direct(wt, d_y, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, p, q, o));
}
