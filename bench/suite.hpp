#pragma once
// The benchmark suite: every problem of the batch files on every selected device (and, if asked, on
// the CPU peer), through Google Benchmark. Per problem and device: the kernel is checked against the
// reference once (a wrong kernel is an error, never a time), warmed up, then timed from OpenCL
// profiling events (manual time) over N repetitions; counters GFLOP/s, GB/s and % of the device's
// measured peaks. The JSON is Google Benchmark's, with the devices, their peaks and the build in its
// context.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/batch.hpp"
#include "bench/timed.hpp"
#include "check/kernel_check.hpp"

namespace plumbline::bench {

struct SuiteOptions {
  std::vector<BatchEntry> problems;
  std::string devices = "all";  // selector
  plans::KernelSource source;   // whose kernels to time: ours, or the user's
  int repetitions = 9;
  double min_time = 0.1;           // seconds of kernel time per repetition
  Timing timing = Timing::Launch;  // bench/timed.hpp
  bool cpu_peer = false;
  bool clblast_peer = false;  // CLBlast SGEMM beside our GEMMs on each device
  std::string json;           // Google Benchmark JSON out ("" for none)
  std::string filter;         // a regex on benchmark names ("" for all)
  double check_budget = 3e8;  // FLOPs of the reference check before timing
  uint64_t seed = 1;
  bool verbose = false;  // Google Benchmark's own table instead of one line per benchmark
  // Checks already made, by benchmark name (bench --jobs: made by child processes side by side); a line
  // not here is checked when it is first timed.
  std::map<std::string, CheckOnce> checked;
};

// Runs the suite; returns 0, or 1 when a kernel failed its check (it is then reported as an error).
int run_suite(const SuiteOptions& options);

// bench --jobs: one child process's share of the checks, problems j % count == index on every
// device, made as the timing run makes them and written to `out` a JSON line each (nothing timed).
void check_lines(const SuiteOptions& options, int index, int count, const std::string& out);
// check_lines's file read back, by benchmark name.
std::map<std::string, CheckOnce> read_checks(const std::string& path);

// "conv2d:n=32,...@nvidia:0": the name under which a problem's time is recorded.
std::string benchmark_name(const Problem& p, const std::string& where);

}  // namespace plumbline::bench
