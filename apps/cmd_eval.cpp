// `plumbline eval OP --problem LINE --inputs a.npy,... --out DIR`: runs one operator on given tensors
// and writes each output as DIR/<output name>.npy (float64 from the reference backend).
#include <cmath>
#include <filesystem>
#include <iostream>

#include "apps/commands.hpp"
#include "core/npy.hpp"
#include "core/registry.hpp"
#include "reference/reference.hpp"
#ifdef PLUMBLINE_WITH_OPENCL
#include "apps/kernel_flags.hpp"
#include "check/kernel_check.hpp"
#include "opencl/device.hpp"
#endif

namespace plumbline::apps {

namespace {

struct Options {
  std::string op, problem, out, backend = "reference", device;
  std::vector<std::string> inputs;
#ifdef PLUMBLINE_WITH_OPENCL
  plans::KernelSource source;
#endif
};

}  // namespace

void add_eval_command(CLI::App& app, Context& ctx) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("eval", "Evaluate one operator on .npy inputs and write its outputs as .npy");
  cmd->add_option("op", opt->op, "operator (must match the problem line)")->required();
  cmd->add_option("--problem", opt->problem, "problem line")->required();
  cmd->add_option("--inputs", opt->inputs, "input .npy files in the operator's input order (see `plumbline ops`)")->delimiter(',')->required();
  cmd->add_option("--out", opt->out, "output directory")->required();
  cmd->add_option("--backend", opt->backend, "reference (float64 outputs) or opencl (float32 outputs of our kernels)")
      ->check(CLI::IsMember({"reference", "opencl"}));
  cmd->add_option("--device", opt->device, "opencl backend: the device (default: PLUMBLINE_DEVICE's first, else the first found)");
#ifdef PLUMBLINE_WITH_OPENCL
  add_kernel_flags(cmd, opt->source);
#endif
  cmd->callback([opt] {
    const Problem p = Problem::parse(opt->problem);
    if (p.op() != opt->op) throw Error("operator '" + opt->op + "' differs from the problem line's '" + p.op() + "'");
    const Signature sig = signature_of(p);
    if (opt->inputs.size() != sig.inputs.size()) {
      std::string names;
      for (const auto& t : sig.inputs) names += " " + t.name + t.shape.str();
      throw Error(p.op() + " takes " + std::to_string(sig.inputs.size()) + " inputs (" + names + " ), got " + std::to_string(opt->inputs.size()));
    }
    std::vector<TensorD> in;
    for (size_t i = 0; i < opt->inputs.size(); ++i) {
      const DType format = sig.storage_of(sig.inputs[i]);
      in.push_back(read_npy<double>(opt->inputs[i], format));
      if (in.back().shape != sig.inputs[i].shape)
        throw Error(opt->inputs[i] + ": input '" + sig.inputs[i].name + "' must have shape " + sig.inputs[i].shape.str() + ", the file holds " +
                    in.back().shape.str());
      // Every value must be one of the storage format's: rounding it here would evaluate other inputs than the user's.
      for (int64_t j = 0; j < in.back().numel(); ++j) {
        const double v = in.back()[j];
        if (!representable(format, static_cast<float>(v)) || (!std::isnan(v) && static_cast<double>(static_cast<float>(v)) != v))
          throw Error(opt->inputs[i] + ": element " + std::to_string(j) + " of input '" + sig.inputs[i].name + "' (" + std::to_string(v) +
                      ") is not a " + to_string(format) + " value, and " + p.line() + " stores '" + sig.inputs[i].name + "' in " + to_string(format) +
                      ": round the input to " + to_string(format) + " first (docs/operators.md, \"Storage formats\")");
      }
    }
    std::filesystem::create_directories(opt->out);
    auto path_of = [&](size_t i) { return (std::filesystem::path(opt->out) / (sig.outputs[i].name + ".npy")).string(); };
#ifdef PLUMBLINE_WITH_OPENCL
    if (opt->backend == "reference" && !opt->source.ours()) throw Error("a kernel's flags (--kernel-file, --plan, ...) need --backend opencl");
#endif
    if (opt->backend == "reference") {
      const std::vector<TensorD> out = run_reference(p, in);
      for (size_t i = 0; i < out.size(); ++i) {
        write_npy(path_of(i), out[i]);
        std::cout << path_of(i) << "  " << out[i].shape.str() << "\n";
      }
      return;
    }
#ifdef PLUMBLINE_WITH_OPENCL
    std::vector<TensorF> in_f;
    for (const auto& t : in) in_f.push_back(t.convert<float>());
    const auto device = ocl::select_devices(opt->device.empty() ? ocl::default_selector() : opt->device).at(0);
    ocl::Runtime rt(device);
    KernelChecker kernels(rt, opt->source);
    const Execution ex = kernels.execute(p, in_f);
    for (size_t i = 0; i < ex.outputs.size(); ++i) {
      // f16 outputs as float16; bf16 outputs as float32 containers of the bf16 values (NumPy has no bf16).
      if (sig.storage_of(sig.outputs[i]) == DType::F16)
        write_npy_f16(path_of(i), ex.outputs[i]);
      else
        write_npy(path_of(i), ex.outputs[i]);
      std::cout << path_of(i) << "  " << ex.outputs[i].shape.str() << "  (" << device.selector << ", variant " << kernels.select(p).name << ")\n";
    }
    // The outputs are written all the same: a user may want to look at them.
    if (!ex.problem.empty()) throw Error("on " + device.selector + ": " + ex.problem);
#else
    throw Error("this build has no OpenCL (configured with PLUMBLINE_WITH_OPENCL=OFF)");
#endif
  });
}

}  // namespace plumbline::apps
