#include "bench/calibration.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>

namespace plumbline::bench {

namespace {

// FLOP/s of a peak kernel that runs `iters` rounds of flops_per_round FLOPs per work-item: iters grown
// until one run takes 20 ms, then the best of 5 runs. set_iters sets the kernel's arguments for iters.
double best_rate(ocl::Runtime& rt, cl::Kernel& k, size_t global, double flops_per_round, const std::function<void(int)>& set_iters) {
  const size_t local = 128;
  const std::string name = k.getInfo<CL_KERNEL_FUNCTION_NAME>();  // for the runtime's messages
  int iters = 64;
  for (int attempt = 0; attempt < 12; ++attempt) {
    set_iters(iters);
    if (rt.run(k, cl::NDRange(global), cl::NDRange(local), name) >= 0.02) break;
    iters *= 2;
  }
  double best = 0;
  for (int run = 0; run < 5; ++run)
    best = std::max(best, flops_per_round * iters * global / rt.run(k, cl::NDRange(global), cl::NDRange(local), name));
  return best;
}

}  // namespace

DevicePeaks calibrate(ocl::Runtime& rt) {
  // A CPU's FMA peak needs its widest vectors (one AVX-512 register is 16 floats); a GPU's lanes are
  // its work-items, and float4 chains hide the latency there (opencl/kernels/calibration.cl).
  const int vec = rt.device().type == "cpu" ? 16 : 4;
  const cl::Program program = rt.build_file("calibration.cl", "-DPEAK_VEC=" + std::to_string(vec)).program;
  DevicePeaks peaks;
  std::string bandwidth;  // how the bandwidth peak was measured
  {
    const size_t global = std::max<size_t>(1, rt.device().compute_units) * 2048;
    ocl::GuardedBuffer out = rt.buffer("calibration_out", static_cast<int64_t>(global));
    cl::Kernel k(program, "fma_peak");
    peaks.gflops = best_rate(rt, k, global, 32.0 * vec, [&](int iters) { ocl::set_args(k, out, iters, 0.999f, 1e-3f); }) / 1e9;
  }
  {
    const int64_t budget =
        static_cast<int64_t>(std::min<uint64_t>({uint64_t{256} << 20, rt.device().max_alloc_bytes / 2, rt.device().global_mem_bytes / 8}));
    const int64_t floats = budget / 4 / 4 * 4;  // a whole number of float4
    ocl::GuardedBuffer in = rt.buffer("calibration_in", floats), out = rt.buffer("calibration_copy", floats);
    in.upload(std::vector<float>(static_cast<size_t>(floats), 1.0f));
    cl::Kernel copy(program, "copy_bandwidth");
    ocl::set_args(copy, in, out);
    // Reads alone: 16 float4 a work-item (fewer in a tiny buffer); their sums go to the copy's buffer.
    const int per_item = static_cast<int>(std::clamp<int64_t>(floats / 4, 1, 16));
    const int64_t readers = floats / 4 / per_item;
    cl::Kernel read(program, "read_bandwidth");
    ocl::set_args(read, in, out, per_item);
    double best_copy = 0, best_read = 0;
    for (int run = 0; run < 6; ++run) {
      best_copy = std::max(best_copy, 2.0 * 4.0 * static_cast<double>(floats) /
                                          rt.run(copy, cl::NDRange(static_cast<size_t>(floats / 4)), cl::NullRange, "copy_bandwidth"));
      best_read = std::max(best_read, 4.0 * static_cast<double>(readers * 4 * per_item + readers) /
                                          rt.run(read, cl::NDRange(static_cast<size_t>(readers)), cl::NullRange, "read_bandwidth"));
    }
    peaks.gbps = std::max(best_copy, best_read) / 1e9;
    peaks.copy_gbps = best_copy / 1e9;
    char buf[160];
    std::snprintf(buf, sizeof buf, " (copy %.1f GB/s, reads %.1f GB/s: the faster is the peak)", best_copy / 1e9, best_read / 1e9);
    bandwidth = buf;
  }
  std::string tensor;  // how the tensor cores' peak was measured
  if (std::find(rt.device().features.begin(), rt.device().features.end(), "nvidia_sm80") != rt.device().features.end()) {
    const cl::Program mma = rt.build_file("calibration_mma.cl", "").program;
    const size_t global = std::max<size_t>(1, rt.device().compute_units) * 1024;
    ocl::GuardedBuffer out = rt.buffer("calibration_mma_out", static_cast<int64_t>(global));
    cl::Kernel k(mma, "mma_peak");
    peaks.tensor_gflops = best_rate(rt, k, global, 1024.0, [&](int iters) { ocl::set_args(k, out, iters); }) / 1e9;
    char buf[200];
    std::snprintf(buf, sizeof buf, "; mma_peak (8 bf16 mma.sync chains per warp, calibration_mma.cl), best of 5: %.0f GFLOP/s", peaks.tensor_gflops);
    tensor = buf;
  }
  if (std::find(rt.device().features.begin(), rt.device().features.end(), "nvidia_sm90a") != rt.device().features.end()) {
    // Hopper: wgmma outruns mma.sync, so the tensor cores' peak is the faster of the two. A failure here
    // leaves mma_peak's figure, and the method says why.
    try {
      const cl::Program wgmma = rt.build_file("calibration_wgmma.cl", "").program;
      const size_t global = std::max<size_t>(1, rt.device().compute_units) * 1024;
      ocl::GuardedBuffer out = rt.buffer("calibration_wgmma_out", static_cast<int64_t>(global));
      cl::Kernel k(wgmma, "wgmma_peak");
      const double gflops = best_rate(rt, k, global, 16384.0, [&](int iters) { ocl::set_args(k, out, iters); }) / 1e9;
      char buf[200];
      std::snprintf(buf, sizeof buf, "; wgmma_peak (4 bf16 wgmma m64n256k16 a round per warpgroup, calibration_wgmma.cl), best of 5: %.0f GFLOP/s",
                    gflops);
      tensor += buf;
      peaks.tensor_gflops = std::max(peaks.tensor_gflops, gflops);
    } catch (const Error& e) {
      tensor += std::string("; wgmma_peak did not run (") + e.what() + ")";
    }
  }
  peaks.method = "measured: fma_peak (16 float" + std::to_string(vec) + " fma chains per work-item), copy_bandwidth and read_bandwidth (" +
                 std::to_string(std::min<uint64_t>({uint64_t{256} << 20, rt.device().max_alloc_bytes / 2, rt.device().global_mem_bytes / 8}) >> 20) +
                 " MiB)" + bandwidth + ", best of 5-6 runs (opencl/kernels/calibration.cl)" + tensor;
  return peaks;
}

}  // namespace plumbline::bench
