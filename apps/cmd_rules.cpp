// `plumbline rules check [FILE]`: every rewrite rule proved on random problems (egraph/rule_check),
// with the reference interpreter and, unless --device none, on each OpenCL device.
// `plumbline rules list [FILE]`: the rules, one per line.
#include <fstream>
#include <functional>
#include <thread>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "core/error.hpp"
#include "core/parallel.hpp"
#include "egraph/graph_check.hpp"
#include "egraph/models.hpp"
#include "egraph/optimize.hpp"
#include "egraph/rule_check.hpp"
#ifdef PLUMBLINE_WITH_OPENCL
#include "egraph/device_eval.hpp"
#include "opencl/device.hpp"
#endif

namespace plumbline::apps {
namespace {

struct Options {
  std::string file, at, values, device, json, shard;
  std::vector<std::string> rules;
  int instances = 40;
  uint64_t seed = 1;
};

std::vector<const egraph::Rule*> chosen(const std::vector<egraph::Rule>& all, const std::vector<std::string>& names) {
  std::vector<const egraph::Rule*> out;
  for (const auto& r : all)
    if (names.empty() || std::find(names.begin(), names.end(), r.name) != names.end()) out.push_back(&r);
  for (const auto& n : names)
    if (std::none_of(all.begin(), all.end(), [&](const egraph::Rule& r) { return r.name == n; }))
      throw Error("no rule named '" + n + "' in the rules file");
  return out;
}

// One pass over the rules; prints a line per rule, returns the JSON of each. The rules are checked side
// by side on the host's cores, each thread with the options `options_for(thread)` gives it (a device
// evaluator of its own: an OpenCL context each), and reported in order.
nlohmann::json check_all(const std::vector<const egraph::Rule*>& rules, const std::function<egraph::RuleCheckOptions(int64_t)>& options_for,
                         const std::string& file, const std::string& where, bool& all_passed) {
  std::vector<egraph::RuleVerdict> verdicts(rules.size());
  const int64_t threads = std::min<int64_t>(static_cast<int64_t>(rules.size()), std::max(1u, std::thread::hardware_concurrency()));
  parallel_for(threads, [&](int64_t t) {
    const egraph::RuleCheckOptions ro = options_for(t);
    for (size_t i = static_cast<size_t>(t); i < rules.size(); i += static_cast<size_t>(threads))
      verdicts[i] = egraph::check_rule(*rules[i], ro, file);
  });
  nlohmann::json out = nlohmann::json::array();
  for (size_t i = 0; i < rules.size(); ++i) {
    const egraph::Rule* r = rules[i];
    const egraph::RuleVerdict& v = verdicts[i];
    all_passed = all_passed && v.passed;
    std::printf("%-28s %-10s %s  %3d instances  %4d evaluations (%d on device)  worst ratio %.3g\n", r->name.c_str(), where.c_str(),
                v.passed ? "pass" : "FAIL", v.instances, v.evaluations, v.device_evaluations, v.worst_ratio);
    if (!v.passed) std::cout << v.counterexample << "\n  repro: " << v.repro << "\n";
    out.push_back({{"rule", r->name},
                   {"line", r->line},
                   {"numerics", r->numerics_str()},
                   {"evaluator", where},
                   {"passed", v.passed},
                   {"instances", v.instances},
                   {"evaluations", v.evaluations},
                   {"device_evaluations", v.device_evaluations},
                   {"rejected_samples", v.rejected},
                   {"worst_ratio", std::isfinite(v.worst_ratio) ? nlohmann::json(v.worst_ratio) : nlohmann::json("inf")},
                   {"covered", v.covered},
                   {"message", v.message},
                   {"counterexample", v.counterexample},
                   {"repro", v.repro},
                   {"lhs", r->lhs.str()},
                   {"rhs", r->rhs.str()}});
  }
  std::fflush(stdout);
  return out;
}

}  // namespace

void add_rules_command(CLI::App& app, Context& ctx) {
  auto* rules = app.add_subcommand("rules", "The e-graph's rewrite rules: check them, list them");
  rules->require_subcommand(1);
  auto opt = std::make_shared<Options>();

  auto* check = rules->add_subcommand("check", "Prove every rule on random problems (reference, then each device)");
  check->add_option("file", opt->file, "rules file (default: the shipped egraph/rules/training.rules)");
  check->add_option("--rule", opt->rules, "only these rules (repeatable)");
  check->add_option("--at", opt->at, "one instance, e.g. \"m=2 k=3 ?act=relu\" (with --rule)");
  check->add_option("--values", opt->values, "one value distribution: integers, uniform, normal, edge, sparse");
  check->add_option("--instances", opt->instances, "problems per rule")->check(CLI::PositiveNumber);
  check->add_option("--seed", opt->seed, "seed of the problems and values");
  check->add_option("--device", opt->device, "device selector, or 'none' for the reference only (default: PLUMBLINE_DEVICE, else all)");
  check->add_option("--json", opt->json, "write each rule's verdict to this JSON file");
  add_shard_option(check, opt->shard);
  check->callback([opt, &ctx] {
    const std::string file = opt->file.empty() ? egraph::default_rules_path() : opt->file;
    const auto all = egraph::load_rules(file);
    const Shard shard = parse_shard(opt->shard);
    std::vector<const egraph::Rule*> selected;
    const auto named = chosen(all, opt->rules);
    for (size_t i = 0; i < named.size(); ++i)
      if (shard.mine(i)) selected.push_back(named[i]);
    if (!opt->at.empty() && selected.size() != 1) throw Error("--at names one instance of one rule: give --rule NAME");
    egraph::RuleCheckOptions ro;
    ro.instances = opt->instances;
    ro.seed = opt->seed;
    if (!opt->at.empty()) ro.at = opt->at;
    if (!opt->values.empty()) ro.values = values_from_string(opt->values);
    bool passed = true;
    nlohmann::json verdicts = check_all(
        selected, [&](int64_t) { return ro; }, file, "reference", passed);
#ifdef PLUMBLINE_WITH_OPENCL
    const std::string sel = opt->device.empty() ? ocl::default_selector() : opt->device;
    if (sel != "none")
      for (const auto& device : ocl::select_devices(sel)) {
        // A context, checker and evaluator per thread: a KernelChecker is not shared between threads.
        struct Side {
          std::unique_ptr<ocl::Runtime> rt;
          std::unique_ptr<KernelChecker> kc;
          std::unique_ptr<egraph::DeviceSideEvaluator> dev;
        };
        std::vector<Side> sides(std::max(1u, std::thread::hardware_concurrency()));
        for (auto& v : check_all(
                 selected,
                 [&](int64_t t) {
                   Side& side = sides.at(static_cast<size_t>(t));
                   side.rt = std::make_unique<ocl::Runtime>(device, ocl::Builds::ForChecks);
                   side.kc = std::make_unique<KernelChecker>(*side.rt);
                   side.dev = std::make_unique<egraph::DeviceSideEvaluator>(*side.kc, device.selector);
                   egraph::RuleCheckOptions on_device = ro;
                   on_device.device = side.dev.get();
                   return on_device;
                 },
                 file, device.selector, passed))
          verdicts.push_back(v);
      }
#else
    if (!opt->device.empty() && opt->device != "none") throw Error("this build has no OpenCL: --device is not available");
#endif
    std::cout << (passed ? "all rules hold" : "SOME RULES FAIL") << " (" << selected.size() << " rules, " << file << ")\n";
    if (!opt->json.empty()) {
      std::ofstream f(opt->json);
      if (!f) throw Error("cannot write " + opt->json);
      f << nlohmann::json{{"kind", "rules"}, {"file", file}, {"seed", opt->seed}, {"rules", verdicts}}.dump(1) << "\n";
    }
    ctx.exit_code = std::max(ctx.exit_code, passed ? 0 : 1);
  });

  auto* optimize = rules->add_subcommand("optimize", "Saturate a training graph with the rules and extract the cheapest");
  auto model = std::make_shared<std::string>();
  auto print = std::make_shared<bool>(false);
  optimize->add_option("graph", *model, "mlp_gelu, conv_block or transformer_mlp")
      ->required()
      ->check(CLI::IsMember({"mlp_gelu", "conv_block", "transformer_mlp"}));
  optimize->add_option("--rules", opt->file, "rules file (default: the shipped one)");
  optimize->add_flag("--print", *print, "print the graph before and after");
  optimize->callback([opt, model, print] {
    const std::string file = opt->file.empty() ? egraph::default_rules_path() : opt->file;
    const auto rules = egraph::load_rules(file);
    egraph::TrainingGraph t = *model == "mlp_gelu"     ? egraph::mlp_gelu(64, 256, 1024, 10)
                              : *model == "conv_block" ? egraph::conv_block(8, 64, 32, 64, 32)
                                                       : egraph::transformer_mlp(512, 768, 3072);
    const egraph::Optimized o = egraph::optimize(t.graph, rules);
    if (*print) std::cout << "before:\n" << t.graph.str() << "\nafter:\n" << o.graph.str() << "\n";
    std::printf("%s: %s\n", t.name.c_str(), o.run.summary().c_str());
    for (const auto& [rule, n] : o.run.applied) std::printf("  %-28s %zu merges\n", rule.c_str(), n);
    std::printf("nodes %zu -> %zu, modelled cost %.1f us -> %.1f us (%.1f%% lower)\n", o.nodes_before, o.nodes_after, o.cost_before, o.cost_after,
                100 * (1 - o.cost_after / o.cost_before));
  });

  auto* graphs = rules->add_subcommand("graphs", "Whole training graphs: gradients, optimization, equivalence, devices");
  auto graphs_json = std::make_shared<std::string>();
  auto graphs_device = std::make_shared<std::string>();
  graphs->add_option("--rules", opt->file, "rules file (default: the shipped one)");
  graphs->add_option("--device", *graphs_device, "device selector, or 'none' (default: PLUMBLINE_DEVICE, else all)");
  graphs->add_option("--json", *graphs_json, "write the results to this JSON file");
  graphs->callback([opt, graphs_json, graphs_device, &ctx] {
    const std::string file = opt->file.empty() ? egraph::default_rules_path() : opt->file;
    const auto rules = egraph::load_rules(file);
    bool passed = true;
    nlohmann::json out = nlohmann::json::array();
    for (const egraph::TrainingGraph& t : egraph::small_training_graphs()) {
      const egraph::GraphCheck c = egraph::check_training_graph(t, rules);
      nlohmann::json j{{"graph", t.name},
                       {"passed", c.passed},
                       {"message", c.message},
                       {"gradient_checks", c.gradients.checks},
                       {"gradient_worst_ratio", c.gradients.worst_ratio},
                       {"nodes_before", c.optimized.nodes_before},
                       {"nodes_after", c.optimized.nodes_after},
                       {"cost_before_us", c.optimized.cost_before},
                       {"cost_after_us", c.optimized.cost_after},
                       {"saturation", c.optimized.run.summary()},
                       {"applied", c.optimized.run.applied},
                       {"equivalence_worst_ratio", c.worst_ratio},
                       {"devices", nlohmann::json::array()}};
      bool ok = c.passed;
      std::printf("%-18s reference  %s  gradients %lld checks (worst %.3g)  nodes %zu -> %zu  cost %.1f -> %.1f us  equivalence worst %.3g\n",
                  t.name.c_str(), c.passed ? "pass" : "FAIL", static_cast<long long>(c.gradients.checks), c.gradients.worst_ratio,
                  c.optimized.nodes_before, c.optimized.nodes_after, c.optimized.cost_before, c.optimized.cost_after, c.worst_ratio);
      if (!c.passed) std::cout << "  " << c.message << "\n";
#ifdef PLUMBLINE_WITH_OPENCL
      const std::string sel = graphs_device->empty() ? ocl::default_selector() : *graphs_device;
      if (sel != "none")
        for (const auto& device : ocl::select_devices(sel)) {
          ocl::Runtime rt(device, ocl::Builds::ForChecks);
          KernelChecker kc(rt);
          for (Values values : {Values::Integers, Values::Normal, Values::Edge}) {
            const auto in = egraph::training_inputs(t, values, 5);
            graph::Bindings<float> opt_in;
            for (const auto& [n, id] : c.optimized.graph.inputs()) opt_in[n] = in.at(n);
            const auto before = egraph::run_on_device(kc, t.graph, in, values == Values::Integers);
            const auto after = egraph::run_on_device(kc, c.optimized.graph, opt_in, values == Values::Integers);
            const std::string problem = !before.problem.empty()  ? "original: " + before.problem
                                        : !after.problem.empty() ? "optimized: " + after.problem
                                                                 : "";
            ok = ok && problem.empty();
            j["devices"].push_back({{"device", device.selector},
                                    {"values", to_string(values)},
                                    {"passed", problem.empty()},
                                    {"problem", problem},
                                    {"kernel_nodes", before.kernel_nodes + after.kernel_nodes},
                                    {"worst_ratio", std::max(before.worst_ratio, after.worst_ratio)}});
            std::printf("%-18s %-10s %s  %s values, %d kernel nodes checked\n", t.name.c_str(), device.selector.c_str(),
                        problem.empty() ? "pass" : "FAIL", to_string(values), before.kernel_nodes + after.kernel_nodes);
            if (!problem.empty()) std::cout << "  " << problem << "\n";
          }
        }
#endif
      j["passed"] = ok;
      passed = passed && ok;
      out.push_back(j);
    }
    if (!graphs_json->empty()) {
      std::ofstream f(*graphs_json);
      if (!f) throw Error("cannot write " + *graphs_json);
      f << nlohmann::json{{"kind", "graphs"}, {"rules", file}, {"graphs", out}}.dump(1) << "\n";
    }
    ctx.exit_code = std::max(ctx.exit_code, passed ? 0 : 1);
  });

  auto* list = rules->add_subcommand("list", "Print the rules");
  list->add_option("file", opt->file, "rules file (default: the shipped one)");
  list->callback([opt] {
    const std::string file = opt->file.empty() ? egraph::default_rules_path() : opt->file;
    for (const auto& r : egraph::load_rules(file))
      std::cout << r.name << "  [" << r.numerics_str() << "]  " << r.lhs.str() << "  ->  " << r.rhs.str() << "\n";
  });
}

}  // namespace plumbline::apps
