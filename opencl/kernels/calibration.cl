// Calibration kernels: what the device can do at best, measured (bench/calibration.cpp).

// FP32 FMA throughput: 16 independent fma chains of float4 per work-item (enough to hide the FMA
// latency), `iters` rounds; 128 FLOPs per round. The result is written so that nothing is elided.
__kernel void fma_peak(__global float* out, int iters, float b, float c) {
  const int gid = get_global_id(0);
  float4 a0 = (float4)(gid, gid + 1, gid + 2, gid + 3) * 1e-9f, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3;
  float4 a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7, a8 = a0 + 8, a9 = a0 + 9, a10 = a0 + 10, a11 = a0 + 11;
  float4 a12 = a0 + 12, a13 = a0 + 13, a14 = a0 + 14, a15 = a0 + 15;
  for (int i = 0; i < iters; ++i) {
    a0 = fma(a0, b, c); a1 = fma(a1, b, c); a2 = fma(a2, b, c); a3 = fma(a3, b, c);
    a4 = fma(a4, b, c); a5 = fma(a5, b, c); a6 = fma(a6, b, c); a7 = fma(a7, b, c);
    a8 = fma(a8, b, c); a9 = fma(a9, b, c); a10 = fma(a10, b, c); a11 = fma(a11, b, c);
    a12 = fma(a12, b, c); a13 = fma(a13, b, c); a14 = fma(a14, b, c); a15 = fma(a15, b, c);
  }
  const float4 s = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7)) + ((a8 + a9) + (a10 + a11)) + ((a12 + a13) + (a14 + a15));
  out[gid] = s.x + s.y + s.z + s.w;
}

// Memory bandwidth: a copy, one float4 read and one written per work-item.
__kernel void copy_bandwidth(__global const float4* in, __global float4* out) {
  const int gid = get_global_id(0);
  out[gid] = in[gid];
}
