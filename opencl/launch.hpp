#pragma once
// How each operator's kernels are launched. Every entry point follows one ABI (docs/kernel-abi.md):
//   __kernel void ENTRY(inputs..., outputs..., scratch..., attributes...)
// with buffers in the signature's order (inputs const), then the plan's scratch buffers (float
// workspace shared by the steps, e.g. saved statistics), then every attribute of the operator in the
// registry's order: integers and flags as int, names as int (their index among the choices), eps as
// float. An operator runs as one or more steps, each an entry point with its own NDRange; every step
// receives the same arguments. A launch plan says which file, which entries and which NDRanges.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/problem.hpp"
#include "opencl/runtime.hpp"

namespace plumbline::ocl {

struct Dispatch {
  cl::NDRange global, local;
};

struct KernelStep {
  std::string entry;
  std::function<Dispatch(const Problem&)> dispatch;
  // The problems this step runs for (empty: all). Variants with other tensors (conv2d with a bias
  // has one more input) are separate entries, each with its own condition.
  std::function<bool(const Problem&)> when;
};

struct LaunchPlan {
  std::string file;  // under kernel_dir()
  std::vector<KernelStep> steps;
  // Sizes (in floats) of the scratch buffers the steps share; none when empty.
  std::function<std::vector<int64_t>(const Problem&)> scratch;
};

const LaunchPlan* find_launch_plan(const std::string& op);
std::vector<std::string> ops_with_kernels();

// Sets the ABI's arguments on `kernel` for problem p.
void set_abi_args(cl::Kernel& kernel, const Problem& p, const std::vector<GuardedBuffer*>& inputs,
                  const std::vector<GuardedBuffer*>& outputs, const std::vector<GuardedBuffer*>& scratch = {});

// Runs every step of the plan that applies to p with `program`; `entries`, when not empty, renames
// the plan's steps one for one (conditional steps included). Returns the summed kernel time in seconds.
double launch(Runtime& rt, const Problem& p, const LaunchPlan& plan, const cl::Program& program,
              const std::vector<std::string>& entries, const std::vector<GuardedBuffer*>& inputs,
              const std::vector<GuardedBuffer*>& outputs, const std::vector<GuardedBuffer*>& scratch = {});

// Dispatch helpers: one work-item per element in groups of `wg`; a 2-D grid of tiles.
Dispatch linear(int64_t count, size_t wg = 256);
Dispatch groups(int64_t count, size_t wg);  // `count` work-groups of `wg` work-items
Dispatch tiles2d(int64_t cols, int64_t rows, size_t tile, int64_t depth = 1);

// Family tables (opencl/launchers/<family>.cpp).
void add_elementwise_plans(std::map<std::string, LaunchPlan>& plans);
void add_reduction_plans(std::map<std::string, LaunchPlan>& plans);
void add_gemm_plans(std::map<std::string, LaunchPlan>& plans);
void add_pooling_plans(std::map<std::string, LaunchPlan>& plans);
void add_softmax_plans(std::map<std::string, LaunchPlan>& plans);
void add_norm_plans(std::map<std::string, LaunchPlan>& plans);
void add_conv_plans(std::map<std::string, LaunchPlan>& plans);

}  // namespace plumbline::ocl
