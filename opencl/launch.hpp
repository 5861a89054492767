#pragma once
// Runs a launch plan's variant (plans/plan.hpp) on a device: binds each step's arguments to the kernel's
// parameters in the kernel's own order, checked against what the driver says of each parameter (a
// buffer for a pointer, a scalar of the parameter's type for a value, a size for a __local pointer),
// evaluates the NDRange and checks it against the kernel's and the device's limits, then launches.
// Every mismatch is an Error that names the plan line, the step, the parameter and the problem.
#include <map>
#include <string>
#include <vector>

#include "core/problem.hpp"
#include "opencl/runtime.hpp"
#include "plans/plan.hpp"

namespace plumbline::ocl {

// The buffers a variant's steps can name: the problem's tensors by name, the variant's scratch
// buffers in the plan's order.
struct Buffers {
  std::map<std::string, GuardedBuffer*> tensors;
  std::vector<GuardedBuffer*> scratch;
};

// The build options a variant's program is built with for a storage format: its defines, the format's
// (-DDTYPE_F32, -DDTYPE_F16 or -DDTYPE_BF16), and what the launcher needs to read the kernels'
// parameters (-cl-kernel-arg-info).
std::string program_options(const plans::Variant& v, DType dtype = DType::F32);

// Everything launch() checks before a kernel runs, without buffers: the parameters against the plan's
// arguments (kinds, counts, the range of every value), the NDRange against the limits. Error when a
// launch could not be right; run it before allocating anything.
void check_launch(Runtime& rt, const Problem& p, const plans::Variant& v, const cl::Program& program);

// Runs every step of v that applies to p with `program` (built from v's file with program_options(v, dtype_of(p))).
// Returns the summed kernel time in seconds (profiling events); with step_seconds, each step that ran
// also appends its own time there, in the plan's order.
double launch(Runtime& rt, const Problem& p, const plans::Variant& v, const cl::Program& program, const Buffers& buffers,
              std::vector<double>* step_seconds = nullptr);

// launch's two halves, for timing the same launch many times: each step that applies, its kernel bound
// to the buffers and its NDRange checked against the limits; then the steps run one at a time, each
// waited for, as launch.
struct PreparedStep {
  cl::Kernel kernel;
  cl::NDRange global, local;
  std::string entry;
};
std::vector<PreparedStep> prepare(Runtime& rt, const Problem& p, const plans::Variant& v, const cl::Program& program, const Buffers& buffers);
double launch(Runtime& rt, const std::vector<PreparedStep>& steps, std::vector<double>* step_seconds = nullptr);
// `launches` launches of every step queued back to back and waited for once, as a framework's stream
// runs them: the seconds from the first step's start to the last step's end, over `launches`. The
// gaps between commands are in it, as they are in CUDA events around a loop of calls.
double launch_stream(Runtime& rt, const std::vector<PreparedStep>& steps, int launches);

}  // namespace plumbline::ocl
