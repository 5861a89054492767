// `plumbline check OP|--all`: every kernel against the reference on random problems (or one problem
// line), on every selected OpenCL device, with poisoned outputs and guarded buffers. A failure is
// shrunk to a small problem and printed with the command that reproduces it.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "check/generators.hpp"
#include "check/kernel_check.hpp"
#include "check/shrink.hpp"
#include "core/registry.hpp"
#include "opencl/device.hpp"

namespace plumbline::apps {

namespace {


struct Options {
  std::string op, problem, json, device, kernel_file, values;
  std::vector<std::string> entries;
  bool all = false, first_failure = false;
  int cases = 100;
  uint64_t seed = 1;
};

// Cases cycle through the value distributions: exact integers, uniform, normal with outliers, edge values.
nlohmann::json to_json(const CaseResult& r) {
  return {{"op", r.problem.op()}, {"family", Registry::get().find(r.problem.op()).family}, {"problem", r.problem.line()},
          {"device", r.device},   {"values", to_string(r.values)},
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
  cmd->add_option("--cases", opt->cases, "random problems per operator and device")->check(CLI::PositiveNumber);
  cmd->add_option("--seed", opt->seed, "seed of the problems and values");
  cmd->add_option("--values", opt->values, "integers, uniform, normal or edge (default: cycle through all four)")
      ->check(CLI::IsMember({"integers", "uniform", "normal", "edge"}));
  cmd->add_option("--device", opt->device, "device selector (default: PLUMBLINE_DEVICE, else all)");
  cmd->add_option("--kernel-file", opt->kernel_file, "your .cl file, following docs/kernel-abi.md");
  cmd->add_option("--entry", opt->entries, "its entry point(s), one per step, comma-separated")->delimiter(',');
  cmd->add_option("--json", opt->json, "write every case's result to this JSON file");
  cmd->add_flag("--first-failure", opt->first_failure, "stop an operator at its first failing case, unshrunk (mutation runs)");
  cmd->callback([opt, &ctx] {
    std::optional<UserKernel> user;
    if (!opt->kernel_file.empty()) {
      if (opt->entries.empty()) throw Error("--kernel-file needs --entry NAME (one per step of the operator)");
      user = UserKernel{opt->kernel_file, opt->entries};
    } else if (!opt->entries.empty()) {
      throw Error("--entry needs --kernel-file");
    }
    if (opt->all && user) throw Error("--kernel-file checks one operator: name it instead of --all");
    const Selection sel = select(opt->op, opt->problem, opt->all, nullptr);
    const std::vector<std::string>& ops = sel.ops;
    const auto devices = ocl::select_devices(opt->device.empty() ? ocl::default_selector() : opt->device);

    nlohmann::json cases = nlohmann::json::array(), failures = nlohmann::json::array();
    bool all_passed = true;
    for (const auto& device : devices) {
      ocl::Runtime rt(device);
      KernelChecker checker(rt, user);
      for (const auto& op : ops) {
        if (!ocl::find_launch_plan(op)) {
          if (!opt->all) throw Error("operator '" + op + "' has no OpenCL kernel yet");
          std::printf("%-22s %-9s no kernel yet\n", op.c_str(), device.selector.c_str());
          continue;
        }
        const int n = sel.problem ? 1 : opt->cases;
        int failed = 0;
        double worst = 0, seconds = 0;
        for (int i = 0; i < n; ++i) {
          const uint64_t seed = opt->seed + static_cast<uint64_t>(i);
          const Values values = opt->values.empty() ? values_for_case(i) : values_from_string(opt->values);
          auto shrinkable = sel.problem ? rc::shrinkable::just(*sel.problem) : sample_problem(op, kKernelCaseBudget, opt->seed, i, n);
          const CaseResult r = checker.run(shrinkable.value(), values, seed);
          cases.push_back(to_json(r));
          worst = std::max(worst, r.worst_ratio);
          seconds += r.seconds;
          if (r.passed) continue;
          ++failed;
          if (opt->first_failure) {
            std::cout << "FAIL " << op << " on " << device.selector << " [" << r.verdict << "] at case " << i + 1 << ": " << r.message << "\n";
            break;
          }
          const Problem small = shrink_failure(shrinkable, [&](const Problem& q) { return !checker.run(q, values, seed).passed; });
          const CaseResult rs = checker.run(small, values, seed);
          std::cout << "FAIL " << op << " on " << device.selector << " [" << rs.verdict << "]: " << rs.message
                    << "\n  problem: " << small.line() << "  (values " << to_string(values) << ", seed " << seed << ")"
                    << "\n  repro:   " << check_repro(rs, user) << "\n";
          if (!(small == r.problem)) std::cout << "  (shrunk from " << r.problem.line() << ")\n";
          failures.push_back({{"op", op}, {"device", device.selector}, {"verdict", rs.verdict}, {"message", rs.message},
                              {"problem", small.line()}, {"original", r.problem.line()}, {"values", to_string(values)},
                              {"seed", seed}, {"repro", check_repro(rs, user)}});
          if (failed >= 3 && !sel.problem) {
            std::cout << "  (stopping " << op << " after 3 failures)\n";
            break;
          }
        }
        all_passed = all_passed && failed == 0;
        std::printf("%-22s %-9s %s  %d cases  worst ratio %.3g  kernel time %.3f ms\n", op.c_str(), device.selector.c_str(),
                    failed ? "FAIL" : "pass", n, worst, seconds * 1e3);
        std::fflush(stdout);
      }
    }
    if (!opt->json.empty()) {
      std::ofstream f(opt->json);
      if (!f) throw Error("cannot write " + opt->json);
      f << nlohmann::json{{"kind", "check"}, {"cases", cases}, {"failures", failures},
                          {"kernel", user ? user->path : std::string("plumbline's own")}}.dump(1) << "\n";
    }
    ctx.exit_code = std::max(ctx.exit_code, all_passed ? 0 : 1);
  });
}

}  // namespace plumbline::apps
