#pragma once
// One device's OpenCL runtime: context, profiling queue, program builds through an on-disk cache,
// guarded buffers and timed launches under a watchdog.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "opencl/buffer.hpp"
#include "opencl/type_names.hpp"
#include "core/error.hpp"
#include "opencl/cl.hpp"
#include "opencl/device.hpp"
#include "opencl/oclgrind.hpp"
#include "plans/library.hpp"

namespace plumbline::ocl {

// Folder of the .cl sources (and their plans): PLUMBLINE_KERNEL_DIR, else the source tree's opencl/kernels.
using plans::kernel_dir;
// Folder of cached program binaries: PLUMBLINE_CACHE_DIR ("off" disables the cache), else
// $XDG_CACHE_HOME/plumbline, else ~/.cache/plumbline.
std::string cache_dir();
// A 64-bit FNV-1a hash: the name of a cache entry (each entry keeps its whole key, so that a collision
// is detected rather than trusted).
uint64_t fnv1a(const std::string& s);
// Whether the device's driver keeps its own cache of built programs, so that plumbline keeps none there:
// PoCL's kernel cache (program bitcode and each kernel's compiled work-group function, keyed by source
// and options; on unless POCL_KERNEL_CACHE=0). Reading a PoCL program's binary compiles every kernel in
// it for any work-group size, most of them never launched: with it, a cold check of softmax (20 cases)
// took 39.8 s, without it 3.4 s, and PoCL's cache then serves a second run as fast as ours did.
bool driver_caches_builds(const DeviceInfo& device);

// A kernel that faulted while it ran (an illegal address, out of resources, a lost device) or did not
// finish within the watchdog's limit: a failing verdict of the kernel, not an error of the input. After
// one, the context may be unusable (NVIDIA's is): the case that saw it is the last of its process.
class KernelFault : public Error {
 public:
  KernelFault(const std::string& what, bool hung) : Error(what), hung_(hung) {}
  bool hung() const { return hung_; }

 private:
  bool hung_;
};

// A program the compiler refused (the message carries its log).
class BuildFailure : public Error {
 public:
  using Error::Error;
};

// A launch a device simulator could not carry out (an instruction it does not know): the case is
// skipped, with this reason, rather than judged.
class SimulatorCannotRun : public Error {
 public:
  using Error::Error;
};

struct BuiltProgram {
  cl::Program program;
  bool from_cache = false;
  uint64_t identity = 0;  // a hash of what it was built from: device, driver, options, full source text
  std::string log;        // the compiler's messages, also on success (warnings)
};

// How a runtime builds its programs. A check on a CPU device runs kernels on small problems, where
// the compiler's optimization passes cost more than the cases (PoCL: three quarters of a cold
// `check --all`) and add nothing a check can see: IEEE arithmetic either way, and every error bound
// allows for a multiply-add contracted or not. Timing needs the optimized code, and so does a large
// problem (unoptimized, a GEMM of 1e10 FLOPs ran past its watchdog); a GPU's compiler is never asked
// for less.
enum class Builds {
  Optimized,  // the driver's defaults: bench, tune, eval
  ForChecks,  // -cl-opt-disable on CPU devices for problems of up to kUnoptimizedBuildFlops (check, mutants, rules)
};
inline constexpr double kUnoptimizedBuildFlops = 1e8;

class Runtime {
 public:
  explicit Runtime(DeviceInfo device, Builds builds = Builds::Optimized);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const DeviceInfo& device() const { return device_; }
  cl::Context& context() { return context_; }
  cl::CommandQueue& queue() { return queue_; }

  // Builds `source` with `options` and the device's feature defines (feature_defines); `what` names it in
  // messages (a file name). A failed build throws Error carrying the compiler's log.
  BuiltProgram build(const std::string& source, const std::string& options, const std::string& what);
  // " -DFEATURE_NAME=1" for each of the device's features (DeviceInfo::features, upper-cased): every
  // build gets them, so that a kernel can use an instruction the device has (storage.h's bf16 stores).
  std::string feature_defines() const;
  // " -cl-opt-disable" where this runtime builds the next problem's programs unoptimized (Builds), else "".
  std::string optimization_option() const;
  // Builds kernel_dir()/file (an absolute or ./ path is taken as is). Lines `#include "NAME"` are
  // replaced by kernel_dir()/NAME before the build, so that the cache key covers every line compiled.
  BuiltProgram build_file(const std::string& file, const std::string& options = "", const std::vector<std::string>& prelude = {});
  // A program's full source: the prelude's files (a plan's `file A B C`), then `file`, includes inlined.
  std::string program_source(const std::string& file, const std::vector<std::string>& prelude = {}) const;
  // The path of a kernel source: as given when absolute or ./-relative, else under kernel_dir().
  std::string source_path(const std::string& file) const;
  // What a build's identity and binary cache entry are keyed by: the device, its driver, the options
  // and the full source text.
  std::string build_key(const std::string& source, const std::string& options) const;
  // build_file's program, built once for this runtime (then kept): what a plan's steps run.
  const cl::Program& program(const std::string& file, const std::string& options, const std::vector<std::string>& prelude = {});
  // The type names program(file, options, prelude)'s source gives its parameters (opencl/type_names.hpp).
  const TypeNames& type_names(const std::string& file, const std::string& options, const std::vector<std::string>& prelude = {});
  // The identity (BuiltProgram::identity) of program(file, options), without building it: equal
  // identities run the same code on the same device.
  uint64_t program_identity(const std::string& file, const std::string& options, const std::vector<std::string>& prelude = {});
  // Seconds this runtime has spent building programs (from source or a cached binary) so far: where a
  // cold run's time goes (check --json's build_seconds).
  double build_seconds() const { return build_seconds_; }

