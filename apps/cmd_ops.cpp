// `plumbline ops`: the registered operators, their attributes and tensors (--json for tools).
#include <iostream>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "core/registry.hpp"
#include "plans/library.hpp"

namespace plumbline::apps {

namespace {

nlohmann::json tensors(const std::vector<TensorDecl>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& t : v) a.push_back({{"name", t.name}, {"shape", t.shape.dims()}});
  return a;
}

}  // namespace

// An operator's kernel variants (plans/), in the order they are tried.
nlohmann::json variants_json(const std::string& op) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& v : plans::our_variants(op)) {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& st : v.steps) {
      std::vector<std::string> args, global, local;
      for (const auto& a : st.args) args.push_back(a.text);
      for (const auto& e : st.global) global.push_back(e.text());
      for (const auto& e : st.local) local.push_back(e.text());
      nlohmann::json defines = nlohmann::json::array(), handoffs = nlohmann::json::array();
      for (const auto& [name, value] : st.defines) defines.push_back(name + "=" + value);
      for (const auto& h : st.handoffs) handoffs.push_back({{"buffer", h.buffer}, {"why", h.reason}});
      steps.push_back({{"entry", st.entry},
                       {"when", st.when.empty() ? "" : st.when.text()},
                       {"args", args},
                       {"global", global},
                       {"local", local},
                       {"defines", defines},
                       {"handoffs", handoffs}});
    }
    nlohmann::json tune = nlohmann::json::array(), require = nlohmann::json::array(), classes = nlohmann::json::array(),
                   lets = nlohmann::json::array(), scratch = nlohmann::json::array();
    for (const auto& [name, values] : v.tunables) tune.push_back({{"define", name}, {"values", values}});
    for (const auto& r : v.requires_) require.push_back(r.text());
    for (const auto& c : v.classes) classes.push_back({{"name", c.name}, {"when", c.when.empty() ? "" : c.when.text()}});
    for (const auto& l : v.lets) lets.push_back({{"name", l.name}, {"value", l.value.text()}});
    for (const auto& sc : v.scratch)
      scratch.push_back({{"name", sc.name}, {"size", sc.floats.text()}, {"kind", sc.counters ? "counters" : sc.stored ? "stored" : "scratch"}});
    out.push_back({{"name", v.name},
                   {"when", v.when.empty() ? "" : v.when.text()},
                   {"prefer", v.prefer.empty() ? "" : v.prefer.text()},
                   {"file", v.file},
                   {"prelude", v.prelude},
                   {"types", v.types},
                   {"plan", v.where.str()},
                   {"defines", v.build_options()},
                   {"dtypes", plans::dtypes_of(v)},
                   {"devices", v.devices},
                   {"needs", v.needs},
                   {"nondeterministic", v.nondeterministic},
                   {"nonfinite", v.nonfinite},
                   {"math", v.math.empty() ? "exact" : v.math},
                   {"tune", tune},
                   {"require", require},
                   {"classes", classes},
                   {"lets", lets},
                   {"scratch", scratch},
                   {"steps", steps}});
  }
  return out;
}

void print_variants(const nlohmann::json& vs) {
  for (const auto& v : vs) {
    std::cout << "    variant " << v["name"].get<std::string>() << "  (" << v["plan"].get<std::string>() << ")  when "
              << (v["when"].get<std::string>().empty() ? std::string("always") : v["when"].get<std::string>());
    if (!v["prefer"].get<std::string>().empty()) std::cout << "  preferred when " << v["prefer"].get<std::string>();
    if (!v["defines"].get<std::string>().empty()) std::cout << "  " << v["defines"].get<std::string>();
    std::cout << "  dtypes";
    for (const auto& d : v["dtypes"]) std::cout << " " << d.get<std::string>();
    if (!v["devices"].empty()) {  // shaped for these device types: passed over on others
      std::cout << "  devices";
      for (const auto& d : v["devices"]) std::cout << " " << d.get<std::string>();
    }
    if (!v["needs"].empty()) {  // device features without which it does not build: not run there at all
      std::cout << "  needs";
      for (const auto& d : v["needs"]) std::cout << " " << d.get<std::string>();
    }
    std::cout << "\n";
    for (const auto& st : v["steps"]) {
      auto join = [](const nlohmann::json& a) {
        std::string s;
        for (const auto& x : a) s += (s.empty() ? "" : ", ") + x.get<std::string>();
        return s;
      };
      std::cout << "      " << st["entry"].get<std::string>()
                << (st["when"].get<std::string>().empty() ? "" : " (when " + st["when"].get<std::string>() + ")") << ": global ("
                << join(st["global"]) << ")" << (st["local"].empty() ? "" : " local (" + join(st["local"]) + ")") << "\n";
    }
  }
}

void add_ops_command(CLI::App& app, Context& ctx) {
  auto json = std::make_shared<bool>(false);
  auto variants = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("ops", "List the operators with their attributes (defaults) and tensors");
  cmd->add_flag("--json", *json, "as JSON");
  cmd->add_flag("--variants", *variants, "also each operator's kernel variants: condition, defines, steps (opencl/kernels/*.plan)");
  cmd->callback([json, variants] {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& spec : Registry::get().all()) {
      const Problem p = Problem::make(spec.name);
      const Signature s = signature_of(p);
      if (*json) {
        nlohmann::json attrs = nlohmann::json::array();
        for (const auto& a : spec.attrs) attrs.push_back({{"name", a.name}, {"default", format_attr(a.def)}, {"doc", a.doc}, {"choices", a.choices}});
        all.push_back({{"name", spec.name},
                       {"family", spec.family},
                       {"summary", spec.summary},
                       {"forward", spec.forward},
                       {"default", p.line()},
                       {"attrs", attrs},
                       {"inputs", tensors(s.inputs)},
                       {"outputs", tensors(s.outputs)}});
        if (*variants) all.back()["variants"] = variants_json(spec.name);
        continue;
      }
      std::cout << spec.name << "  [" << spec.family << "]  " << spec.summary << "\n    default: " << p.line() << "\n    in:";
      for (const auto& t : s.inputs) std::cout << " " << t.name << t.shape.str();
      std::cout << "\n    out:";
      for (const auto& t : s.outputs) std::cout << " " << t.name << t.shape.str();
      std::cout << "\n";
      if (p.has("dtype")) {
        std::string f32_always;  // tensors that stay float32 in every format (class indices)
        Signature in16 = s;
        in16.dtype = DType::F16;
        for (const auto& t : s.inputs)
          if (in16.storage_of(t) == DType::F32) f32_always += (f32_always.empty() ? "" : ", ") + t.name;
        std::cout << "    dtype: f32 (default), f16, bf16" << (f32_always.empty() ? "" : "; " + f32_always + " stays f32 in each")
                  << " (docs/operators.md, \"Storage formats\")\n";
      }
      if (*variants) print_variants(variants_json(spec.name));
    }
    if (*json) std::cout << all.dump(1) << "\n";
  });
}

}  // namespace plumbline::apps
