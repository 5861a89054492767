// The tuned GEMM core (xgemm.cl, xgemm_bias_act.cl and xgemm_backward.cl hold its entry points, so
// that each operator builds only its own): C[b] = op(A[b]) @ op(B[b]) for any m, n, k, either operand
// transposed, batched or not. The design of CLBlast's xgemm
// and the fast published OpenCL SGEMMs, its tile sizes as defines (its variants in gemm.plan, tuned per device by
// `plumbline tune` into opencl/tuning/):
//   - a work-group of NDIMC x MDIMC work-items computes an MWG x NWG tile of C; each work-item holds
//     MWI x NWI = (MWG/MDIMC) x (NWG/NDIMC) accumulators in registers, as 4 x 4 blocks strided by
//     4*MDIMC rows and 4*NDIMC columns, so that its operands come from local memory as float4 reads
//     that neighbouring work-items make to neighbouring addresses (no bank conflicts);
//   - the depth is walked KWG at a time through local memory, double-buffered: the next slab's global
//     loads are issued before the current slab is multiplied, and one barrier per slab suffices;
//   - global loads move four neighbours at a time, as accesses of VW elements (4: one float4, 2: two
//     float2, 1: four scalars), unguarded wherever the leading dimension is a multiple of VW and the
//     elements lie inside the matrix, else guarded scalar loads; outside the matrix the slabs hold 0,
//     so edge tiles need no other care (0 * 0 in the padding, never 0 * Inf);
//   - stores likewise: VW-wide where aligned and inside, else guarded scalars.
// Operands and results are real_t (storage.h): f16 and bf16 are widened as they are loaded into the
// slabs, and the slabs, the accumulators and the epilogue are float; each result is rounded once, as
// it is stored.
// Operands: A(i, e) = a[i * lda + e] (ta = 0) or a[e * lda + i] (ta = 1), B(e, j) = b[e * ldb + j]
// (tb = 0) or b[j * ldb + e] (tb = 1); batch entry z starts at a + z * a_batch (likewise b, c).
#ifndef XGEMM_H
#define XGEMM_H
#include "storage.h"  // operands and results in the build's storage format, accumulation in float

#ifndef MWG
#define MWG 64
#endif
#ifndef NWG
#define NWG 64
#endif
#ifndef KWG
#define KWG 16
#endif
#ifndef MDIMC
#define MDIMC 16
#endif
#ifndef NDIMC
#define NDIMC 16
#endif
// Sliced depth: KSLICES groups of MDIMC x NDIMC work-items (local dimension 2) share each slab, slice
// s multiplying its depths s * KWG / KSLICES .. (s + 1) * KWG / KSLICES - 1 into its own accumulators,
// which are summed through local memory at the end (slice 0 stores). More warps for the same tile and
// the same registers per work-item: for problems with few tiles (a batched product with n = 64), where
// a work-group per tile leaves the multiprocessors short of warps. Entry points that load or store by
// themselves (the convolutions) take KSLICES = 1 only.
#ifndef KSLICES
#define KSLICES 1
#endif
// Carried last depth: a slab's last depth is read from local memory before the barrier and multiplied
// after it, beside the next slab's first reads, so that their latency is not waited out after every
// barrier (1), or multiplied before the barrier as it is read (0). The same multiply-adds in the same
// order either way (the same bits); 1 costs MWI + NWI registers a work-item. On the H100 it pays in
// the backward's GEMMs and the batched n = 64 product and costs elsewhere (docs/performance.md).
#ifndef XGEMM_CARRY
#define XGEMM_CARRY 0
#endif

// Vector width of the global loads and stores (CLBlast's VWM/VWN): 4 makes one 16-byte access of
// four neighbours and needs a leading dimension that is a multiple of 4 for it; 2 and 1 make more,
// narrower accesses and take the unguarded path at leading dimensions that are multiples of 2, or any
// (a vocabulary of 50257 columns). The same values land in the same slots either way (the same bits).
#ifndef VW
#define VW 4
#endif

#define MWI (MWG / MDIMC)    // accumulator rows per work-item
#define NWI (NWG / NDIMC)    // accumulator columns per work-item
#define SLICE_WGS (MDIMC * NDIMC)  // work-items per slice
#define WGS (SLICE_WGS * KSLICES)  // work-items per work-group
#define A_LOADS ((MWG * KWG / 4 + WGS - 1) / WGS)  // float4 loads per work-item per slab (the last
#define B_LOADS ((NWG * KWG / 4 + WGS - 1) / WGS)  // may fall past the slab with slices: skipped)