  // A buffer of `elements` values of a storage format with guard zones on both sides; Error when the
  // device cannot hold it.
  GuardedBuffer buffer(const std::string& name, int64_t elements, DType dtype = DType::F32);

  // Enqueues and waits; returns the kernel's device time in seconds from its profiling event. A kernel
  // that faults, or is still running after the watchdog's limit, throws KernelFault.
  double run(const cl::Kernel& kernel, const cl::NDRange& global, const cl::NDRange& local, const std::string& what);
  // run's parts, for launches queued back to back: enqueue without waiting; wait for a command under
  // the watchdog (KernelFault as run); the device time from the start of `first` to the end of `last`.
  // Without with_event the command gets no event (an empty one is returned): an event costs the host
  // time on every enqueue (NVIDIA's), which a stream of short launches would measure.
  cl::Event enqueue(const cl::Kernel& kernel, const cl::NDRange& global, const cl::NDRange& local, const std::string& what, bool with_event = true);
  void wait(const cl::Event& event, const std::string& what);
  double seconds(const cl::Event& first, const cl::Event& last, const std::string& what);

  // The watchdog's limit for the launches that follow (KernelChecker sets it per problem from its work).
  void set_watchdog(double seconds) { watchdog_seconds_ = seconds; }
  // A device simulator (Oclgrind: opencl/oclgrind.hpp) that reports what each launch did wrong.
  bool simulated() const { return simulated_; }
  // What the simulator reported since the last call (the launches in between): empty elsewhere.
  std::vector<SanitizerReport> sanitizer_reports();
  // A simulator's detection of uninitialized values (Oclgrind's slowest detector: it quarters the speed
  // of the rest): on by default; switching recreates the context, and its programs are built again.
  void detect_uninitialized(bool on);
  bool detecting_uninitialized() const { return simulated_ && detect_uninitialized_; }
  // Where a buffer lies in the simulator's global memory (the addresses its reports name), asked of it
  // by a launch of a probe kernel.
  uint64_t simulated_address(const cl::Buffer& buffer);
  // The size of the problem whose programs are built next (KernelChecker sets it per problem): under
  // Builds::ForChecks it decides whether they are optimized.
  void set_problem_flops(double flops) { problem_flops_ = flops; }
  double watchdog() const { return watchdog_seconds_; }
  // How long a problem of this many FLOPs and bytes may run before it counts as hung: a generous factor
  // (1000) over an estimate from the device's compute units and clock, and at least 10 s.
  double watchdog_for(double flops, double bytes) const;

 private:
  DeviceInfo device_;
  std::string build_options_;       // what every build adds: the feature defines
  bool unoptimized_small_ = false;  // ForChecks on a CPU device, or a simulator
  bool simulated_ = false;
  std::string sanitizer_log_;  // the simulator's log of this runtime's context
  size_t sanitizer_read_ = 0;  // how much of it sanitizer_reports() has read
  std::optional<cl::Program> address_probe_;
  bool detect_uninitialized_ = true;
  void create_context();
  double problem_flops_ = 0;
  cl::Context context_;
  cl::CommandQueue queue_;
  double watchdog_seconds_ = 120;
  double build_seconds_ = 0;
  std::map<std::string, cl::Program> programs_;  // program(): by file and options
  std::map<std::string, uint64_t> identities_;   // their identities, by the same key
  std::map<std::string, TypeNames> type_names_;  // their parameters' type names, by the same key
  std::string program_key(const std::string& file, const std::string& options, const std::vector<std::string>& prelude) const;
};

// A plan's register cap on NVIDIA: the define MAX_REGISTERS=N (docs/kernel-abi.md) in a program's build
// options, 0 where there is none; an error for anything but 0-255. OpenCL has no launch bounds, and
// NVIDIA's OpenCL builds -cl-nv-maxrregcount=N and ignores it (docs/performance.md, "Tried and
// dropped"), so the runtime writes N into the PTX as `.maxnreg N` before each kernel's body (an entry
// with its own keeps it) and builds that PTX again: ptxas then keeps a work-item within N registers,
// spilling if it must, so that a multiprocessor holds as many work-groups as N allows.
int max_registers_define(const std::string& options);
std::string ptx_with_max_registers(std::string ptx, int registers);

// The local memory that `entry` declares in a program's PTX (NVIDIA's program binary): its `.shared`
// arrays (named ENTRY_$_...), laid out in order at their alignments. NVIDIA's CL_KERNEL_LOCAL_MEM_SIZE
// counts an array's alignment as padding besides (wgmma's 1024-aligned slabs: 1024 bytes over), where
// ptxas places the kernel's array at the window's aligned start; this is what ptxas allocates. Nothing
// where the text is no PTX, declares no such array or one that names no entry (shared memory this
// cannot attribute).
std::optional<size_t> ptx_local_bytes(const std::string& ptx, const std::string& entry);

// Sets kernel arguments in order: GuardedBuffer, cl::Buffer, cl::LocalSpaceArg or plain scalars.
template <class... Args>
void set_args(cl::Kernel& k, const Args&... args) {
  cl_uint i = 0;
  auto one = [&](const auto& a) {
    using A = std::decay_t<decltype(a)>;
    call("setting argument " + std::to_string(i) + " of kernel " + k.getInfo<CL_KERNEL_FUNCTION_NAME>(), [&] {
      if constexpr (std::is_same_v<A, GuardedBuffer>)
        k.setArg(i, a.cl());
      else
        k.setArg(i, a);
      return 0;
    });
    ++i;
  };
  (one(args), ...);
}

}  // namespace plumbline::ocl
