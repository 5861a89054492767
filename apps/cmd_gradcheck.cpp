// `plumbline gradcheck OP|--all`: every reference backward against finite differences of the reference
// forward, on random problems from the operator's generator (or one given problem line).
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "check/generators.hpp"
#include "check/gradcheck.hpp"
#include "check/shrink.hpp"
#include "core/registry.hpp"

namespace plumbline::apps {

namespace {

constexpr double kGradcheckBudget = 2e5;  // FLOPs of one forward: finite differences evaluate it many times

bool is_backward(const std::string& op) { return !Registry::get().find(op).forward.empty(); }

struct Options {
  std::string op, problem, json, mode = "auto", shard;
  bool all = false;
  int cases = 20;
  uint64_t seed = 1;
};

nlohmann::json to_json(const Problem& p, uint64_t seed, const GradcheckResult& r) {
  return {{"op", p.op()},          {"problem", p.line()},      {"seed", seed},       {"mode", r.mode},
          {"passed", r.passed},    {"checks", r.checks},       {"worst_ratio", r.worst_ratio},
          {"where", r.where},      {"analytic", r.analytic},   {"numeric", r.numeric}, {"fd_error", r.fd_error}};
}

std::string repro(const Problem& p, uint64_t seed) {
  return "plumbline gradcheck " + p.op() + " --problem '" + p.line() + "' --seed " + std::to_string(seed);
}

}  // namespace

void add_gradcheck_command(CLI::App& app, Context& ctx) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("gradcheck", "Check reference backwards against finite differences");
  cmd->add_option("op", opt->op, "a backward operator, or a forward one for all of its backwards");
  cmd->add_flag("--all", opt->all, "every backward operator");
  cmd->add_option("--problem", opt->problem, "one problem line instead of random problems");
  cmd->add_option("--cases", opt->cases, "random problems per operator")->check(CLI::PositiveNumber);
  cmd->add_option("--seed", opt->seed, "seed of the problems and values");
  cmd->add_option("--mode", opt->mode, "auto (full Jacobian when small), full or fast (random projections)")
      ->check(CLI::IsMember({"auto", "full", "fast"}));
  cmd->add_option("--json", opt->json, "write every case's result to this JSON file");
  add_shard_option(cmd, opt->shard);
  cmd->callback([opt, &ctx] {
    const Shard shard = parse_shard(opt->shard);
    GradcheckOptions go;
    go.mode = opt->mode == "full" ? GradcheckOptions::Mode::Full
              : opt->mode == "fast" ? GradcheckOptions::Mode::Fast : GradcheckOptions::Mode::Auto;
    if (!opt->problem.empty() && !is_backward(Problem::parse(opt->problem).op()))
      throw Error(Problem::parse(opt->problem).op() + " is not a backward operator");
    const Selection sel = select(opt->op, opt->problem, opt->all, is_backward);
    const std::vector<std::string>& ops = sel.ops;
    nlohmann::json cases = nlohmann::json::array(), failures = nlohmann::json::array();
    bool all_passed = true;
    for (const auto& op : ops) {
      const int n = sel.problem ? 1 : opt->cases;
      double worst = 0;
      int failed = 0, ran = 0;
      for (int i = 0; i < n; ++i) {
        if (!shard.mine(static_cast<size_t>(i))) continue;
        ++ran;
        const uint64_t seed = opt->seed + static_cast<uint64_t>(i);
        auto shrinkable = sel.problem ? rc::shrinkable::just(*sel.problem) : sample_problem(op, kGradcheckBudget, opt->seed, i, n);
        const Problem p = shrinkable.value();
        GradcheckResult r = gradcheck(p, seed, go);
        cases.push_back(to_json(p, seed, r));
        worst = std::max(worst, r.worst_ratio);
        if (r.passed) continue;
        ++failed;
        const Problem small = shrink_failure(shrinkable, [&](const Problem& q) { return !gradcheck(q, seed, go).passed; });
        const GradcheckResult rs = gradcheck(small, seed, go);
        std::cout << "FAIL " << op << ": " << rs.summary() << "\n  problem: " << small.line()
                  << "\n  repro:   " << repro(small, seed) << "\n";
        if (!(small == p)) std::cout << "  (shrunk from " << p.line() << ")\n";
        failures.push_back({{"op", op}, {"problem", small.line()}, {"original", p.line()}, {"seed", seed},
                            {"message", rs.summary()}, {"repro", repro(small, seed)}});
      }
      all_passed = all_passed && failed == 0;
      std::printf("%-22s %s  %d cases  worst ratio %.3g\n", op.c_str(), failed ? "FAIL" : "pass", ran, worst);
    }
    if (!opt->json.empty()) {
      std::ofstream f(opt->json);
      if (!f) throw Error("cannot write " + opt->json);
      f << nlohmann::json{{"kind", "gradcheck"}, {"cases", cases}, {"failures", failures}}.dump(1) << "\n";
    }
    ctx.exit_code = std::max(ctx.exit_code, all_passed ? 0 : 1);
  });
}

}  // namespace plumbline::apps
