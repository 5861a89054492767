#include "opencl/launch.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>
#include <set>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"

namespace plumbline::ocl {

namespace {

// What the driver says of one kernel parameter (when the program was built with -cl-kernel-arg-info).
struct Param {
  bool known = false;
  cl_kernel_arg_address_qualifier address = CL_KERNEL_ARG_ADDRESS_PRIVATE;
  std::string type, name;  // "float*", "int": the built-in type its type name stands for
  std::string declared;    // the type name as the kernel declares it ("realMD*"): messages
  bool is_const = false;

  bool pointer() const { return known && address != CL_KERNEL_ARG_ADDRESS_PRIVATE; }
  std::string str() const {
    if (!known) return "?";
    std::string a = address == CL_KERNEL_ARG_ADDRESS_GLOBAL     ? "global "
                    : address == CL_KERNEL_ARG_ADDRESS_LOCAL    ? "local "
                    : address == CL_KERNEL_ARG_ADDRESS_CONSTANT ? "constant "
                                                                : "";
    return (is_const ? "const " : "") + a + declared + (declared == type ? "" : " (" + type + ")") + " " + name;
  }
  // Where the type name resolved to no type plumbline knows: how to declare it.
  std::string undeclared() const {
    static const char* builtins[] = {"float", "half", "double", "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "size_t", "bool"};
    std::string base = type;
    while (!base.empty() && (base.back() == '*' || std::isdigit(static_cast<unsigned char>(base.back())))) base.pop_back();
    for (const char* b : builtins)
      if (base == b) return "";
    std::string name = type;
    while (!name.empty() && name.back() == '*') name.pop_back();
    return " ('" + name +
           "' is no OpenCL type, and no typedef or #define of it is read under this build's defines: declare it in the plan, e.g. `type " + name +
           " float`)";
  }
};

// The kernel's parameters, their type names resolved through the program's typedefs and macros
// (`real_arg` -> `float`, `realMD*` -> `float2*`).
std::vector<Param> params_of(const cl::Kernel& k, const TypeNames& names) {
  const cl_uint n = call("counting the parameters of a kernel", [&] { return k.getInfo<CL_KERNEL_NUM_ARGS>(); });
  std::vector<Param> out(n);
  for (cl_uint i = 0; i < n; ++i) {
    try {
      Param p;
      p.address = k.getArgInfo<CL_KERNEL_ARG_ADDRESS_QUALIFIER>(i);
      p.type = k.getArgInfo<CL_KERNEL_ARG_TYPE_NAME>(i);
      p.name = k.getArgInfo<CL_KERNEL_ARG_NAME>(i);
      p.is_const = (k.getArgInfo<CL_KERNEL_ARG_TYPE_QUALIFIER>(i) & CL_KERNEL_ARG_TYPE_CONST) != 0;
      // Drivers differ in trailing NULs and spaces.
      for (std::string* s : {&p.type, &p.name}) {
        while (!s->empty() && (s->back() == '\0' || s->back() == ' ')) s->pop_back();
        s->erase(std::remove(s->begin(), s->end(), ' '), s->end());
      }
      p.declared = p.type;
      p.type = names.resolve(p.type);
      p.known = true;
      out[i] = p;
    } catch (const cl::Error&) {
      // CL_KERNEL_ARG_INFO_NOT_AVAILABLE: the parameters' count is all we know
    }
  }
  return out;
}

std::string list_params(const std::vector<Param>& ps) {
  std::string s;
  for (const auto& p : ps) s += (s.empty() ? "" : ", ") + p.str();
  return s;
}

std::string list_args(const plans::Step& st) {
  std::string s;
  for (const auto& a : st.args) s += (s.empty() ? "" : ", ") + a.text;
  return s;
}

// Which parameter lacks an argument, or which argument lacks a parameter, when the counts differ.
std::string count_mismatch(const plans::Step& st, const std::vector<Param>& ps) {
  const size_t np = ps.size(), na = st.args.size();
  std::string msg = "kernel " + st.entry + " takes " + std::to_string(np) + " parameter" + (np == 1 ? "" : "s") + ", the plan gives " +
                    std::to_string(na) + " argument" + (na == 1 ? "" : "s") + "\n  kernel: " + list_params(ps) + "\n  plan:   " + list_args(st);
  auto named = [&](const std::string& n) {
    for (const auto& a : st.args)
      if (a.name == n || a.text == n) return true;
    return false;
  };
  if (na < np) {
    for (size_t i = 0; i < np; ++i)
      if (ps[i].known && !named(ps[i].name)) return msg + "\n  parameter " + std::to_string(i + 1) + " '" + ps[i].str() + "' has no argument";
    return msg + "\n  the last " + std::to_string(np - na) + " parameter(s) have no argument";
  }
  for (size_t j = 0; j < na; ++j) {
    const bool found =
        std::any_of(ps.begin(), ps.end(), [&](const Param& p) { return p.known && (p.name == st.args[j].name || p.name == st.args[j].text); });
    if (!found && ps.size() && ps[0].known) return msg + "\n  argument " + std::to_string(j + 1) + " '" + st.args[j].text + "' matches no parameter";
  }
  return msg + "\n  the last " + std::to_string(na - np) + " argument(s) have no parameter";
}

template <class T>
void set_scalar(cl::Kernel& k, cl_uint i, const plans::Value& v, const std::string& what, const std::string& type, bool set) {
  T x{};
  if constexpr (std::is_floating_point_v<T>) {
    x = static_cast<T>(v.f());
  } else {
    if (!v.is_int()) throw Error(what + " is the float " + v.str() + ", but the parameter is " + type);
    const int64_t i64 = v.i();
    if (i64 < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
        (i64 > 0 && static_cast<uint64_t>(i64) > static_cast<uint64_t>(std::numeric_limits<T>::max())))
      throw Error(what + " is " + std::to_string(i64) + ", outside the range of the parameter's type " + type);
    x = static_cast<T>(i64);
  }
  if (!set) return;  // checking only
  call("setting " + what, [&] {
    k.setArg(i, sizeof(T), &x);
    return 0;
  });
}

void set_value(cl::Kernel& k, cl_uint i, const Param& p, const plans::Value& v, const std::string& what, bool set) {
  std::string t = p.known ? p.type : (v.is_int() ? "int" : "float");
  if (t == "unsignedint") t = "uint";
  if (t == "int") return set_scalar<cl_int>(k, i, v, what, t, set);
  if (t == "uint") return set_scalar<cl_uint>(k, i, v, what, t, set);
  if (t == "long") return set_scalar<cl_long>(k, i, v, what, t, set);
  if (t == "ulong" || t == "size_t") return set_scalar<cl_ulong>(k, i, v, what, t, set);
  if (t == "short") return set_scalar<cl_short>(k, i, v, what, t, set);
  if (t == "ushort") return set_scalar<cl_ushort>(k, i, v, what, t, set);
  if (t == "char") return set_scalar<cl_char>(k, i, v, what, t, set);
  if (t == "uchar") return set_scalar<cl_uchar>(k, i, v, what, t, set);
  if (t == "float") return set_scalar<cl_float>(k, i, v, what, t, set);
  if (t == "double") return set_scalar<cl_double>(k, i, v, what, t, set);
  throw Error(what + ": plumbline cannot pass a value to a parameter of type " + t + p.undeclared());
}

// The storage format of the tensor `name` (Signature::storage_of: class indices stay float32).
DType tensor_format(const Signature& sig, const std::string& name) {
  for (const auto* list : {&sig.inputs, &sig.outputs})
    for (const auto& t : *list)
      if (t.name == name) return sig.storage_of(t);
  return sig.dtype;
}

// Before the first launch of a step: an output bound to a `const` pointer (which the kernel cannot
// write), or an input bound to a pointer without `const` where other pointers have it, is
// most likely a swapped argument: said on stderr, once per step (the launch goes on and is judged).
void warn_of_swapped_tensors(const plans::Step& st, const Signature& sig, const std::vector<Param>& ps) {
  static std::mutex mutex;
  static std::set<std::string> warned;
  auto is_output = [&](const std::string& name) {
    return std::any_of(sig.outputs.begin(), sig.outputs.end(), [&](const TensorDecl& t) { return t.name == name; });
  };
  std::vector<std::string> problems;
  int const_pointers = 0;  // a kernel that marks some parameters const marks its inputs
  for (const Param& p : ps) const_pointers += p.pointer() && p.is_const;
  for (size_t i = 0; i < ps.size() && i < st.args.size(); ++i) {
    const plans::Arg& a = st.args[i];
    if (!ps[i].known || !ps[i].pointer() || a.name.empty() || a.kind == plans::Arg::Kind::Local || a.kind == plans::Arg::Kind::Scratch) continue;
    const bool output = is_output(a.name),
               input = !output && std::any_of(sig.inputs.begin(), sig.inputs.end(), [&](const TensorDecl&t) { return t.name == a.name; });
    if (output && ps[i].is_const)
      problems.push_back("output '" + a.name + "' is bound to parameter " + std::to_string(i + 1) + " (" + ps[i].str() +
                         "), which is const: the kernel cannot write it");
    else if (input && !ps[i].is_const && const_pointers > 0)
      problems.push_back("input '" + a.name + "' is bound to parameter " + std::to_string(i + 1) + " (" + ps[i].str() +
                         "), which is not const where others of the kernel's pointers are");
  }
  if (problems.empty()) return;
  std::lock_guard<std::mutex> lock(mutex);
  if (!warned.insert(st.where.str() + " " + st.entry).second) return;
  std::string text;
  for (const auto& w : problems) text += "\n  " + w;
  std::fprintf(stderr, "plumbline: warning: step %s (%s): arguments in the wrong order?%s\n", st.entry.c_str(), st.where.str().c_str(), text.c_str());
}

// Binds the step's arguments to the kernel's parameters.
void bind_args(cl::Kernel& k, const plans::Variant& v, const plans::Step& st, const Problem& p, const Buffers* b, const std::vector<Param>& ps,
               size_t& local_bytes) {
  if (ps.size() != st.args.size()) throw Error(count_mismatch(st, ps));
  const plans::Env env = plans::env_for(v, p);
  const Signature sig = signature_of(p);  // once per step, not per tensor argument
  std::map<std::string, size_t> scratch_index;
  for (size_t i = 0; i < v.scratch.size(); ++i) scratch_index[v.scratch[i].name] = i;
  if (v.steps.size() == 1) warn_of_swapped_tensors(st, sig, ps);  // in several steps, a later one may read an earlier one's output
  for (cl_uint i = 0; i < ps.size(); ++i) {
    const plans::Arg& a = st.args[i];
    const Param& pr = ps[i];
    const std::string what = "argument " + std::to_string(i + 1) + " '" + a.text + "' (parameter " + pr.str() + ")";
    plans::Arg::Kind kind = a.kind;
    if (kind == plans::Arg::Kind::TensorOrValue) {
      if (!pr.known)
        throw Error(what + ": '" + a.name + "' is both a tensor and an attribute of " + p.op() +
                    ", and the driver does not say whether the parameter is a pointer: write tensor:" + a.name + " or attr:" + a.name);
      kind = pr.pointer() ? plans::Arg::Kind::Tensor : plans::Arg::Kind::Value;
    }
    switch (kind) {
      case plans::Arg::Kind::Tensor:
      case plans::Arg::Kind::Scratch: {
        if (kind == plans::Arg::Kind::Tensor && !env.tensor(a.name)) throw Error(what + ": " + p.line() + " has no tensor '" + a.name + "'");
        if (pr.known && pr.address != CL_KERNEL_ARG_ADDRESS_GLOBAL && pr.address != CL_KERNEL_ARG_ADDRESS_CONSTANT)
          throw Error(what + ": a buffer needs a global pointer parameter");
        const bool counters = kind == plans::Arg::Kind::Scratch && v.scratch[scratch_index.at(a.name)].counters;
        if (pr.known && counters) {
          if (pr.type.rfind("uint", 0) != 0 && pr.type.rfind("int", 0) != 0)
            throw Error(what + ": '" + a.name + "' holds 32-bit counters (uint*), the parameter is " + pr.type);
        } else if (pr.known) {  // the parameter's type against the buffer's storage format (scratch: float32)
          const bool stored = kind == plans::Arg::Kind::Scratch && v.scratch[scratch_index.at(a.name)].stored;
          const DType d = kind == plans::Arg::Kind::Tensor ? tensor_format(sig, a.name) : stored ? sig.dtype : DType::F32;
          const bool ok = d == DType::F32   ? pr.type.rfind("float", 0) == 0
                          : d == DType::F16 ? pr.type.rfind("half", 0) == 0
                                            : pr.type.rfind("ushort", 0) == 0 || pr.type.rfind("short", 0) == 0;
          static const char* held[] = {"floats", "f16 values (half*)", "bf16 words (ushort*)"};
          if (!ok)
            throw Error(what + ": buffer '" + a.name + "' holds " + held[static_cast<int>(d)] + ", the parameter is " + pr.type + pr.undeclared());
        }
        if (!b) break;  // checking only
        GuardedBuffer* buf = kind == plans::Arg::Kind::Tensor ? b->tensors.at(a.name) : b->scratch.at(scratch_index.at(a.name));
        call("setting " + what, [&] {
          k.setArg(i, buf->cl());
          return 0;
        });
        break;
      }
      case plans::Arg::Kind::Local: {
        const int64_t bytes = a.expr.eval_int(env);
        if (bytes < 1) throw Error(what + ": local(" + a.expr.text() + ") is " + std::to_string(bytes) + " bytes for problem " + p.line());
        if (pr.known && pr.address != CL_KERNEL_ARG_ADDRESS_LOCAL) throw Error(what + ": local(...) needs a __local pointer parameter");
        local_bytes += static_cast<size_t>(bytes);
        if (!b) break;
        call("setting " + what, [&] {
          k.setArg(i, cl::Local(static_cast<size_t>(bytes)));
          return 0;
        });
        break;
      }
      case plans::Arg::Kind::Value:
      case plans::Arg::Kind::TensorOrValue: {
        if (pr.pointer()) throw Error(what + ": a value for a pointer parameter (name a tensor or a scratch buffer there)");
        set_value(k, i, pr, a.expr.eval(env), what, b != nullptr);
        break;
      }
    }
  }
}

// The NDRange against the kernel's and the device's limits, before the driver sees it.
void check_limits(const cl::Kernel& k, const Runtime& rt, const plans::Step& st, const plans::Dispatch& d, size_t local_args_bytes,
                  const Problem& p) {
  const DeviceInfo& dev = rt.device();
  const std::string where = st.where.str() + ": step " + st.entry + ", " + d.str() + ", problem " + p.line() + ": ";
  const auto reqd = call("reading the kernel's work-group size", [&] { return k.getWorkGroupInfo<CL_KERNEL_COMPILE_WORK_GROUP_SIZE>(dev.device); });
  if (reqd[0] != 0 && !d.local.empty())
    for (size_t i = 0; i < 3; ++i) {
      const size_t want = i < d.local.size() ? d.local[i] : 1;
      if (want != reqd[i])
        throw Error(where + "the kernel requires work-groups of (" + std::to_string(reqd[0]) + "," + std::to_string(reqd[1]) + "," +
                    std::to_string(reqd[2]) + ") (reqd_work_group_size), the plan's local size differs");
    }
  if (d.local.empty()) return;
  size_t items = 1;
  for (size_t i = 0; i < d.local.size(); ++i) {
    items *= d.local[i];
    if (i < dev.max_work_item_sizes.size() && d.local[i] > dev.max_work_item_sizes[i])
      throw Error(where + "local size " + std::to_string(d.local[i]) + " in dimension " + std::to_string(i) + " exceeds the device's limit of " +
                  std::to_string(dev.max_work_item_sizes[i]) + " (" + dev.selector + ")");
  }
  const size_t kernel_max = call("reading the kernel's work-group limit", [&] { return k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dev.device); });
  if (items > dev.max_work_group_size || items > kernel_max)
    throw Error(where + "a work-group of " + std::to_string(items) + " work-items exceeds the limit of " +
                std::to_string(std::min(dev.max_work_group_size, kernel_max)) + " on " + dev.selector + " (device " +
                std::to_string(dev.max_work_group_size) + ", this kernel " + std::to_string(kernel_max) + ")");
  cl_ulong kernel_local = call("reading the kernel's local memory", [&] { return k.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(dev.device); });
  if (dev.platform_name.find("NVIDIA") != std::string::npos) {  // its figure pads each array by its alignment: the PTX's own (runtime.hpp)
    const auto binaries = call("reading the kernel's program", [&] { return k.getInfo<CL_KERNEL_PROGRAM>().getInfo<CL_PROGRAM_BINARIES>(); });
    const std::string entry = call("reading the kernel's name", [&] { return k.getInfo<CL_KERNEL_FUNCTION_NAME>(); });
    if (!binaries.empty())
      if (const auto declared = ptx_local_bytes(std::string(binaries[0].begin(), binaries[0].end()), entry.c_str())) kernel_local = *declared;
  }
  if (kernel_local + local_args_bytes > dev.local_mem_bytes)
    throw Error(where + "the kernel needs " + std::to_string(kernel_local + local_args_bytes) + " bytes of local memory, " + dev.selector + " has " +
                std::to_string(dev.local_mem_bytes));
}

}  // namespace

std::string program_options(const plans::Variant& v, DType dtype) {
  std::string format = to_string(dtype);
  std::transform(format.begin(), format.end(), format.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  const std::string defines = v.build_options();
  return defines + (defines.empty() ? "" : " ") + "-DDTYPE_" + format + " -cl-kernel-arg-info";
}

namespace {

// Step st's kernel: from `program`, or where the step has defines of its own, from the program built
// with them (Variant::for_step).
cl::Kernel kernel_of(Runtime& rt, const cl::Program& variant_program, const plans::Variant& v, const plans::Step& st, const Problem& p) {
  const cl::Program& program = st.defines.empty() ? variant_program : rt.program(v.file, program_options(v.for_step(st), dtype_of(p)), v.prelude);
  try {
    return cl::Kernel(program, st.entry.c_str());
  } catch (const cl::Error& e) {
    std::string names;
    try {
      names = program.getInfo<CL_PROGRAM_KERNEL_NAMES>();
    } catch (const cl::Error&) {
    }
    throw Error(st.where.str() + ": step " + st.entry + ": creating kernel '" + st.entry + "' failed with " + error_name(e.err()) +
                " (is it defined in " + v.file + "?" + (names.empty() ? "" : " the file defines: " + names) + ")");
  }
}

// The type names step st's program gives its parameters, with the plan's `type` lines over them.
TypeNames type_names_of(Runtime& rt, const plans::Variant& v, const plans::Step& st, const Problem& p) {
  TypeNames names = rt.type_names(v.file, program_options(st.defines.empty() ? v : v.for_step(st), dtype_of(p)), v.prelude);
  names.declare(v.types);
  return names;
}

// Binds (or, without buffers, only checks) a step's arguments; evaluation errors name the plan line.
void bind_step(cl::Kernel& kernel, const TypeNames& names, const plans::Variant& v, const plans::Step& st, const Problem& p, const Buffers* buffers,
               size_t& local_bytes) {
  try {
    bind_args(kernel, v, st, p, buffers, params_of(kernel, names), local_bytes);
  } catch (const KernelFault&) {
    throw;
  } catch (const Error& e) {
    const std::string msg = e.what();
    throw Error(msg.rfind(st.where.file, 0) == 0 ? msg : st.where.str() + ": step " + st.entry + ": " + msg + " (problem " + p.line() + ")");
  }
}

}  // namespace

void check_launch(Runtime& rt, const Problem& p, const plans::Variant& v, const cl::Program& program) {
  for (const auto& st : v.steps) {
    if (!plans::step_applies(v, st, p)) continue;
    cl::Kernel kernel = kernel_of(rt, program, v, st, p);
    size_t local_bytes = 0;
    bind_step(kernel, type_names_of(rt, v, st, p), v, st, p, nullptr, local_bytes);
    check_limits(kernel, rt, st, plans::dispatch(v, st, p), local_bytes, p);
  }
}

std::vector<PreparedStep> prepare(Runtime& rt, const Problem& p, const plans::Variant& v, const cl::Program& program, const Buffers& buffers) {
  std::vector<PreparedStep> steps;
  for (const auto& st : v.steps) {
    if (!plans::step_applies(v, st, p)) continue;
    cl::Kernel kernel = kernel_of(rt, program, v, st, p);
    // The limits first, on a kernel with no argument set: once local(BYTES) arguments are set, the
    // driver may count them in CL_KERNEL_LOCAL_MEM_SIZE (NVIDIA's does, as the standard allows), and
    // check_limits would count them twice.
    size_t local_bytes = 0;
    const TypeNames names = type_names_of(rt, v, st, p);
    bind_step(kernel, names, v, st, p, nullptr, local_bytes);
    const plans::Dispatch d = plans::dispatch(v, st, p);
    check_limits(kernel, rt, st, d, local_bytes, p);
    size_t bound_bytes = 0;
    bind_step(kernel, names, v, st, p, &buffers, bound_bytes);
    auto range = [](const std::vector<size_t>& s) {
      switch (s.size()) {
        case 0:
          return cl::NullRange;
        case 1:
          return cl::NDRange(s[0]);
        case 2:
          return cl::NDRange(s[0], s[1]);
        default:
          return cl::NDRange(s[0], s[1], s[2]);
      }
    };
    steps.push_back({kernel, range(d.global), range(d.local), st.entry});
  }
  return steps;
}

double launch(Runtime& rt, const std::vector<PreparedStep>& steps, std::vector<double>* step_seconds) {
  double seconds = 0;
  for (const auto& st : steps) {
    const double s = rt.run(st.kernel, st.global, st.local, st.entry);
    if (step_seconds) step_seconds->push_back(s);
    seconds += s;
  }
  return seconds;
}

double launch(Runtime& rt, const Problem& p, const plans::Variant& v, const cl::Program& program, const Buffers& buffers,
              std::vector<double>* step_seconds) {
  return launch(rt, prepare(rt, p, v, program, buffers), step_seconds);
}

double launch_stream(Runtime& rt, const std::vector<PreparedStep>& steps, int launches) {
  if (steps.empty() || launches < 1) return 0;
  cl::Event first, last;
  for (int i = 0; i < launches; ++i)
    for (size_t j = 0; j < steps.size(); ++j) {
      const PreparedStep& st = steps[j];
      const bool is_first = i == 0 && j == 0, is_last = i == launches - 1 && j == steps.size() - 1;
      cl::Event e = rt.enqueue(st.kernel, st.global, st.local, st.entry, is_first || is_last);  // events only where read
      if (is_first) first = e;
      if (is_last) last = e;
    }
  rt.wait(last, steps.back().entry);
  return rt.seconds(first, last, steps.front().entry) / launches;
}

}  // namespace plumbline::ocl
