#include "opencl/runtime.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <unistd.h>

#include "core/error.hpp"

namespace plumbline::ocl {

namespace fs = std::filesystem;

std::string cache_dir() {
  if (const char* env = std::getenv("PLUMBLINE_CACHE_DIR"); env && *env) return std::string(env) == "off" ? "" : env;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/plumbline";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/plumbline";
  return "";
}

bool driver_caches_builds(const DeviceInfo& device) {
  if (is_oclgrind(device)) return true;  // its binaries carry no source: its reports would name no line
  if (device.platform_name.find("Portable Computing Language") == std::string::npos) return false;
  const char* env = std::getenv("POCL_KERNEL_CACHE");
  return !(env && std::string(env) == "0");
}

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

namespace {

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("cannot read " + path);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

Runtime::Runtime(DeviceInfo device, Builds builds) : device_(std::move(device)) {
  build_options_ = feature_defines();
  simulated_ = is_oclgrind(device_);
  // A simulator builds unoptimized always: its detectors know LLVM's instructions of -O0 (Oclgrind
  // 21.10 stops at the `freeze` that -O2 makes, and at the scopes that inlining a `restrict`
  // parameter declares: restrict only permits optimizations, so its builds drop it).
  unoptimized_small_ = (builds == Builds::ForChecks && !device_.is_gpu) || simulated_;
  if (simulated_) {
    build_options_ += " -Drestrict=";
    static std::atomic<int> count{0};
    sanitizer_log_ =
        (fs::temp_directory_path() / ("plumbline_oclgrind_" + std::to_string(::getpid()) + "_" + std::to_string(count++) + ".log")).string();
  }
  create_context();
}

void Runtime::create_context() {
  if (simulated_) {
    // Oclgrind reads its log's name (OCLGRIND_LOG: one file per runtime, read after each launch by
    // sanitizer_reports) and its detectors from the environment when a context is created.
    static std::mutex env_mutex;
    std::lock_guard<std::mutex> lock(env_mutex);
    setenv("OCLGRIND_LOG", sanitizer_log_.c_str(), 1);
    setenv("OCLGRIND_UNINITIALIZED", detect_uninitialized_ ? "1" : "0", 1);
    context_ = call("creating a context on " + device_.selector, [&] { return cl::Context(device_.device); });
    sanitizer_read_ = 0;  // the new context's log starts afresh
  } else {
    context_ = call("creating a context on " + device_.selector, [&] { return cl::Context(device_.device); });
  }
  queue_ = call("creating a profiling queue on " + device_.selector,
                [&] { return cl::CommandQueue(context_, device_.device, CL_QUEUE_PROFILING_ENABLE); });
}

void Runtime::detect_uninitialized(bool on) {
  if (!simulated_ || on == detect_uninitialized_) return;
  detect_uninitialized_ = on;
  programs_.clear();
  address_probe_.reset();
  create_context();
}

namespace {

// NVIDIA's OpenCL compiler writes PTX for `.target sm_90` on Hopper, where Hopper's warpgroup
// instructions (wgmma) need sm_90a. A kernel writes such an instruction as inline PTX behind the marker
// `//SM90A: ` (a PTX comment, so that the first build passes, with the instruction's registers
// allocated from its asm operands); this removes the markers and sets the target to sm_90a, or leaves
// a program without a marker (every program but the wgmma variants') as it is.
const std::string kSm90aMarker = "//SM90A: ";
bool to_sm90a(std::string& ptx) {
  static const std::string target = ".target sm_90";  // then "," or the line's end
  if (ptx.find(kSm90aMarker) == std::string::npos) return false;
  const size_t at = ptx.find(target);
  const char after = at == std::string::npos || at + target.size() >= ptx.size() ? 'x' : ptx[at + target.size()];
  if (after != ',' && after != '\n' && after != ' ') {
    const size_t t = ptx.find(".target");
    throw Error("a program with //SM90A: lines was built for another target than sm_90 (" +
                (t == std::string::npos ? std::string("none named") : ptx.substr(t, ptx.find('\n', t) - t)) +
                "): its sm_90a code runs on compute capability 9.0 only (plans: needs nvidia_sm90a)");
  }
  ptx.insert(at + target.size(), "a");
  for (size_t p = ptx.find(kSm90aMarker); p != std::string::npos; p = ptx.find(kSm90aMarker, p)) ptx.erase(p, kSm90aMarker.size());
  return true;
}

// The program's PTX rewritten for a second build (sm_90a's instructions, a register cap), or nothing
// where it needs none (unless `always`: then the PTX as it is). Asked on NVIDIA's platform only.
std::vector<unsigned char> rewritten_ptx(const cl::Program& program, int max_registers, bool always) {
  std::vector<std::vector<unsigned char>> binaries;
  try {
    binaries = program.getInfo<CL_PROGRAM_BINARIES>();
  } catch (const cl::Error&) {
    return {};
  }
  if (binaries.empty()) return {};
  std::string ptx(binaries[0].begin(), binaries[0].end());
  bool rewritten = to_sm90a(ptx);
  if (max_registers > 0) {
    ptx = ptx_with_max_registers(ptx, max_registers);
    rewritten = true;
  }
  if (!rewritten && !always) return {};
  while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();  // the binary's terminator, put back below
  ptx.push_back('\0');
  return {ptx.begin(), ptx.end()};
}

}  // namespace

int max_registers_define(const std::string& options) {
  static const std::string name = "-DMAX_REGISTERS=";
  const size_t at = options.rfind(name);  // the last one, as the compiler takes a repeated define
  if (at == std::string::npos) return 0;
  const size_t from = at + name.size(), to = options.find_first_of(" \t", from);
  const std::string value = options.substr(from, to == std::string::npos ? std::string::npos : to - from);
  if (value.empty() || value.size() > 3 || value.find_first_not_of("0123456789") != std::string::npos || std::stoi(value) > 255)
    throw Error("MAX_REGISTERS=" + value + ": a register cap is a whole number from 0 (none) to 255");
  return std::stoi(value);
}

std::string ptx_with_max_registers(std::string ptx, int registers) {
  const std::string directive = ".maxnreg " + std::to_string(registers) + "\n";
  for (size_t at = ptx.find(".entry "); at != std::string::npos; at = ptx.find(".entry ", at + 7)) {
    const size_t body = ptx.find('{', at);  // after the parameters and the entry's directives (.reqntid, ...)
    if (body == std::string::npos) break;
    if (const size_t own = ptx.find(".maxnreg", at); own != std::string::npos && own < body) continue;  // its own cap stands
    ptx.insert(body, directive);
    at = body + directive.size();
  }
  return ptx;
}

std::optional<size_t> ptx_local_bytes(const std::string& ptx, const std::string& entry) {
  if (ptx.find(".target sm_") == std::string::npos) return std::nullopt;
  std::vector<std::string> entries;  // the program's kernels, to tell whose each array is
  for (size_t at = ptx.find(".entry "); at != std::string::npos; at = ptx.find(".entry ", at + 7)) {
    const size_t from = at + 7, to = ptx.find_first_of("( \n", from);
    entries.push_back(ptx.substr(from, to - from));
  }
  size_t bytes = 0;
  bool any = false;
  std::istringstream lines(ptx);
  for (std::string line; std::getline(lines, line);) {
    // `.shared .align A .b8 NAME[N];` (the declarations of kernel-scope __local arrays)
    const size_t at = line.find(".shared .align ");
    if (at == std::string::npos || line.find(".extern") != std::string::npos) continue;  // extern: local(BYTES) arguments, counted apart
    const size_t name_at = line.find(".b8 "), open = line.find('[');
    if (name_at == std::string::npos || open == std::string::npos || open < name_at) return std::nullopt;
    const std::string name = line.substr(name_at + 4, open - name_at - 4);
    size_t align = 0, size = 0;
    try {
      align = std::stoul(line.substr(at + 15)), size = std::stoul(line.substr(open + 1));
    } catch (const std::exception&) {
      return std::nullopt;  // a declaration of another form: the driver's figure stands
    }
    if (align == 0) return std::nullopt;
    const auto owner = std::find_if(entries.begin(), entries.end(), [&](const std::string& e) { return name.rfind(e + "_$_", 0) == 0; });
    if (owner == entries.end()) return std::nullopt;  // shared memory of no kernel's name
    if (*owner != entry) continue;
    bytes = (bytes + align - 1) / align * align + size;
    any = true;
  }
  if (!any) return std::nullopt;
  return bytes;
}

std::string Runtime::optimization_option() const {
  return unoptimized_small_ && (simulated_ || problem_flops_ <= kUnoptimizedBuildFlops) ? " -cl-opt-disable" : "";
}

Runtime::~Runtime() {
  if (sanitizer_log_.empty()) return;
  std::error_code ignored;
  fs::remove(sanitizer_log_, ignored);
}

uint64_t Runtime::simulated_address(const cl::Buffer& buffer) {
  if (!address_probe_)
    address_probe_ =
        build("__kernel void plumbline_address_of(__global const uchar* p, __global ulong* out) { out[0] = (ulong)p; }", "", "the address probe")
            .program;
  cl::Buffer out = call("allocating the address probe's output", [&] { return cl::Buffer(context_, CL_MEM_READ_WRITE, sizeof(cl_ulong)); });
  cl::Kernel kernel = call("creating the address probe", [&] { return cl::Kernel(*address_probe_, "plumbline_address_of"); });
  kernel.setArg(0, buffer);
  kernel.setArg(1, out);
  run(kernel, cl::NDRange(1), cl::NullRange, "the address probe");
  cl_ulong address = 0;
  call("reading the address probe's output", [&] { return queue_.enqueueReadBuffer(out, CL_TRUE, 0, sizeof address, &address); });
  return address;
}

std::vector<SanitizerReport> Runtime::sanitizer_reports() {
  if (sanitizer_log_.empty()) return {};
  std::ifstream f(sanitizer_log_, std::ios::binary);
  f.seekg(static_cast<std::streamoff>(sanitizer_read_));
  std::ostringstream text;
  text << f.rdbuf();
  sanitizer_read_ += text.str().size();
  return parse_oclgrind_log(text.str());
}

std::string Runtime::feature_defines() const {
  std::string defines;
  for (const std::string& f : device_.features) {
    std::string name = f;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    defines += " -DFEATURE_" + name + "=1";
  }
  return defines;
}

std::string Runtime::build_key(const std::string& source, const std::string& options) const {
  return "plumbline program cache v1\n" + device_.platform_name + "\n" + device_.platform_version + "\n" + device_.name + "\n" +
         device_.driver_version + "\n" + options + "\n" + source;
}

BuiltProgram Runtime::build(const std::string& source, const std::string& given_options, const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  struct Timed {  // every way out of here counts
    double& total;
    std::chrono::steady_clock::time_point start;
    ~Timed() { total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
  } timed{build_seconds_, start};
  // Every program sees the device's features as defines (FEATURE_NVIDIA_SM80=1, ...): storage.h picks an
  // instruction the device has where portable code would do the same in several (docs/kernel-abi.md).
  const std::string options = given_options + build_options_ + optimization_option();
  const int max_registers = [&] {  // a bad cap is an error on every device; NVIDIA's alone applies it
    try {
      return max_registers_define(options);
    } catch (const Error& e) {
      throw Error("building " + what + " with " + given_options + ": " + e.what());
    }
  }();
  const std::string key = build_key(source, options);
  const std::string dir = driver_caches_builds(device_) ? "" : cache_dir();
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(key)));
  const std::string path = dir.empty() ? "" : dir + "/" + hex + ".bin";

