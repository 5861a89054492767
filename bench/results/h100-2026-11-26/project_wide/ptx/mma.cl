// Does NVIDIA's OpenCL compiler take inline PTX, tensor-core mma.sync included?
__kernel void lane(__global uint* out) {
  uint l;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
  out[get_global_id(0)] = l;
}
__kernel void mma16816(__global const uint* a, __global const uint* b, __global float* d) {
  const uint t = get_local_id(0);
  uint a0 = a[t * 4 + 0], a1 = a[t * 4 + 1], a2 = a[t * 4 + 2], a3 = a[t * 4 + 3];
  uint b0 = b[t * 2 + 0], b1 = b[t * 2 + 1];
  float c0 = 0.f, c1 = 0.f, c2 = 0.f, c3 = 0.f;
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
      : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  d[t * 4 + 0] = c0; d[t * 4 + 1] = c1; d[t * 4 + 2] = c2; d[t * 4 + 3] = c3;
}
