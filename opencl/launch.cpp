#include "opencl/launch.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/registry.hpp"

namespace plumbline::ocl {

namespace {

const std::map<std::string, LaunchPlan>& plans() {
  static const std::map<std::string, LaunchPlan> table = [] {
    std::map<std::string, LaunchPlan> t;
    add_elementwise_plans(t);
    add_reduction_plans(t);
    add_gemm_plans(t);
    add_pooling_plans(t);
    add_softmax_plans(t);
    add_norm_plans(t);
    add_conv_plans(t);
    return t;
  }();
  return table;
}

size_t round_up(int64_t n, size_t to) { return (static_cast<size_t>(std::max<int64_t>(n, 1)) + to - 1) / to * to; }

}  // namespace

const LaunchPlan* find_launch_plan(const std::string& op) {
  auto it = plans().find(op);
  return it == plans().end() ? nullptr : &it->second;
}

std::vector<std::string> ops_with_kernels() {
  std::vector<std::string> v;
  for (const auto& name : Registry::get().names())
    if (find_launch_plan(name)) v.push_back(name);
  return v;
}

Dispatch linear(int64_t count, size_t wg) { return {cl::NDRange(round_up(count, wg)), cl::NDRange(wg)}; }
Dispatch groups(int64_t count, size_t wg) { return {cl::NDRange(static_cast<size_t>(count) * wg), cl::NDRange(wg)}; }
Dispatch tiles2d(int64_t cols, int64_t rows, size_t tile, int64_t depth) {
  return {cl::NDRange(round_up(cols, tile), round_up(rows, tile), static_cast<size_t>(std::max<int64_t>(depth, 1))),
          cl::NDRange(tile, tile, 1)};
}

void set_abi_args(cl::Kernel& kernel, const Problem& p, const std::vector<GuardedBuffer*>& inputs,
                  const std::vector<GuardedBuffer*>& outputs, const std::vector<GuardedBuffer*>& scratch) {
  const OpSpec& spec = Registry::get().find(p.op());
  cl_uint i = 0;
  const std::string name = call("naming a kernel", [&] { return kernel.getInfo<CL_KERNEL_FUNCTION_NAME>(); });
  const cl_uint expected = static_cast<cl_uint>(inputs.size() + outputs.size() + scratch.size() + spec.attrs.size());
  const cl_uint actual = call("counting the arguments of " + name, [&] { return kernel.getInfo<CL_KERNEL_NUM_ARGS>(); });
  if (actual != expected)
    throw Error("kernel " + name + " takes " + std::to_string(actual) + " arguments; the ABI of " + p.op() + " has " +
                std::to_string(expected) + " (" + std::to_string(inputs.size()) + " inputs, " +
                std::to_string(outputs.size()) + " outputs, " + std::to_string(scratch.size()) + " scratch buffers, " +
                std::to_string(spec.attrs.size()) + " attributes: see docs/kernel-abi.md)");
  auto set = [&](const auto& value, const std::string& what) {
    call("setting argument " + std::to_string(i) + " (" + what + ") of kernel " + name, [&] {
      kernel.setArg(i, value);
      return 0;
    });
    ++i;
  };
  for (auto* b : inputs) set(b->cl(), b->name());
  for (auto* b : outputs) set(b->cl(), b->name());
  for (auto* b : scratch) set(b->cl(), b->name());
  for (const auto& a : spec.attrs) {
    switch (a.kind) {
      case AttrKind::Int: set(static_cast<cl_int>(p.i(a.name)), a.name); break;
      case AttrKind::Float: set(static_cast<cl_float>(p.f(a.name)), a.name); break;
      case AttrKind::Enum: {
        const auto pos = std::find(a.choices.begin(), a.choices.end(), p.s(a.name)) - a.choices.begin();
        set(static_cast<cl_int>(pos), a.name);
        break;
      }
    }
  }
}

double launch(Runtime& rt, const Problem& p, const LaunchPlan& plan, const cl::Program& program,
              const std::vector<std::string>& entries, const std::vector<GuardedBuffer*>& inputs,
              const std::vector<GuardedBuffer*>& outputs, const std::vector<GuardedBuffer*>& scratch) {
  // `entries` replaces the plan's entry names one for one, conditional steps included; the steps
  // whose condition does not hold for p are skipped.
  if (!entries.empty() && entries.size() != plan.steps.size())
    throw Error(p.op() + " has " + std::to_string(plan.steps.size()) + " kernel steps; --entry names " +
                std::to_string(entries.size()) + " (one name per step, comma-separated, in the order of docs/kernel-abi.md)");
  double seconds = 0;
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const KernelStep& step = plan.steps[s];
    if (step.when && !step.when(p)) continue;
    const std::string entry = entries.empty() ? step.entry : entries[s];
    cl::Kernel kernel = call("creating kernel '" + entry + "' (is it defined in the kernel file?)",
                             [&] { return cl::Kernel(program, entry.c_str()); });
    set_abi_args(kernel, p, inputs, outputs, scratch);
    const Dispatch d = step.dispatch(p);
    seconds += rt.run(kernel, d.global, d.local, entry);
  }
  return seconds;
}

}  // namespace plumbline::ocl
