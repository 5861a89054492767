// conv2d forward as an implicit GEMM on the tensor-core GEMM core (xgemm_mma.h; conv.plan's `mma_igemm`,
// f16 and bf16 on NVIDIA): per group, over all images' output pixels (n, p, q),
//   Y[k, (n, p, q)] = W'[k, (r, s, c)] @ X~[(r, s, c), (n, p, q)] (+ bias[k]),
// K = r*s*c/g deep, with the depth in (r, s, c) order, channels fastest. Two steps first lay the
// operands out for that: x as NHWC (conv2d_nhwc_pack) and the weights as [k][r][s][c/g]
// (conv2d_weights_rsc), both raw 16-bit copies in scratch. Then a slab of X~ for output pixel j is a
// run of channels of one input pixel: where c/g % 16 == 0 each 16-deep group of the slab is 32
// contiguous bytes (two 16-byte loads), which the core stores as a depth-contiguous operand; other
// channel counts gather element by element. 0 where a tap falls in the padding.
// One GEMM a group over every image's pixels (n*p*q of them: no partial tile at each image's end, which
// for 7x7 planes was a quarter of a 64-wide tile). PIXELS_M: which side of it the pixels are.
// 0: M = k/g (A = W'), N = n*p*q (B = X~, tb = 1). 1: Y transposed, M = n*p*q (A = X~), N = k/g (B = W'
// as [N][K], tb = 1): for a few output channels (k/g = 64) the pixels fill the tall side of a tile and
// the weights the narrow one. Either way each result is stored at its place in NCHW y (Y_AT).
// With few output pixels (7x7 layers) the tiles alone leave most of the device idle: conv.plan's
// `wgmma_igemm_split` splits the depth SPLITS ways (conv2d_igemm_mma_split, float partial sums) and adds
// the splits up in a fixed order (conv2d_split_sum): deterministic, no atomics.
// Products are exact in float and summed in float; a padded tap with an Inf or NaN weight makes NaN of a
// finite output, which the last step (conv_igemm_nan.h, over x and w as given) sums again directly.
// Global size (cdiv(N, NWG) * WGS, cdiv(M, MWG), g).
// The backward convolutions in 16 bits run this forward too, over other operands: backward data at
// stride 1 over d_y with the filters turned, and the weight gradient over x's channels as images with
// d_y as the filters (the comments above conv2d_weights_rsc_turned and conv2d_igemm_mma_weight_nan).
#include "conv_igemm_nan.h"

#ifndef PIXELS_M
#define PIXELS_M 0
#endif

// xt: x as NHWC offset to the group's first channel; c_all: channels a pixel (all groups'); pq: pixels an
// image; k_off: the depth of the GEMM's first (a split of the depth starts past 0: conv2d_igemm_mma_split).
#define MMA_PARAMS , struct ConvGeometry geo, int c_all, int pq, int k_off
#define MMA_ARGS , geo, c_all, pq, k_off
struct ConvPixel {  // output pixel j of all images': its image's plane in xt, its first tap's place
  __global const ushort* plane;
  int h0, w0, in;  // in: j is a pixel (not past the last)
};
struct ConvPixel conv_pixel(__global const ushort* xt, struct ConvGeometry g, int c_all, int pq, int j, int pixels);
__global const ushort* conv_tap(struct ConvPixel px, struct ConvGeometry g, int c_all, int d);
#if ASYNC  // the core copies slabs chunk by chunk (xgemm_mma_async.h): 8 depths of one pixel
void conv_chunk_nhwc(struct ConvPixel px, struct ConvGeometry g, int c_all, int e0, int k, __local uint4* dst);
#define MMA_GATHER_T struct ConvPixel
#define MMA_GATHER_AT(p, j, pixels) conv_pixel(p, geo, c_all, pq, j, pixels)
#if PIXELS_M
#define MMA_CHUNK_A(px, d, dst) conv_chunk_nhwc(px, geo, c_all, k_off + (d), k_off + ks, dst)
#else
#define MMA_CHUNK_B(px, d, dst) conv_chunk_nhwc(px, geo, c_all, k_off + (d), k_off + ks, dst)
#endif
#else  // the core loads slabs into registers (xgemm_mma.h's ring)
#if PIXELS_M
#define MMA_SLAB_A(k0, r) conv_slab_nhwc(pa, geo, c_all, pq, m0, k_off + (k0), m, k_off + k, r)
#define PIX_WG MWG  // the pixels' side of the tile, and the chunks a work-item loads of it
#define PIX_CHUNKS A_CHUNKS
#else
#define MMA_SLAB_B(k0, r) conv_slab_nhwc(pb, geo, c_all, pq, n0, k_off + (k0), n, k_off + k, r)
#define PIX_WG NWG
#define PIX_CHUNKS B_CHUNKS
#endif
void conv_slab_nhwc(__global const ushort* xt, struct ConvGeometry g, int c_all, int pq, int j0, int k0, int pixels, int k, uint4* r);
#endif
#include "xgemm_mma.h"
#include "conv_mma_bias_grad.h"