  auto log_of = [&](const cl::Program& p) {
    try {
      return p.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_.device);
    } catch (const cl::Error&) {
      return std::string();
    }
  };

  // A cached binary: used when its key matches and the driver accepts it; otherwise built afresh.
  if (!path.empty() && fs::exists(path)) {
    try {
      const std::string file = read_text(path);
      if (file.size() > key.size() && file.compare(0, key.size(), key) == 0 && file[key.size()] == '\0') {
        std::vector<unsigned char> binary(file.begin() + static_cast<long>(key.size()) + 1, file.end());
        cl::Program p(context_, {device_.device}, cl::Program::Binaries{binary});
        p.build({device_.device}, options.c_str());
        return {p, true, fnv1a(key), log_of(p)};
      }
    } catch (const cl::Error&) {
      // A stale or foreign binary: fall through to a source build, which replaces it.
    }
  }

  const bool nvidia = device_.platform_name.find("NVIDIA") != std::string::npos;  // binaries elsewhere are no PTX
  // A program whose PTX is rewritten and built again needs its first build for the PTX alone: that build
  // runs ptxas at -O0 (NVIDIA passes -cl-nv-opt-level to ptxas; the PTX is the same), and its PTX is
  // then always built again with the program's own options, rewritten or not (the marker may sit in
  // code that the preprocessor drops). A driver that refuses the option builds as it is.
  bool ptx_only = nvidia && (max_registers > 0 || source.find(kSm90aMarker) != std::string::npos);
  cl::Program program = call("creating program " + what, [&] { return cl::Program(context_, source); });
  try {
    try {
      program.build({device_.device}, (options + (ptx_only ? " -cl-nv-opt-level=0" : "")).c_str());
    } catch (const cl::Error& e) {
      if (!ptx_only || e.err() != CL_INVALID_BUILD_OPTIONS) throw;
      ptx_only = false;
      program.build({device_.device}, options.c_str());
    }
  } catch (const cl::Error& e) {
    throw BuildFailure("building " + what + " failed on " + device_.selector + " (" + device_.name + ") with " + error_name(e.err()) +
                       "; build log:\n" + log_of(program));
  }
  if (const auto ptx = nvidia ? rewritten_ptx(program, max_registers, ptx_only) : std::vector<unsigned char>{}; !ptx.empty()) {
    // The second pass: the PTX with its sm_90a instructions or register cap, built as a program binary.
    cl::Program rewritten(context_, {device_.device}, cl::Program::Binaries{ptx});
    try {
      rewritten.build({device_.device}, options.c_str());
    } catch (const cl::Error& e) {
      throw BuildFailure("building " + what + "'s rewritten PTX (its //SM90A: lines, or MAX_REGISTERS) failed on " + device_.selector + " (" +
                         device_.name + ") with " + error_name(e.err()) + "; build log:\n" + log_of(rewritten));
    }
    program = rewritten;
  }
  if (!path.empty()) {
    try {
      const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
      if (!binaries.empty() && !binaries[0].empty()) {
        fs::create_directories(dir);
        const std::string tmp = path + ".tmp" + std::to_string(::getpid());
        {
          std::ofstream f(tmp, std::ios::binary);
          f.write(key.data(), static_cast<std::streamsize>(key.size()));
          f.put('\0');
          f.write(reinterpret_cast<const char*>(binaries[0].data()), static_cast<std::streamsize>(binaries[0].size()));
        }
        fs::rename(tmp, path);  // atomic: a concurrent reader sees the old file or the whole new one
      }
    } catch (const std::exception&) {
      // The cache is an optimization: an unwritable cache folder costs a rebuild next time, nothing else.
    }
  }
  return {program, false, fnv1a(key), log_of(program)};
}