#if MWI % 4 != 0 || NWI % 4 != 0 || (MWG * KWG) % (4 * SLICE_WGS) != 0 || (NWG * KWG) % (4 * SLICE_WGS) != 0 || KWG % 4 != 0 || KWG % KSLICES != 0
#error "xgemm: the tile sizes break its constraints (every require line of a plan that runs it implies these: plans_test)"
#endif
#if VW != 1 && VW != 2 && VW != 4
#error "xgemm: VW (the global access width) must be 1, 2 or 4"
#endif

// This work-item's place in its work-group, slices after one another (the slab loads' numbering).
int xgemm_lid(void) { return (get_local_id(2) * MDIMC + get_local_id(1)) * NDIMC + get_local_id(0); }

// Four neighbours in memory (p .. p+3) as VW-wide accesses, in the storage format (ldv4, stv4) or in
// float32 (ldv4_float, stv4_float: a scratch matrix such as gemm_bias_act_bwd's G). p is aligned to VW
// elements.
#if VW == 4
#define LDV4(p, LD_, LD2_, LD4_) LD4_(p)
#define STV4(p, v, ST_, ST2_, ST4_) ST4_(p, v)
#elif VW == 2
#define LDV4(p, LD_, LD2_, LD4_) ((float4)(LD2_(p), LD2_((p) + 2)))
#define STV4(p, v, ST_, ST2_, ST4_) (ST2_(p, (v).xy), ST2_((p) + 2, (v).zw))
#else
#define LDV4(p, LD_, LD2_, LD4_) ((float4)(LD_(p, 0), LD_(p, 1), LD_(p, 2), LD_(p, 3)))
#define STV4(p, v, ST_, ST2_, ST4_) (ST_(p, 0, (v).x), ST_(p, 1, (v).y), ST_(p, 2, (v).z), ST_(p, 3, (v).w))
#endif
float4 ldv4(__global const real_t* p) { return LDV4(p, LD, LD2, LD4); }
float4 ldv4_float(__global const float* p) { return LDV4(p, LD_FLOAT, LD2_FLOAT, LD4_FLOAT); }
void stv4(__global real_t* p, float4 v) { STV4(p, v, ST, ST2, ST4); }
void stv4_float(__global float* p, float4 v) { STV4(p, v, ST_FLOAT, ST2_FLOAT, ST4_FLOAT); }
#define VW_ALIGNED(ld) (((ld) & (VW - 1)) == 0)  // rows start at multiples of VW elements

// Four elements of a tile, as the slab needs them. "Along" loads read four neighbours in memory
// (x .. x+3 of a row stored contiguously); the caller knows which slab positions they fill. load4
// reads an operand in the storage format, load4_float one in float32.
#define LOAD4(NAME, T, LDV4_, LD_)                                                                          \
  float4 NAME(__global const T* p, long row, int ld, int col, int rows, int cols) {                         \
    if (row >= rows) return (float4)(0.0f);                                                                 \
    __global const T* r = p + row * ld;                                                                     \
    if (col + 3 < cols && VW_ALIGNED(ld)) return LDV4_(r + col);                                            \
    return (float4)(col < cols ? LD_(r, col) : 0.0f, col + 1 < cols ? LD_(r, col + 1) : 0.0f,               \
                    col + 2 < cols ? LD_(r, col + 2) : 0.0f, col + 3 < cols ? LD_(r, col + 3) : 0.0f);      \
  }
LOAD4(load4, real_t, ldv4, LD)
LOAD4(load4_float, float, ldv4_float, LD_FLOAT)

