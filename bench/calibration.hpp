#pragma once
// What a device can do at best, measured by calibration kernels (opencl/kernels/calibration.cl):
// FP32 FMA throughput (16 independent float4 fma chains per work-item), memory bandwidth (a copy, and
// reads alone, of buffers far larger than any cache), and on NVIDIA (nvidia_sm80) the tensor cores'
// 16-bit rate. Best of several runs; stated as measured in the results.
#include <string>

#include "opencl/runtime.hpp"

namespace plumbline::bench {

struct DevicePeaks {
  double gflops = 0;     // FP32, an FMA counted as two
  double gbps = 0;       // bytes read + written per second, 1e9: the faster of the copy and the reads
  double copy_gbps = 0;  // the copy's alone: a drift check compares it with runs before the reads
  // 16-bit operands on the tensor cores (calibration_mma.cl), where the device has nvidia_sm80; else 0.
  // The roofline of f16 and bf16 problems there: their GEMMs run above the FP32 peak.
  double tensor_gflops = 0;
  std::string method;
};

DevicePeaks calibrate(ocl::Runtime& rt);

}  // namespace plumbline::bench
