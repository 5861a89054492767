// `plumbline eval OP --problem LINE --inputs a.npy,... --out DIR`: runs one operator on given tensors
// and writes each output as DIR/<output name>.npy (float64 from the reference backend).
#include <filesystem>
#include <iostream>

#include "apps/commands.hpp"
#include "core/npy.hpp"
#include "core/registry.hpp"
#include "reference/reference.hpp"

namespace plumbline::apps {

namespace {

struct Options {
  std::string op, problem, out, backend = "reference";
  std::vector<std::string> inputs;
};

}  // namespace

void add_eval_command(CLI::App& app, Context& ctx) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("eval", "Evaluate one operator on .npy inputs and write its outputs as .npy");
  cmd->add_option("op", opt->op, "operator (must match the problem line)")->required();
  cmd->add_option("--problem", opt->problem, "problem line")->required();
  cmd->add_option("--inputs", opt->inputs, "input .npy files in the operator's input order (see `plumbline ops`)")
      ->delimiter(',')->required();
  cmd->add_option("--out", opt->out, "output directory")->required();
  cmd->add_option("--backend", opt->backend, "reference (float64 outputs)")->check(CLI::IsMember({"reference"}));
  cmd->callback([opt] {
    const Problem p = Problem::parse(opt->problem);
    if (p.op() != opt->op) throw Error("operator '" + opt->op + "' differs from the problem line's '" + p.op() + "'");
    const Signature sig = signature_of(p);
    if (opt->inputs.size() != sig.inputs.size()) {
      std::string names;
      for (const auto& t : sig.inputs) names += " " + t.name + t.shape.str();
      throw Error(p.op() + " takes " + std::to_string(sig.inputs.size()) + " inputs (" + names + " ), got " +
                  std::to_string(opt->inputs.size()));
    }
    std::vector<TensorD> in;
    for (size_t i = 0; i < opt->inputs.size(); ++i) {
      in.push_back(read_npy<double>(opt->inputs[i]));
      if (in.back().shape != sig.inputs[i].shape)
        throw Error(opt->inputs[i] + ": input '" + sig.inputs[i].name + "' must have shape " + sig.inputs[i].shape.str() +
                    ", the file holds " + in.back().shape.str());
    }
    const std::vector<TensorD> out = run_reference(p, in);
    std::filesystem::create_directories(opt->out);
    for (size_t i = 0; i < out.size(); ++i) {
      const std::string path = (std::filesystem::path(opt->out) / (sig.outputs[i].name + ".npy")).string();
      write_npy(path, out[i]);
      std::cout << path << "  " << out[i].shape.str() << "\n";
    }
  });
}

}  // namespace plumbline::apps
