// The 16-bit tensor-core peak of an NVIDIA device (bench/calibration.cpp runs it where the device has
// the nvidia_sm80 feature): 8 independent mma.sync.m16n8k16 (bf16 operands, float accumulators) per
// warp and round, `iters` rounds; 8 * 4096 FLOPs a warp a round, 1024 a work-item. The same
// instruction as xgemm_mma.h's, so that 16-bit GEMMs' rooflines are measured against what it can do.
__kernel void mma_peak(__global float* out, int iters) {
  const uint lane = get_global_id(0) % 32;
  const uint a0 = 0x3F803F80u ^ lane, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, b0 = 0x3C003C00u ^ lane, b1 = b0 + 1;
  float c[8][4];
#pragma unroll
  for (int j = 0; j < 8; ++j) c[j][0] = c[j][1] = c[j][2] = c[j][3] = 0.0f;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int j = 0; j < 8; ++j)
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                   : "+f"(c[j][0]), "+f"(c[j][1]), "+f"(c[j][2]), "+f"(c[j][3])
                   : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  float total = 0.0f;
#pragma unroll
  for (int j = 0; j < 8; ++j) total += (c[j][0] + c[j][1]) + (c[j][2] + c[j][3]);
  out[get_global_id(0)] = total;
}
