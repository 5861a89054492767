// `plumbline check OP|--all`: every kernel against the reference on random problems (or one problem
// line), on every selected OpenCL device, with poisoned outputs and guarded buffers. Every variant of
// an operator gets its share of the cases. A failure is shrunk to a small problem and printed with the
// command that reproduces it.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "apps/kernel_flags.hpp"
#include "check/kernel_check.hpp"
#include "core/registry.hpp"
#include "opencl/device.hpp"
#include "plans/library.hpp"

namespace plumbline::apps {

namespace {

struct Options {
  std::string op, problem, json, device, values;
  plans::KernelSource source;
  bool all = false, first_failure = false;
  int cases = 100;
  uint64_t seed = 1;
};

nlohmann::json to_json(const CaseResult& r) {
  return {{"op", r.problem.op()}, {"family", Registry::get().find(r.problem.op()).family}, {"problem", r.problem.line()},
          {"device", r.device},   {"variant", r.variant},         {"values", to_string(r.values)},
          {"seed", r.seed},       {"passed", r.passed},           {"verdict", r.verdict}, {"message", r.message},
          {"worst_ratio", r.worst_ratio}, {"max_error", r.max_error}, {"seconds", r.seconds}};
}

}  // namespace

void add_check_command(CLI::App& app, Context& ctx) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("check", "Check OpenCL kernels against the references");
  cmd->add_option("op", opt->op, "the operator whose kernels to check");
  cmd->add_flag("--all", opt->all, "every operator that has a kernel");
  cmd->add_option("--problem", opt->problem, "one problem line instead of random problems");
  cmd->add_option("--cases", opt->cases, "random problems per operator and device, shared among its variants")->check(CLI::PositiveNumber);
  cmd->add_option("--seed", opt->seed, "seed of the problems and values");
  cmd->add_option("--values", opt->values, "integers, uniform, normal or edge (default: cycle through all four)")
      ->check(CLI::IsMember({"integers", "uniform", "normal", "edge"}));
  cmd->add_option("--device", opt->device, "device selector (default: PLUMBLINE_DEVICE, else all)");
  add_kernel_flags(cmd, opt->source);
  cmd->add_option("--json", opt->json, "write every case's result to this JSON file");
  cmd->add_flag("--first-failure", opt->first_failure, "stop an operator at its first failing case, unshrunk (mutation runs)");
  cmd->callback([opt, &ctx] {
    const plans::KernelSource& source = opt->source;
    source.validate();
    if (opt->all && source.user() && source.plan_file.empty()) throw Error("--kernel-file checks one operator: name it instead of --all");
    const Selection sel = select(opt->op, opt->problem, opt->all, nullptr);
    const auto devices = ocl::select_devices(opt->device.empty() ? ocl::default_selector() : opt->device);

    nlohmann::json cases = nlohmann::json::array(), failures = nlohmann::json::array();
    bool all_passed = true;
    for (const auto& device : devices) {
      ocl::Runtime rt(device);
      KernelChecker checker(rt, source);
      for (const auto& op : sel.ops) {
        if (source.ours() && plans::our_variants(op).empty()) {
          if (!opt->all) throw Error("operator '" + op + "' has no OpenCL kernel yet");
          std::printf("%-22s %-9s no kernel yet\n", op.c_str(), device.selector.c_str());
          continue;
        }
        if (opt->all && !source.plan_file.empty()) {
          // --plan with --all: the operators the plan file has variants of
          bool any = false;
          try {
            any = !checker.variants(op).empty();
          } catch (const Error&) {
          }
          if (!any) continue;
        }
        const auto& variants = checker.variants(op);
        // The cases: random ones shared among the variants, or the one problem on each variant it meets.
        std::vector<KernelCase> todo;
        std::optional<CasePlan> plan;
        int n = opt->cases;
        if (sel.problem) {
          for (const auto& v : variants)
            if (plans::applies(v, *sel.problem)) todo.push_back({&v, rc::shrinkable::just(*sel.problem), values_for_case(0), opt->seed});
          if (todo.empty()) plans::select_variant(variants, *sel.problem);  // the error naming every condition
          n = static_cast<int>(todo.size());
        } else {
          plan.emplace(variants, op, opt->cases, opt->seed);
        }
        int failed = 0;
        double worst = 0, seconds = 0;
        std::map<std::string, int> per_variant;
        for (int i = 0; i < n; ++i) {
          KernelCase c = plan ? plan->at(i) : todo[static_cast<size_t>(i)];
          if (!opt->values.empty()) c.values = values_from_string(opt->values);
          const CaseResult r = checker.run(c.problem.value(), c.values, c.seed, c.variant);
          cases.push_back(to_json(r));
          ++per_variant[r.variant];
          worst = std::max(worst, r.worst_ratio);
          seconds += r.seconds;
          if (r.passed) continue;
          ++failed;
          const std::string name = op + (variants.size() > 1 ? "/" + r.variant : "");
          if (opt->first_failure) {
            std::cout << "FAIL " << name << " on " << device.selector << " [" << r.verdict << "] at case " << i + 1 << ": " << r.message << "\n";
            break;
          }
          const CaseResult rs = shrink_case(checker, c, r);
          std::cout << "FAIL " << name << " on " << device.selector << " [" << rs.verdict << "]: " << rs.message
                    << "\n  problem: " << rs.problem.line() << "  (values " << to_string(c.values) << ", seed " << c.seed
                    << ", variant " << rs.variant << ")"
                    << "\n  repro:   " << check_repro(rs, source) << "\n";
          if (!(rs.problem == r.problem)) std::cout << "  (shrunk from " << r.problem.line() << ")\n";
          failures.push_back({{"op", op}, {"device", device.selector}, {"variant", rs.variant}, {"verdict", rs.verdict},
                              {"message", rs.message}, {"problem", rs.problem.line()}, {"original", r.problem.line()},
                              {"values", to_string(c.values)}, {"seed", c.seed}, {"repro", check_repro(rs, source)}});
          if (failed >= 3 && !sel.problem) {
            std::cout << "  (stopping " << op << " after 3 failures)\n";
            break;
          }
        }
        all_passed = all_passed && failed == 0;
        // How many cases ran, and on which variants when there are several.
        int ran = 0;
        std::string split;
        for (const auto& [name, count] : per_variant) {
          ran += count;
          split += (split.empty() ? " (" : ", ") + name + " " + std::to_string(count);
        }
        split = variants.size() > 1 ? split + ")" : "";
        std::printf("%-22s %-9s %s  %d cases%s  worst ratio %.3g  kernel time %.3f ms\n", op.c_str(), device.selector.c_str(),
                    failed ? "FAIL" : "pass", ran, split.c_str(), worst, seconds * 1e3);
        std::fflush(stdout);
      }
    }
    if (!opt->json.empty()) {
      std::ofstream f(opt->json);
      if (!f) throw Error("cannot write " + opt->json);
      f << nlohmann::json{{"kind", "check"}, {"cases", cases}, {"failures", failures}, {"kernel", source.describe()}}.dump(1) << "\n";
    }
    ctx.exit_code = std::max(ctx.exit_code, all_passed ? 0 : 1);
  });
}

}  // namespace plumbline::apps