// The global loads of one slab into registers: op(X)'s tile of XWG rows (x0 ..) by KWG depth (k0 ..),
// from elements of type T read by LOADER (load4 or load4_float), or by LDV4_ alone (no tests) where
// the slab lies wholly inside the matrix and its rows start at multiples of VW (all but the edge slabs).
// Stored [X][K] (trans = 0 for A, 1 for B: depth contiguous) or [K][X] (depth strided).
#define SLAB_LOADS(NAME, XWG, LOADS, T, LOADER, LDV4_)                                                       \
  void NAME(__global const T* p, int ld, int contiguous_depth, int x0, int k0, int xs, int ks, float4 r[LOADS]) { \
    const int lid = xgemm_lid();                                                                            \
    const int inside = x0 + XWG <= xs && k0 + KWG <= ks && VW_ALIGNED(ld);                                      \
    _Pragma("unroll") for (int l = 0; l < LOADS; ++l) {                                                     \
      const int idx = lid + l * WGS;                                                                        \
      if (LOADS * WGS > XWG * KWG / 4 && idx >= XWG * KWG / 4) break; /* past the slab (slices only) */     \
      if (contiguous_depth) { /* rows x, four depths each: x-major so that stores below do not conflict */ \
        const int x = idx % XWG, kq = idx / XWG;                                                            \
        r[l] = inside ? LDV4_(p + (long)(x0 + x) * ld + k0 + 4 * kq) : LOADER(p, x0 + x, ld, k0 + 4 * kq, xs, ks); \
      } else { /* depth rows k, four x each */                                                              \
        const int xq = idx % (XWG / 4), k = idx / (XWG / 4);                                                \
        r[l] = inside ? LDV4_(p + (long)(k0 + k) * ld + x0 + 4 * xq) : LOADER(p, k0 + k, ld, x0 + 4 * xq, ks, xs); \
      }                                                                                                     \
    }                                                                                                       \
  }
// The slab's registers into local memory, in the layout xgemm_accumulate reads.
#define SLAB_STORES(NAME, XWG, LOADS)                                                                       \
  void NAME##_store(int contiguous_depth, const float4 r[LOADS], __local float* s) {                       \
    const int lid = xgemm_lid();                                                                            \
    _Pragma("unroll") for (int l = 0; l < LOADS; ++l) {                                                     \
      const int idx = lid + l * WGS;                                                                        \
      if (LOADS * WGS > XWG * KWG / 4 && idx >= XWG * KWG / 4) break;                                       \
      if (contiguous_depth) {                                                                               \
        const int x = idx % XWG, kq = idx / XWG;                                                            \
        s[(4 * kq + 0) * XWG + x] = r[l].x;                                                                 \
        s[(4 * kq + 1) * XWG + x] = r[l].y;                                                                 \
        s[(4 * kq + 2) * XWG + x] = r[l].z;                                                                 \
        s[(4 * kq + 3) * XWG + x] = r[l].w;                                                                 \
      } else {                                                                                              \
        const int xq = idx % (XWG / 4), k = idx / (XWG / 4);                                                \
        *(__local float4*)(s + k * XWG + 4 * xq) = r[l];                                                    \
      }                                                                                                     \
    }                                                                                                       \
  }
SLAB_LOADS(slab_a, MWG, A_LOADS, real_t, load4, ldv4)
SLAB_LOADS(slab_b, NWG, B_LOADS, real_t, load4, ldv4)
SLAB_LOADS(slab_a_float, MWG, A_LOADS, float, load4_float, ldv4_float)
SLAB_LOADS(slab_b_float, NWG, B_LOADS, float, load4_float, ldv4_float)
SLAB_STORES(slab_a, MWG, A_LOADS)
SLAB_STORES(slab_b, NWG, B_LOADS)

// Where the slabs come from: by default the operands themselves (slab_a, slab_b). An entry point
// whose operand is implicit (an implicit-GEMM convolution gathers it from a tensor) defines, before
// including this header, XGEMM_SLAB_A(k0, ra) and/or XGEMM_SLAB_B(k0, rb): the slab at depth k0 into
// ra or rb, laid out as slab_a / slab_b lay it out for the ta or tb the entry passes (A: ta = 0 gives
// rows of four depths, ta = 1 depth rows of four rows; B: tb = 0 depth rows of four columns, tb = 1
// columns of four depths), and XGEMM_PARAMS: the extra parameters of xgemm_accumulate they need.
#ifndef XGEMM_SLAB_A
#define XGEMM_SLAB_A(k0, ra) slab_a(a, lda, !ta, m0, k0, m, k, ra)
#endif
#ifndef XGEMM_SLAB_B
#define XGEMM_SLAB_B(k0, rb) slab_b(b, ldb, tb, n0, k0, n, k, rb)
#endif
#ifndef XGEMM_PARAMS
#define XGEMM_PARAMS
#endif

