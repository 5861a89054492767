// Calibration kernels: what the device can do at best, measured (bench/calibration.cpp).

// FP32 FMA throughput: 16 independent fma chains of PEAK_VEC floats per work-item (enough to hide the
// FMA latency), `iters` rounds; 32 * PEAK_VEC FLOPs per round. The result is written so that nothing
// is elided. PEAK_VEC is 4 on GPUs and 16 on CPUs (bench/calibration.cpp): PoCL does not widen float4
// chains across work-items, so float4 measured a CPU's 128-bit FMA rate, below what its AVX-512 code
// reaches (the conv `direct` variants ran at 140% of that "peak").
#ifndef PEAK_VEC
#define PEAK_VEC 4
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define floatP CAT(float, PEAK_VEC)
#define vstoreP CAT(vstore, PEAK_VEC)
__kernel void fma_peak(__global float* out, int iters, float b, float c) {
  const int gid = get_global_id(0);
  floatP a[16];
  for (int j = 0; j < 16; ++j) a[j] = (floatP)((float)gid * 1e-9f + j);
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int j = 0; j < 16; ++j) a[j] = fma(a[j], b, c);
  }
  const floatP s = ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7])) + ((a[8] + a[9]) + (a[10] + a[11])) +
                   ((a[12] + a[13]) + (a[14] + a[15]));
  float lanes[PEAK_VEC];
  vstoreP(s, 0, lanes);
  float total = 0.0f;
  for (int j = 0; j < PEAK_VEC; ++j) total += lanes[j];
  out[gid] = total;
}

// Memory bandwidth: a copy, one float4 read and one written per work-item.
__kernel void copy_bandwidth(__global const float4* in, __global float4* out) {
  const int gid = get_global_id(0);
  out[gid] = in[gid];
}

// Memory bandwidth of reads alone: per_item float4 a work-item, a grid apart (every pass coalesced),
// summed into one float written per work-item (1/(4 per_item) of the bytes read). A GPU's memory reads
// faster than it copies (no writes to turn the bus around): a loss over huge logits read at 105% of
// the copy's rate on an H100, so the bandwidth peak is the faster of the two (bench/calibration.cpp).
__kernel void read_bandwidth(__global const float4* in, __global float* out, int per_item) {
  const int gid = get_global_id(0), stride = get_global_size(0);
  float4 s = (float4)(0.0f);
  for (int i = 0; i < per_item; ++i) s += in[gid + i * stride];
  out[gid] = (s.x + s.y) + (s.z + s.w);
}
