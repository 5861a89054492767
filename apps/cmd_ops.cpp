// `plumbline ops`: the registered operators, their attributes and tensors (--json for tools).
#include <iostream>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "core/registry.hpp"

namespace plumbline::apps {

namespace {

nlohmann::json tensors(const std::vector<TensorDecl>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& t : v) a.push_back({{"name", t.name}, {"shape", t.shape.dims()}});
  return a;
}

}  // namespace

void add_ops_command(CLI::App& app, Context& ctx) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("ops", "List the operators with their attributes (defaults) and tensors");
  cmd->add_flag("--json", *json, "as JSON");
  cmd->callback([json] {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& spec : Registry::get().all()) {
      const Problem p = Problem::make(spec.name);
      const Signature s = signature_of(p);
      if (*json) {
        nlohmann::json attrs = nlohmann::json::array();
        for (const auto& a : spec.attrs)
          attrs.push_back({{"name", a.name}, {"default", format_attr(a.def)}, {"doc", a.doc}, {"choices", a.choices}});
        all.push_back({{"name", spec.name}, {"family", spec.family}, {"summary", spec.summary}, {"forward", spec.forward},
                       {"default", p.line()}, {"attrs", attrs}, {"inputs", tensors(s.inputs)}, {"outputs", tensors(s.outputs)}});
        continue;
      }
      std::cout << spec.name << "  [" << spec.family << "]  " << spec.summary << "\n    default: " << p.line() << "\n    in:";
      for (const auto& t : s.inputs) std::cout << " " << t.name << t.shape.str();
      std::cout << "\n    out:";
      for (const auto& t : s.outputs) std::cout << " " << t.name << t.shape.str();
      std::cout << "\n";
    }
    if (*json) std::cout << all.dump(1) << "\n";
  });
}

}  // namespace plumbline::apps
