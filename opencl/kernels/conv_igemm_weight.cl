// conv2d backward weight as an implicit GEMM on the tuned GEMM core (xgemm.h), split along its depth.
// Per group:
//   d_w[k', (c', r, s)] = DY~[k', (n, p, q)] @ X~[(n, p, q), (c', r, s)]
// M = k/g filters, N = c/g*r*s taps, K = n*p*q output positions. The depth is long and M x N small
// (ResNet-50: 64 x 576 over 100352 positions), so the depth is cut into `splits` chunks, a work-group
// column each, which write float partials to the scratch `partial`; conv2d_igemm_weight_reduce then
// sums each element's partials in chunk order: deterministic (no atomics), and rounded once.
// Global size (cdiv(c/g*r*s, NWG) * NDIMC, cdiv(k/g, MWG) * MDIMC, g * splits).
#include "storage.h"
#include "conv_igemm_nan.h"  // weight_direct: the NaN outputs summed again

struct Chunk;  // below: its gather state is sized by the core's loads per slab
#define XGEMM_PARAMS , struct Chunk* f
#define XGEMM_SLAB_A(k0, ra) chunk_slab_a(a, f, k0, k, ra)
#define XGEMM_SLAB_B(k0, rb) chunk_slab_b(b, f, k0, k, rb)
void chunk_slab_a(__global const real_t* d_y, struct Chunk* f, int k0, int k, float4* r);
void chunk_slab_b(__global const real_t* x, struct Chunk* f, int k0, int k, float4* r);
#include "xgemm.h"

// One depth chunk of one group, and where this work-item's slab loads stand in it. The core asks for
// the slabs in depth order, KWG apart, so each load's depth position (image, p, q) is stepped from the
// last slab's instead of divided out again (divisions cost as much as the FMAs in these gathers).
struct Chunk {
  int c, k, cg, kg, h, w, r, s, p, q, sh, sw, ph, pw, dh, dw;
  int group;
  int first;  // its first depth position in the whole depth (n*p*q < 2^31: the plan's when)
  int k0;     // the slab depth the positions below are at
  // A = DY~: load l reads filter row a_row[l] (-1: past m) at depth position (a_image, a_pos) onwards.
  int a_row[A_LOADS], a_image[A_LOADS], a_pos[A_LOADS];
  // B = X~: load l reads tap column (channel plane b_plane, offsets b_h, b_w; -1 plane: past n) at
  // output position (b_image, b_pi, b_qi) onwards.
  int b_plane[B_LOADS], b_h[B_LOADS], b_w[B_LOADS], b_image[B_LOADS], b_pi[B_LOADS], b_qi[B_LOADS];
};

// Moves image/position counters `step` positions on (step >= 0; a few iterations: step is KWG).
void step_position(int step, int pq, int* image, int* pos) {
  *pos += step;
  while (*pos >= pq) *pos -= pq, ++*image;
}
void step_pixel(int step, int p, int q, int* image, int* pi, int* qi) {
  *qi += step;
  while (*qi >= q) {
    *qi -= q;
    if (++*pi == p) *pi = 0, ++*image;
  }
}

// This work-item's loads at depth 0 of the chunk: the only divisions.
void chunk_start(struct Chunk* f, int m0, int n0, int m, int n) {
  const int lid = get_local_id(1) * NDIMC + get_local_id(0), pq = f->p * f->q, rs = f->r * f->s;
  f->k0 = 0;
  _Pragma("unroll") for (int l = 0; l < A_LOADS; ++l) {
    const int idx = lid + l * WGS, i = m0 + idx % MWG, at = f->first + 4 * (idx / MWG);
    f->a_row[l] = i < m ? i : -1;
    f->a_image[l] = at / pq;
    f->a_pos[l] = at % pq;
  }
  _Pragma("unroll") for (int l = 0; l < B_LOADS; ++l) {
    const int idx = lid + l * WGS, j = n0 + idx % NWG, at = f->first + 4 * (idx / NWG);
    const int cl = j / rs, a = (j / f->s) % f->r, b = j % f->s;
    f->b_plane[l] = j < n ? cl : -1;
    f->b_h[l] = a * f->dh - f->ph;
    f->b_w[l] = b * f->dw - f->pw;
    f->b_image[l] = at / pq;
    f->b_pi[l] = (at % pq) / f->q;
    f->b_qi[l] = at % f->q;
  }
}