#if KSLICES > 1
// The slices' accumulators summed into slice 0's, in slice order (the same bits every run), through
// the A slabs' local memory (free once the last slab is multiplied): SUM_ROUND accumulators of every
// slice but 0 a round, as many rounds as it takes.
#define SUM_ROOM (2 * KWG * MWG / ((KSLICES - 1) * SLICE_WGS))  // floats a round per work-item and slice
#if SUM_ROOM >= MWI * NWI
#define SUM_ROUND (MWI * NWI)
#elif SUM_ROOM >= 64
#define SUM_ROUND 64
#elif SUM_ROOM >= 32
#define SUM_ROUND 32
#elif SUM_ROOM >= 16
#define SUM_ROUND 16
#elif SUM_ROOM >= 8
#define SUM_ROUND 8
#elif SUM_ROOM >= 4
#define SUM_ROUND 4
#elif SUM_ROOM >= 2
#define SUM_ROUND 2
#else
#define SUM_ROUND 1
#endif
#if (MWI * NWI) % SUM_ROUND != 0
#error "xgemm: a work-item's accumulators do not split into rounds of the slices' sum"
#endif
void xgemm_sum_slices(float acc[MWI * NWI], __local float* room) {
  const int slice = get_local_id(2), lid = get_local_id(1) * NDIMC + get_local_id(0);
  _Pragma("unroll") for (int r = 0; r < MWI * NWI / SUM_ROUND; ++r) {
    // [slice - 1][q][lid]: neighbouring work-items at neighbouring addresses
    if (slice > 0)
      _Pragma("unroll") for (int q = 0; q < SUM_ROUND; ++q)
        room[((slice - 1) * SUM_ROUND + q) * SLICE_WGS + lid] = acc[r * SUM_ROUND + q];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (slice == 0)
      for (int s = 1; s < KSLICES; ++s)
        _Pragma("unroll") for (int q = 0; q < SUM_ROUND; ++q)
          acc[r * SUM_ROUND + q] += room[((s - 1) * SUM_ROUND + q) * SLICE_WGS + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif

// One depth of the outer product: acc[i][j] += av[i] * bv[j].
#define XGEMM_FMAS(av, bv)                                    \
  _Pragma("unroll") for (int i = 0; i < MWI; ++i)             \
    _Pragma("unroll") for (int j = 0; j < NWI; ++j) acc[i * NWI + j] = fma((av)[i], (bv)[j], acc[i * NWI + j]);

// acc[i * NWI + j] += op(A)(row i, :) . op(B)(:, column j) over the whole depth, for this work-item's
// rows and columns (row_of(i), col_of(j) below). As and Bs hold two slabs each.
void xgemm_accumulate(int m, int n, int k, __global const real_t* a, int lda, int ta, __global const real_t* b, int ldb, int tb,
                      __local float* As, __local float* Bs, float acc[MWI * NWI] XGEMM_PARAMS) {
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int m0 = get_group_id(1) * MWG, n0 = get_group_id(0) * NWG;
  _Pragma("unroll") for (int i = 0; i < MWI * NWI; ++i) acc[i] = 0.0f;
  float4 ra[A_LOADS], rb[B_LOADS];
#if XGEMM_CARRY
  float carry_a[MWI], carry_b[NWI];
#endif
  const int slabs = (k + KWG - 1) / KWG;
  if (slabs == 0) return;
  // A is depth-contiguous when stored [M][K] (ta = 0); B when stored [N][K] (tb = 1).
  XGEMM_SLAB_A(0, ra);
  XGEMM_SLAB_B(0, rb);
  slab_a_store(!ta, ra, As);
  slab_b_store(tb, rb, Bs);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int t = 0; t < slabs; ++t) {
    __local const float* as = As + (t & 1) * KWG * MWG;
    __local const float* bs = Bs + (t & 1) * KWG * NWG;
    const int more = t + 1 < slabs;
    if (more) {  // the next slab's loads, in flight while this one is multiplied
      XGEMM_SLAB_A((t + 1) * KWG, ra);
      XGEMM_SLAB_B((t + 1) * KWG, rb);
    }
    _Pragma("unroll") for (int e0 = 0; e0 < KWG / KSLICES; ++e0) {
      const int e = (KSLICES > 1 ? (int)get_local_id(2) * (KWG / KSLICES) : 0) + e0;  // this slice's depths
      float av[MWI], bv[NWI];
      _Pragma("unroll") for (int c = 0; c < MWI / 4; ++c) {
        const float4 v = *(__local const float4*)(as + e * MWG + c * 4 * MDIMC + 4 * ty);
        av[4 * c] = v.x, av[4 * c + 1] = v.y, av[4 * c + 2] = v.z, av[4 * c + 3] = v.w;
      }
      _Pragma("unroll") for (int d = 0; d < NWI / 4; ++d) {
        const float4 v = *(__local const float4*)(bs + e * NWG + d * 4 * NDIMC + 4 * tx);
        bv[4 * d] = v.x, bv[4 * d + 1] = v.y, bv[4 * d + 2] = v.z, bv[4 * d + 3] = v.w;
      }
#if XGEMM_CARRY
      if (e0 == 0 && t > 0) XGEMM_FMAS(carry_a, carry_b);  // the slab before's last depth
      if (e0 == KWG / KSLICES - 1) {
        _Pragma("unroll") for (int i = 0; i < MWI; ++i) carry_a[i] = av[i];
        _Pragma("unroll") for (int j = 0; j < NWI; ++j) carry_b[j] = bv[j];
        continue;
      }
#endif
      XGEMM_FMAS(av, bv);
    }
    if (more) {
      slab_a_store(!ta, ra, As + ((t + 1) & 1) * KWG * MWG);
      slab_b_store(tb, rb, Bs + ((t + 1) & 1) * KWG * NWG);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#if XGEMM_CARRY
  XGEMM_FMAS(carry_a, carry_b);
#endif
#if KSLICES > 1
  xgemm_sum_slices(acc, As);
#endif
}

// The row of C that accumulator row i of this work-item holds; likewise the column of j.
int row_of(int i) { return get_group_id(1) * MWG + (i / 4) * 4 * MDIMC + 4 * get_local_id(1) + (i % 4); }
int col_of(int j) { return get_group_id(0) * NWG + (j / 4) * 4 * NDIMC + 4 * get_local_id(0) + (j % 4); }

// Each work-item's outputs through an epilogue: EPILOGUE(value, row, col) gives what is stored. It is
// evaluated only inside the matrix (an epilogue reads bias[col] and d_y). STORE_TILE stores into the
// storage format, STORE_TILE_AS into elements of type T with the given stv4/ST-like stores.
#define STORE_TILE(c, ldc, m, n, EPILOGUE) STORE_TILE_AS(c, ldc, m, n, EPILOGUE, real_t, stv4, ST)
#define STORE_TILE_AS(c, ldc, m, n, EPILOGUE, T, STV4_, ST_)                                                \
  if (get_local_id(2) == 0) /* slice 0 holds the sums */                                                    \
  _Pragma("unroll") for (int i = 0; i < MWI; ++i) {                                                         \
    const int row = row_of(i);                                                                              \
    if (row >= m) continue;                                                                                 \
    _Pragma("unroll") for (int d = 0; d < NWI / 4; ++d) {                                                   \
      const int col = col_of(4 * d);                                                                        \
      __global T* out = c + (long)row * ldc + col;                                                          \
      const float* v = acc + i * NWI + 4 * d;                                                               \
      if (col + 3 < n && VW_ALIGNED(ldc)) {                                                                 \
        STV4_(out, (float4)(EPILOGUE(v[0], row, col), EPILOGUE(v[1], row, col + 1),                         \
                            EPILOGUE(v[2], row, col + 2), EPILOGUE(v[3], row, col + 3)));                   \
      } else {                                                                                              \
        _Pragma("unroll") for (int e = 0; e < 4; ++e) if (col + e < n) ST_(out, e, EPILOGUE(v[e], row, col + e)); \
      }                                                                                                     \
    }                                                                                                       \
  }

// Each work-item's accumulators as they are, into a float scratch matrix of m x n with leading
// dimension ldc (the partials that a later step combines and rounds).
#define STORE_TILE_FLOAT(c, ldc, m, n)                                                                      \
  if (get_local_id(2) == 0) /* slice 0 holds the sums */                                                    \
  _Pragma("unroll") for (int i = 0; i < MWI; ++i) {                                                         \
    const int row = row_of(i);                                                                              \
    if (row >= m) continue;                                                                                 \
    _Pragma("unroll") for (int j = 0; j < NWI; ++j) {                                                       \
      const int col = col_of(j);                                                                            \
      if (col < n) (c)[(long)row * (ldc) + col] = acc[i * NWI + j];                                         \
    }                                                                                                       \
  }

// The slabs are float4 arrays: their float4 reads and writes need 16-byte alignment, which a float
// array does not promise (NVIDIA places __local arrays at 4-byte alignment).
#define XGEMM_LOCALS                                   \
  __local float4 As4[2 * KWG * MWG / 4];               \
  __local float4 Bs4[2 * KWG * NWG / 4];               \
  __local float* As = (__local float*)As4;             \
  __local float* Bs = (__local float*)Bs4;             \
  float acc[MWI * NWI];                                \
  const long z = get_group_id(2);

#endif  // XGEMM_H
