// `plumbline ops`: the registered operators, their attributes and tensors.
#include <iostream>

#include "apps/commands.hpp"
#include "core/registry.hpp"

namespace plumbline::apps {

void add_ops_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("ops", "List the operators with their attributes (defaults) and tensors");
  cmd->callback([] {
    for (const auto& spec : Registry::get().all()) {
      const Problem p = Problem::make(spec.name);
      const Signature s = signature_of(p);
      std::cout << spec.name << "  [" << spec.family << "]  " << spec.summary << "\n    default: " << p.line() << "\n    in:";
      for (const auto& t : s.inputs) std::cout << " " << t.name << t.shape.str();
      std::cout << "\n    out:";
      for (const auto& t : s.outputs) std::cout << " " << t.name << t.shape.str();
      std::cout << "\n";
    }
  });
}

}  // namespace plumbline::apps