// x [n][c][h*w] into xt [n][h*w][c], 64 x 64 blocks through local memory: loads along the pixels and
// stores along the channels, two 16-bit values a 4-byte access where h*w (loads) and c (stores) are
// even: 21 us over a 6.4M-element bf16 x on the H100, where 32 x 32 blocks of 2-byte accesses took 26
// (issuing a work-item's eight loads together changed nothing on the H100, 2026-11-26).
// Global size (cdiv(h*w, 64) * 32, cdiv(c, 64) * 8, n), local (32, 8, 1).
// The pack's body over any strides: plane `image` of xt ([hw][c]) from x's rows image * image_stride +
// channel * channel_stride (conv2d_nhwc_pack: c * hw and hw; conv2d_nhwc_pack_strided: any).
void nhwc_pack(__global const ushort* x, __global ushort* xt, int c, int hw, long image_stride, long channel_stride,
               __local ushort tile[64][66]) {
  const int lx = get_local_id(0), ly = get_local_id(1), p0 = get_group_id(0) * 64, c0 = get_group_id(1) * 64;
  const long image = get_group_id(2);
  const int px = p0 + 2 * lx, ch = c0 + 2 * lx;
  for (int i = ly; i < 64 && c0 + i < c; i += 8) {
    __global const ushort* row = x + image * image_stride + (c0 + i) * channel_stride;
    if (hw % 2 == 0 && image_stride % 2 == 0 && channel_stride % 2 == 0 && px + 1 < hw) {
      const ushort2 v = *(__global const ushort2*)(row + px);
      tile[i][2 * lx] = v.x;
      tile[i][2 * lx + 1] = v.y;
    } else {
      if (px < hw) tile[i][2 * lx] = row[px];
      if (px + 1 < hw) tile[i][2 * lx + 1] = row[px + 1];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = ly; i < 64 && p0 + i < hw; i += 8) {
    __global ushort* out = xt + (image * hw + p0 + i) * c;
    if (c % 2 == 0 && ch + 1 < c) {
      *(__global ushort2*)(out + ch) = (ushort2)(tile[2 * lx][i], tile[2 * lx + 1][i]);
    } else {
      if (ch < c) out[ch] = tile[2 * lx][i];
      if (ch + 1 < c) out[ch + 1] = tile[2 * lx + 1][i];
    }
  }
}

__kernel __attribute__((reqd_work_group_size(32, 8, 1)))
void conv2d_nhwc_pack(__global const real_t* x_, __global float* xt_, int c, int hw) {
  __local ushort tile[64][66];  // [channel][pixel]; 66: a column's reads spread over the banks
  nhwc_pack(RAW(x_), (__global ushort*)xt_, c, hw, (long)c * hw, hw, tile);  // scratch is float32 to the ABI: two 16-bit values an element
}

// The same with the planes and channels of x taken at any strides: conv2d_bwd_weight's operands, x as
// [c][h*w][n] (plane = x's channel, channel = x's image) and d_y as [k][p*q][n]. Global size
// (cdiv(hw, 64) * 32, cdiv(c, 64) * 8, planes), local (32, 8, 1).
__kernel __attribute__((reqd_work_group_size(32, 8, 1)))
void conv2d_nhwc_pack_strided(__global const real_t* x_, __global float* xt_, int c, int hw, long image_stride, long channel_stride) {
  __local ushort tile[64][66];
  nhwc_pack(RAW(x_), (__global ushort*)xt_, c, hw, image_stride, channel_stride, tile);
}

// w [k][cg][r*s] into wr [k][r*s][cg], one (output channel, channel) a work-item: its r*s taps read as
// one run and written a tap a row, where a warp's neighbouring channels make each row's stores one
// coalesced run. One element a work-item (the divisions of its three indices each time) took 16.4 us
// over 2.4M weights on the H100, the NHWC pack's 64 x 64 blocks 23.6 (9 taps fill a block's rows
// poorly); this 8-9.5 us (H100, 2026-11-27). Global size roundup(k * cg, 256).
__kernel void conv2d_weights_rsc(__global const real_t* w_, __global float* wr_, int k, int cg, int rs) {
  __global const ushort* w = RAW(w_);
  __global ushort* wr = (__global ushort*)wr_;
  const long o = get_global_id(0);
  if (o >= (long)k * cg) return;
  const long kk = o <= UINT_MAX ? (uint)o / (uint)cg : o / cg, ci = o - kk * cg;
  __global const ushort* from = w + o * rs;
  __global ushort* to = wr + kk * rs * cg + ci;
  for (int t = 0; t < rs; ++t) to[(long)t * cg] = from[t];
}

// conv2d_bwd_data at stride 1 (conv.plan's `wgmma_igemm` and `mma_igemm` of conv2d_bwd_data) is this
// file's forward convolution of d_y (k channels in, c out) with each group's filters turned by 180
// degrees and their channel axes swapped, at padding dh (r - 1) - ph (and dw (s - 1) - pw):
//   d_x[c][i][j] = sum_{k, u, v} d_y[k][i + ph - u dh][j + pw - v dw] w[k][c][u][v].
// This step lays the turned filters out as conv2d_igemm_mma reads its weights, wr [c][r*s][k/g], tap t
// of filter (k, c) at tap r*s - 1 - t. One (channel c, filter of its group) a work-item, the filters
// fastest, so that each tap's row of wr is written by neighbouring work-items (w's runs of r*s taps
// are read apart). Global size roundup(c * (k / g), 256).
__kernel void conv2d_weights_rsc_turned(__global const real_t* w_, __global float* wr_, int k, int cg, int rs, int g) {
  __global const ushort* w = RAW(w_);
  __global ushort* wr = (__global ushort*)wr_;
  const long o = get_global_id(0), kg = k / g;
  if (o >= kg * cg * g) return;
  const long c_out = o / kg, k_in = o - c_out * kg, group = c_out / cg;  // wr's row c_out, w's filter group kg + k_in
  __global const ushort* from = w + ((group * kg + k_in) * cg + c_out - group * cg) * rs;
  __global ushort* to = wr + c_out * rs * kg + k_in;
  for (int t = 0; t < rs; ++t) to[(long)(rs - 1 - t) * kg] = from[t];
}

// conv2d_bwd_data's last step: each NaN of d_x summed again directly (stride 1). The gather fills the
// taps outside d_y with zeros, which meet an Inf or NaN weight as NaN where the gradient, a sum without
// those terms, is finite. A work-item scans 8 outputs. Global size roundup(cdiv(numel(d_x), 8), 256).
__kernel void conv2d_igemm_mma_data_nan(__global const real_t* wt, __global const real_t* d_y, __global real_t* d_x, int n, int c, int h,
                                        int w, int k, int r, int s, int ph, int pw, int dh, int dw, int g, int p, int q) {
  const long total = (long)n * c * h * w, o0 = get_global_id(0) * 8;
  if (o0 >= total || (o0 + 8 <= total && !any_nan8(d_x, o0))) return;
  for (long o = o0; o < min(o0 + 8, total); ++o)
    if (isnan(LD(d_x, o))) ST(d_x, o, data_direct(wt, d_y, c, h, w, k, r, s, 1, 1, ph, pw, dh, dw, g, p, q, o));
}

// conv2d_bwd_weight (one group) is this file's forward convolution too, with the images and channels of
// x swapped and d_y as the filters: the "images" are x's c channels, the "channels" its n images, the
// "filters" d_y's k planes of p x q taps, stride dh x dw, dilation sh x sw, padding ph x pw, and the
// "output" r x s:
//   d_w[k][c][u][v] = sum_{image, i, j} d_y[image][k][i][j] x[image][c][u dh - ph + i sh][v dw - pw + j sw].
// conv.plan's `wgmma_igemm_split` of conv2d_bwd_weight packs x as [c][h*w][n] and d_y as [k][p*q][n]
// (conv2d_nhwc_pack_strided) and runs conv2d_igemm_mma_split: its partial sums [split][k][c*r*s] are
// d_w's layout already, and conv2d_split_sum adds them up as one "image" of c*r*s pixels. The depth
// n p q is long and the output small (k x c r s), so the split fills the device.
// Its NaN step: each NaN of d_w summed again directly (the gather's zeros at padded taps meet an Inf or
// NaN of d_y as NaN where the sum of the terms is finite). A work-item scans 8 outputs.
// Global size roundup(cdiv(numel(d_w), 8), 256).
__kernel void conv2d_igemm_mma_weight_nan(__global const real_t* x, __global const real_t* d_y, __global real_t* d_w, int n, int c, int h,
                                          int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int p, int q) {
  const long total = (long)k * c * r * s, o0 = get_global_id(0) * 8;
  if (o0 >= total || (o0 + 8 <= total && !any_nan8(d_w, o0))) return;
  for (long o = o0; o < min(o0 + 8, total); ++o) {
    if (!isnan(LD(d_w, o))) continue;
    const long taps = (long)c * r * s;  // one group: filter kk, column (channel, tap) of d_w
    const float acc = weight_direct(x, d_y, n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, 1, p, q, o / taps, o % taps);
    ST(d_w, o, acc);
  }
}

struct ConvPixel conv_pixel(__global const ushort* xt, struct ConvGeometry g, int c_all, int pq, int j, int pixels) {
  const int image = j / pq, pix = j - image * pq, po = pix / g.q, qo = pix - po * g.q;
  const struct ConvPixel px = {xt + (long)image * g.h * g.w * c_all, po * g.sh - g.ph, qo * g.sw - g.pw, j < pixels};
  return px;
}

// Depth d of X~ (tap t = d / (c/g), channel d % (c/g)) at pixel px: its element's place in xt, or 0
// where the tap falls in the padding. Both gathers (cp.async chunks and the ring's registers) use it.
__global const ushort* conv_tap(struct ConvPixel px, struct ConvGeometry g, int c_all, int d) {
  const int t = d / g.c, ci = d - t * g.c, ri = t / g.s, si = t - ri * g.s;
  const int hi = px.h0 + ri * g.dh, wi = px.w0 + si * g.dw;
  return hi >= 0 && hi < g.h && wi >= 0 && wi < g.w ? px.plane + ((long)hi * g.w + wi) * c_all + ci : 0;
}

#if ASYNC

// Depths e0 .. e0 + 7 of X~ at pixel px into chunk dst: one 16-byte copy where c/g % 8 == 0 (the 8
// depths are one tap's run of channels; zeros where the tap is in the padding), element by element
// otherwise.
void conv_chunk_nhwc(struct ConvPixel px, struct ConvGeometry g, int c_all, int e0, int k, __local uint4* dst) {
  const int cg = g.c;
  if (cg % 8 == 0) {
    __global const ushort* src = px.in && e0 < k ? conv_tap(px, g, c_all, e0) : 0;
    copy_chunk(dst, src ? src : px.plane, src ? 8 : 0);
  } else {
    uint wd[4] = {0, 0, 0, 0};
#pragma unroll 1
    for (int e = 0; e < 8; ++e) {  // not unrolled: the rare path, kept small
      if (!px.in || e0 + e >= k) break;
      __global const ushort* src = conv_tap(px, g, c_all, e0 + e);
      if (src) wd[e / 2] |= (uint)*src << (16 * (e % 2));
    }
    *dst = (uint4)(wd[0], wd[1], wd[2], wd[3]);
  }
}
#else
// Chunk l of this work-item's share of the slab at depth k0, as slab_a or slab_b loads a depth-contiguous
// operand: output pixel j of all images', depths e0 .. e0 + 15 (r[2l]: words 0-3, r[2l + 1]: words 4-7).
void conv_slab_nhwc(__global const ushort* xt, struct ConvGeometry g, int c_all, int pq, int j0, int k0, int pixels, int k, uint4* r) {
  const int lid = get_local_id(0), cg = g.c, n = pixels;
  const int runs = cg % 16 == 0;  // every 16-deep group is one tap's run of channels
#pragma unroll
  for (int l = 0; l < PIX_CHUNKS; ++l) {
    const int c = lid + l * WGS;
    if (PIX_CHUNKS * WGS > PIX_WG * KWG / 16 && c >= PIX_WG * KWG / 16) break;  // past the slab
    const int j = j0 + c / (KWG / 16), e0 = k0 + 16 * (c % (KWG / 16));
    const struct ConvPixel px = conv_pixel(xt, g, c_all, pq, j, n);
    if (runs) {
      uint4 lo = (uint4)(0), hi = (uint4)(0);
      __global const ushort* src = px.in && e0 < k ? conv_tap(px, g, c_all, e0) : 0;
      if (src) {
        lo = *(__global const uint4*)src;
        hi = *(__global const uint4*)(src + 8);
      }
      r[2 * l] = lo;
      r[2 * l + 1] = hi;
    } else {
      uint wd[8] = {0, 0, 0, 0, 0, 0, 0, 0};
#pragma unroll 1
      for (int e = 0; e < 16; ++e) {  // not unrolled: the rare path, kept small
        if (!px.in || e0 + e >= k) break;
        __global const ushort* src = conv_tap(px, g, c_all, e0 + e);
        if (src) wd[e / 2] |= (uint)*src << (16 * (e % 2));
      }
      r[2 * l] = (uint4)(wd[0], wd[1], wd[2], wd[3]);
      r[2 * l + 1] = (uint4)(wd[4], wd[5], wd[6], wd[7]);
    }
  }
}
#endif

#define PLAIN(v, row, col) (v)
// One tile of Y of one group from xt and wr (the first two steps' scratch); bias may be 0. With
// partial (not 0), depths [k_lo, k_hi) alone, and the float sums to partial [split][k][n*p*q] instead
// (conv2d_split_sum adds the splits up).
void conv2d_igemm_mma_tile(__global const ushort* xt, __global const ushort* wr, __global const real_t* bias, __global real_t* y, int n,
                           int c, int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q,
                           __local uint4* as4, __local uint4* bs4, float acc[MFR * NFR * 4], __local float* emu, int group,
                           __global float* partial, int split, int k_lo, int k_hi) {
  const int cg = c / g, kg = k / g, crs = cg * r * s, pq = p * q, pixels = n * pq, k0 = group * kg;
  const struct ConvGeometry geo = {cg, h, w, r, s, sh, sw, ph, pw, dh, dw, q};
  const long w_offset = (long)group * kg * crs + k_lo;
  __global const ushort* x_group = xt + group * cg;
  __global const ushort* weights = wr + w_offset;
  const int weights_aligned = crs % 8 == 0 && w_offset % 8 == 0, depth = k_hi - k_lo;
  // Output channel kk (of the group) at pixel j (of all images) in NCHW y, and in the split's partial.
#define Y_AT_PIXEL(kk, j) (y + ((long)((j) / pq) * k + k0 + (kk)) * pq + (j) % pq)
#define PARTIAL_AT_PIXEL(kk, j) (partial + ((long)split * k + k0 + (kk)) * pixels + (j))
  // The GEMM's rows and columns: pixels and output channels (PIXELS_M), or the other way round. Pairs of
  // neighbouring columns go out as one store where they are 8-byte aligned: the partial's rows of even
  // length, and y's pixels j, j + 1 (j even) of one image where pq is even.
#if PIXELS_M
  xgemm_mma_accumulate(pixels, kg, depth, x_group, 0, 0, 0, weights, crs, 1, weights_aligned, as4, bs4, acc, emu, geo, c, pq, k_lo);
#define CHANNEL_OF(row, col) (col)
#define PIXEL_OF(row, col) (row)
  const int rows = pixels, cols = kg, partial_pairs = 0, y_pairs = 0;
#else
  xgemm_mma_accumulate(kg, pixels, depth, weights, crs, 0, weights_aligned, x_group, 0, 1, 0, as4, bs4, acc, emu, geo, c, pq, k_lo);
#define CHANNEL_OF(row, col) (row)
#define PIXEL_OF(row, col) (col)
  const int rows = kg, cols = pixels, partial_pairs = pixels % 2 == 0, y_pairs = pq % 2 == 0;
#endif
#define Y_AT(row, col) Y_AT_PIXEL(CHANNEL_OF(row, col), PIXEL_OF(row, col))
#define PARTIAL_AT(row, col) PARTIAL_AT_PIXEL(CHANNEL_OF(row, col), PIXEL_OF(row, col))
#define WITH_BIAS(v, row, col) (bias ? (v) + LD(bias, k0 + CHANNEL_OF(row, col)) : (v))
  if (partial) {
    __global float* const c_at_ = partial;
    const long ldc_at_ = 0;
    STORE_FRAGMENTS_AS(PARTIAL_AT, partial_pairs, rows, cols, PLAIN, ST2_FLOAT, ST_FLOAT)
    return;
  }
  STORE_FRAGMENTS_WHERE(Y_AT, y_pairs, rows, cols, WITH_BIAS)
}

#define CONV_TILE_ARGS n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, p, q, as4, bs4, acc, emu
__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void conv2d_igemm_mma(__global const float* xt, __global const float* wr, __global real_t* y, int n, int c, int h, int w, int k, int r,
                      int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q) {
  XGEMM_MMA_LOCALS
  conv2d_igemm_mma_tile(RAW(xt), RAW(wr), 0, y, CONV_TILE_ARGS, get_group_id(2), 0, 0, 0, c / g * r * s);
}

__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void conv2d_igemm_mma_bias(__global const float* xt, __global const float* wr, __global const real_t* bias, __global real_t* y, int n,
                           int c, int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q) {
  XGEMM_MMA_LOCALS
  conv2d_igemm_mma_tile(RAW(xt), RAW(wr), bias, y, CONV_TILE_ARGS, get_group_id(2), 0, 0, 0, c / g * r * s);
}

// The depth split SPLITS ways (conv.plan's `wgmma_igemm_split`: few output pixels, so that the tiles
// alone leave most of the device idle): work-group z = group * SPLITS + split sums depths
// [split * chunk, (split + 1) * chunk) of the group's GEMM (chunk a multiple of KWG) into partial
// [SPLITS][k][n*p*q] in float. Global size (as conv2d_igemm_mma's, with g * SPLITS along z).
#ifndef SPLITS
#define SPLITS 1
#endif
__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void conv2d_igemm_mma_split(__global const float* xt, __global const float* wr, __global float* partial, int n, int c, int h, int w, int k,
                            int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q) {
  XGEMM_MMA_LOCALS
  const int crs = c / g * r * s, chunk = (crs + SPLITS * KWG - 1) / (SPLITS * KWG) * KWG, split = get_group_id(2) % SPLITS;
  const int k_lo = min(split * chunk, crs), k_hi = min(k_lo + chunk, crs);
  conv2d_igemm_mma_tile(RAW(xt), RAW(wr), 0, 0, CONV_TILE_ARGS, get_group_id(2) / SPLITS, partial, split, k_lo, k_hi);
}

// y (NCHW) = the splits' partial sums (conv2d_igemm_mma_split), added in split order (+ bias), rounded
// once to the storage format; output element o of y a work-item, in 32-bit division where y's size
// fits. Global size roundup(numel(y), 256).
inline void split_sum(__global const float* partial, __global const real_t* bias, __global real_t* y, int k, int pq, long pixels) {
  const long o = get_global_id(0), total = pixels * k;
  if (o >= total) return;
  long image, kk, pix;
  if (total <= UINT_MAX) {
    const uint u = (uint)o, kpq = (uint)k * (uint)pq;
    image = u / kpq, kk = (u - image * kpq) / (uint)pq, pix = u - image * kpq - kk * pq;
  } else {
    image = o / ((long)k * pq), kk = (o - image * k * pq) / pq, pix = o - image * k * pq - kk * pq;
  }
  __global const float* at = partial + kk * pixels + image * pq + pix;
  float sum = 0.0f;
  for (int sp = 0; sp < SPLITS; ++sp) sum += at[sp * (long)k * pixels];
  ST(y, o, bias ? sum + LD(bias, kk) : sum);
}
__kernel void conv2d_split_sum(__global const float* partial, __global real_t* y, int k, int pq, long pixels) {
  split_sum(partial, 0, y, k, pq, pixels);
}
__kernel void conv2d_split_sum_bias(__global const float* partial, __global const real_t* bias, __global real_t* y, int k, int pq, long pixels) {
  split_sum(partial, bias, y, k, pq, pixels);
}