namespace {

// `#line N "PATH"`: the compilers' messages, and a simulator's debug information, name PATH's line N
// rather than a line of the inlined text (PoCL's temporary file, Oclgrind's input.cl).
std::string line_directive(int line, const std::string& path) {
  std::string quoted;
  for (char c : path) quoted += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return "#line " + std::to_string(line) + " \"" + quoted + "\"\n";
}

// Inlines `#include "NAME"` lines, recursively (depth-limited against cycles): NAME is looked up
// beside the including file first (a user's own headers, another revision's kernels), then in
// kernel_dir() (our headers, for users' kernels elsewhere). Each file's lines keep their own numbers.
std::string inline_includes(const std::string& source, const std::string& path, int depth = 0) {
  if (depth > 8) throw Error(path + ": #include nested more than 8 deep (a cycle?)");
  std::istringstream in(source);
  std::string line, out = line_directive(1, path);
  const std::string here = fs::path(path).parent_path().string();
  for (int number = 1; std::getline(in, line); ++number) {
    const size_t at = line.find("#include \"");
    if (at != std::string::npos && line.find_first_not_of(" \t") == at) {
      const size_t end = line.find('"', at + 10);
      const std::string name = end == std::string::npos ? "" : line.substr(at + 10, end - at - 10);
      std::string header = (here.empty() ? "." : here) + "/" + name;
      if (!fs::exists(header)) header = kernel_dir() + "/" + name;
      if (end == std::string::npos || !fs::exists(header))
        throw Error(path + ": cannot include '" + name + "' (looked beside it and in " + kernel_dir() + ")");
      out += inline_includes(read_text(header), header, depth + 1) + "\n" + line_directive(number + 1, path);
      continue;
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::string Runtime::source_path(const std::string& file) const {
  const bool as_is = !file.empty() && (file[0] == '/' || file.rfind("./", 0) == 0 || file.rfind("../", 0) == 0);
  const std::string path = as_is ? file : kernel_dir() + "/" + file;
  if (!fs::exists(path))
    throw Error("kernel source " + path + " not found" + (as_is ? "" : " (set PLUMBLINE_KERNEL_DIR to the folder of the .cl files)"));
  return path;
}

std::string Runtime::program_source(const std::string& file, const std::vector<std::string>& prelude) const {
  std::string text;
  for (const auto& f : prelude) {
    const std::string path = source_path(f);
    text += inline_includes(read_text(path), path) + "\n";
  }
  const std::string path = source_path(file);
  return text + inline_includes(read_text(path), path);
}

BuiltProgram Runtime::build_file(const std::string& file, const std::string& options, const std::vector<std::string>& prelude) {
  return build(program_source(file, prelude), options, source_path(file));
}

std::string Runtime::program_key(const std::string& file, const std::string& options, const std::vector<std::string>& prelude) const {
  std::string key;
  for (const auto& f : prelude) key += f + "\n";
  return key + file + "\n" + options + optimization_option();
}

const cl::Program& Runtime::program(const std::string& file, const std::string& options, const std::vector<std::string>& prelude) {
  const std::string key = program_key(file, options, prelude);
  auto it = programs_.find(key);
  if (it == programs_.end()) {
    BuiltProgram built = build_file(file, options, prelude);
    identities_[key] = built.identity;
    it = programs_.emplace(key, built.program).first;
  }
  return it->second;
}

const TypeNames& Runtime::type_names(const std::string& file, const std::string& options, const std::vector<std::string>& prelude) {
  const std::string key = program_key(file, options, prelude);
  auto it = type_names_.find(key);
  if (it == type_names_.end()) it = type_names_.emplace(key, TypeNames(program_source(file, prelude), options + build_options_)).first;
  return it->second;
}

uint64_t Runtime::program_identity(const std::string& file, const std::string& options, const std::vector<std::string>& prelude) {
  const std::string key = program_key(file, options, prelude);
  if (auto it = identities_.find(key); it != identities_.end()) return it->second;
  // Without building it: what build() would hash (the device's feature defines and optimization included).
  return identities_[key] = fnv1a(build_key(program_source(file, prelude), options + build_options_ + optimization_option()));
}

GuardedBuffer Runtime::buffer(const std::string& name, int64_t elements, DType dtype) {
  if (elements < 1) throw Error("buffer '" + name + "' must hold at least one element");
  const uint64_t width = static_cast<uint64_t>(bytes_of(dtype));
  const uint64_t align_bytes = std::max<uint64_t>(device_.base_addr_align_bits / 8, 4);
  const int64_t guard = static_cast<int64_t>(std::max<uint64_t>(256, align_bytes / width));
  const uint64_t bytes = static_cast<uint64_t>(elements + 2 * guard) * width;
  if (bytes > device_.max_alloc_bytes)
    throw Error("buffer '" + name + "' needs " + std::to_string(bytes) + " bytes, but " + device_.selector + " (" + device_.name +
                ") allows at most " + std::to_string(device_.max_alloc_bytes) + " bytes in one allocation");
  // A device that computes in host memory (a CPU's driver, not a simulator's own memory) gets fenced
  // buffers: a runaway write faults in its case instead of corrupting this process's heap.
  const bool fenced = device_.type == "cpu" && !simulated_;
  return GuardedBuffer(context_, queue_, name, elements, guard, dtype, fenced, static_cast<size_t>(align_bytes));
}

double Runtime::watchdog_for(double flops, double bytes) const {
  // Peak estimates from what the device says of itself: lanes per compute unit as on NVIDIA's SMs (128)
  // or a CPU core's AVX-512 FMA units (32); bandwidth by kind. Rough on purpose: the factor covers it.
  // A simulator runs some millions of instructions a second.
  const bool gpu = device_.is_gpu;
  const double flops_per_s = simulated_ ? 1e6
                                        : std::max(1.0, static_cast<double>(device_.compute_units)) *
                                              std::max(500.0, static_cast<double>(device_.clock_mhz)) * 1e6 * 2 * (gpu ? 128 : 32);
  const double bytes_per_s = simulated_ ? 1e6 : gpu ? 500e9 : 10e9;
  return std::max(10.0, 1000 * (flops / flops_per_s + bytes / bytes_per_s));
}

cl::Event Runtime::enqueue(const cl::Kernel& kernel, const cl::NDRange& global, const cl::NDRange& local, const std::string& what, bool with_event) {
  cl::Event event;
  // A launch refused for lack of resources after an earlier fault is the kernel's failure: KernelFault
  // (configuration errors were caught before the launch).
  try {
    queue_.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, with_event ? &event : nullptr);
  } catch (const cl::Error& e) {
    if (e.err() == CL_OUT_OF_RESOURCES || e.err() == CL_OUT_OF_HOST_MEMORY || e.err() < -1000)
      throw KernelFault("OpenCL error " + error_name(e.err()) + " launching " + what + " on " + device_.selector, false);
    fail(e.err(), "launching " + what + " on " + device_.selector);
  }
  return event;
}

namespace {

// What the driver's callbacks say of one command: when it started running, whether it completed, and
// its error status. Each registered callback holds a reference, so that a callback that comes after the
// waiter gave up (a hung kernel) finds the state alive.
struct CommandState {
  std::mutex mutex;
  std::condition_variable changed;
  bool running = false, complete = false;
  cl_int status = CL_COMPLETE;
  std::chrono::steady_clock::time_point started;
};

void CL_CALLBACK on_command_status(cl_event, cl_int status, void* user) {
  auto* held = static_cast<std::shared_ptr<CommandState>*>(user);
  {
    std::lock_guard<std::mutex> lock((*held)->mutex);
    CommandState& c = **held;
    if (!c.running) c.running = true, c.started = std::chrono::steady_clock::now();
    if (status == CL_COMPLETE || status < 0) c.complete = true, c.status = status;
  }
  (*held)->changed.notify_all();
  delete held;
}

}  // namespace

void Runtime::wait(const cl::Event& event, const std::string& what) {
  try {
    queue_.flush();
  } catch (const cl::Error& e) {
    throw KernelFault("OpenCL error " + error_name(e.err()) + " submitting " + what + " on " + device_.selector, false);
  }
  // The watchdog counts from the moment the kernel runs: PoCL compiles a kernel for its work-group size
  // at its first launch, before the command runs (20 s for a large GEMM tile in f16), and that is not
  // the kernel's time. Reaching the device at all gets a limit of its own, kStartLimit. A fault reported
  // while waiting is the kernel's failure. The driver tells of each change through callbacks (a
  // launch of a few microseconds is not held up by a polling interval).
  constexpr double kStartLimit = 600;
  const auto submitted = std::chrono::steady_clock::now();
  const auto state = std::make_shared<CommandState>();
  for (const cl_int status : {CL_RUNNING, CL_COMPLETE}) {
    auto* held = new std::shared_ptr<CommandState>(state);
    if (clSetEventCallback(event(), status, on_command_status, held) != CL_SUCCESS) {
      delete held;
      throw Error("cannot watch " + what + " on " + device_.selector + ": clSetEventCallback failed");
    }
  }
  const double start_limit = std::max(kStartLimit, watchdog_seconds_);
  auto seconds = [](double s) { return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s)); };
  // Between callbacks the status is also asked now and then: some drivers run a command only when
  // asked (Oclgrind), or call back late.
  auto poll = std::chrono::microseconds(500);
  std::unique_lock<std::mutex> lock(state->mutex);
  while (!state->complete) {
    const auto now = std::chrono::steady_clock::now();
    const auto deadline = state->running ? state->started + seconds(watchdog_seconds_) : submitted + seconds(start_limit);
    if (now > deadline) {
      keep_fenced_memory_mapped();  // the kernel may go on writing its buffers
      if (!state->running)
        throw KernelFault("watchdog: " + what + " was not started within " + std::to_string(static_cast<int>(start_limit)) + " s on " +
                              device_.selector + " (" + device_.name + ")",
                          true);
      throw KernelFault("watchdog: " + what + " did not finish within " + std::to_string(static_cast<int>(watchdog_seconds_)) + " s on " +
                            device_.selector + " (" + device_.name + "): it hangs, or is far slower than the problem's work allows",
                        true);
    }
    if (state->changed.wait_until(lock, std::min(deadline, now + poll), [&] { return state->complete; })) break;
    poll = std::min<std::chrono::microseconds>(2 * poll, std::chrono::milliseconds(20));
    lock.unlock();
    cl_int status = 0;
    try {
      status = event.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
    } catch (const cl::Error& e) {
      status = e.err();
    }
    lock.lock();
    if (!state->running && status <= CL_RUNNING) state->running = true, state->started = std::chrono::steady_clock::now();
    if (status == CL_COMPLETE || status < 0) state->complete = true, state->status = status;
  }
  if (state->status < 0)
    throw KernelFault(what + " faulted on " + device_.selector + " (" + device_.name + "): OpenCL status " + error_name(state->status) +
                          " (an out-of-bounds access, a misaligned vector access, or too many resources)",
                      false);
}

double Runtime::seconds(const cl::Event& first, const cl::Event& last, const std::string& what) {
  const cl_ulong t0 = call("reading the profile of " + what, [&] { return first.getProfilingInfo<CL_PROFILING_COMMAND_START>(); });
  const cl_ulong t1 = call("reading the profile of " + what, [&] { return last.getProfilingInfo<CL_PROFILING_COMMAND_END>(); });
  return static_cast<double>(t1 - t0) * 1e-9;
}

double Runtime::run(const cl::Kernel& kernel, const cl::NDRange& global, const cl::NDRange& local, const std::string& what) {
  const cl::Event event = enqueue(kernel, global, local, what);
  wait(event, what);
  return seconds(event, event, what);
}

}  // namespace plumbline::ocl