// The slab of DY~ at depth k0, laid out as slab_a lays out an [M][K] operand (ta = 0): rows of four
// depths, which are neighbours in d_y unless they cross into the next image.
void chunk_slab_a(__global const real_t* d_y, struct Chunk* f, int k0, int k, float4* r) {
  const int lid = get_local_id(1) * NDIMC + get_local_id(0), pq = f->p * f->q;
  _Pragma("unroll") for (int l = 0; l < A_LOADS; ++l) {
    step_position(k0 - f->k0, pq, &f->a_image[l], &f->a_pos[l]);
    const int e = k0 + 4 * ((lid + l * WGS) / MWG);
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (f->a_row[l] >= 0) {
      int image = f->a_image[l], pos = f->a_pos[l];
      for (int d = 0; d < 4 && e + d < k; ++d) {
        v[d] = LD(d_y, ((long)image * f->k + f->group * f->kg + f->a_row[l]) * pq + pos);
        if (++pos == pq) pos = 0, ++image;
      }
    }
    r[l] = (float4)(v[0], v[1], v[2], v[3]);
  }
}

// The slab of X~ at depth k0, laid out as slab_b lays out an [N][K] operand (tb = 1): columns of four
// depths (four neighbouring output positions of one tap). 0 where the tap falls in the padding. It
// runs after chunk_slab_a for the same k0, which leaves f->k0 to this one.
void chunk_slab_b(__global const real_t* x, struct Chunk* f, int k0, int k, float4* r) {
  const int lid = get_local_id(1) * NDIMC + get_local_id(0);
  _Pragma("unroll") for (int l = 0; l < B_LOADS; ++l) {
    step_pixel(k0 - f->k0, f->p, f->q, &f->b_image[l], &f->b_pi[l], &f->b_qi[l]);
    const int e = k0 + 4 * ((lid + l * WGS) / NWG);
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (f->b_plane[l] >= 0) {
      int image = f->b_image[l], pi = f->b_pi[l], qi = f->b_qi[l];
      for (int d = 0; d < 4 && e + d < k; ++d) {
        const int hi = pi * f->sh + f->b_h[l], wi = qi * f->sw + f->b_w[l];
        if (hi >= 0 && hi < f->h && wi >= 0 && wi < f->w)
          v[d] = LD(x, (((long)image * f->c + f->group * f->cg + f->b_plane[l]) * f->h + hi) * f->w + wi);
        if (++qi == f->q) {
          qi = 0;
          if (++pi == f->p) pi = 0, ++image;
        }
      }
    }
    r[l] = (float4)(v[0], v[1], v[2], v[3]);
  }
  f->k0 = k0;
}

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void conv2d_igemm_weight(__global const real_t* x, __global const real_t* d_y, __global float* partial, int n, int c, int h, int w,
                         int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q, int splits) {
  XGEMM_LOCALS
  const int group = z / splits, split = z % splits, cg = c / g, kg = k / g, taps = cg * r * s;
  const int depth = n * p * q, chunk = (depth + splits - 1) / splits, first = split * chunk;
  const int length = max(0, min(chunk, depth - first));
  struct Chunk f = {c, k, cg, kg, h, w, r, s, p, q, sh, sw, ph, pw, dh, dw, group, first};
  chunk_start(&f, get_group_id(1) * MWG, get_group_id(0) * NWG, kg, taps);
  xgemm_accumulate(kg, taps, length, d_y, 0, 0, x, 0, 1, As, Bs, acc, &f);
  __global float* out = partial + ((long)split * k + group * kg) * taps;
  STORE_TILE_FLOAT(out, taps, kg, taps)
}


// d_w = the sum of the partials, chunk by chunk in order: one work-item per element of d_w.
__kernel void conv2d_igemm_weight_reduce(__global const real_t* x, __global const real_t* d_y, __global real_t* d_w,
                                         __global const float* partial, int n, int c, int h, int w, int k, int r, int s, int sh,
                                         int sw, int ph, int pw, int dh, int dw, int g, int p, int q, int splits) {
  const long o = get_global_id(0), size = (long)k * (c / g) * r * s;
  if (o >= size) return;
  float sum = 0.0f;
  for (int i = 0; i < splits; ++i) sum += partial[i * size + o];
  const int taps = (c / g) * r * s;
  if (isnan(sum)) sum = weight_direct(x, d_y, n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, p, q, o / taps, o % taps);
  ST(d_w, o, sum);
}

// d_bias[kk] = the sum of d_y[:, kk, :, :]: one work-group per filter, each work-item summing a strided
// share of every image, then a tree in local memory (a fixed order: the same bits every run).
#define BIAS_WG 256
__kernel __attribute__((reqd_work_group_size(BIAS_WG, 1, 1)))
void conv2d_igemm_bias_grad(__global const real_t* d_y, __global real_t* d_bias, int n, int k, int pq) {
  __local float sums[BIAS_WG];
  const int kk = get_group_id(0), lid = get_local_id(0);
  float acc = 0.0f;
  for (int ni = 0; ni < n; ++ni) {
    __global const real_t* plane = d_y + ((long)ni * k + kk) * pq;
    for (int e = lid; e < pq; e += BIAS_WG) acc += LD(plane, e);
  }
  sums[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int width = BIAS_WG / 2; width > 0; width /= 2) {
    if (lid < width) sums[lid] += sums[lid + width];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) ST(d_bias, kk, sums[0]);
}
