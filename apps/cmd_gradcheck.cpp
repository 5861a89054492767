// `plumbline gradcheck OP|--all`: every reference backward against finite differences of the reference
// forward, on random problems from the operator's generator (or one given problem line).
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "check/generators.hpp"
#include "check/gradcheck.hpp"
#include "check/shrink.hpp"
#include "core/parallel.hpp"
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
  return {{"op", p.op()},          {"problem", p.line()},          {"seed", seed},     {"mode", r.mode},         {"passed", r.passed},
          {"checks", r.checks},    {"worst_ratio", r.worst_ratio}, {"where", r.where}, {"analytic", r.analytic}, {"numeric", r.numeric},
          {"fd_error", r.fd_error}};
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
    go.mode = opt->mode == "full" ? GradcheckOptions::Mode::Full : opt->mode == "fast" ? GradcheckOptions::Mode::Fast : GradcheckOptions::Mode::Auto;
    if (!opt->problem.empty() && !is_backward(Problem::parse(opt->problem).op()))
      throw Error(Problem::parse(opt->problem).op() + " is not a backward operator");
    const Selection sel = select(opt->op, opt->problem, opt->all, is_backward);
    const std::vector<std::string>& ops = sel.ops;
    nlohmann::json cases = nlohmann::json::array(), failures = nlohmann::json::array();
    bool all_passed = true;
    // Every case of every operator drawn first (RapidCheck's generators, here), then checked on the
    // host's cores (the reference is pure), then reported in order: the same results and lines as one
    // at a time. A failure is shrunk after, one at a time.
    struct Case {
      std::string op;
      rc::Shrinkable<Problem> problem;  // its value() runs RapidCheck's generators: taken before the threads start
      Problem p;
      uint64_t seed;
      GradcheckResult result;
    };
    std::vector<Case> todo;
    std::vector<size_t> first_of;  // ops[k]'s first case in todo
    for (const auto& op : ops) {
      first_of.push_back(todo.size());
      const int n = sel.problem ? 1 : opt->cases;
      for (int i = 0; i < n; ++i) {
        if (!shard.mine(static_cast<size_t>(i))) continue;
        auto problem = sel.problem ? rc::shrinkable::just(*sel.problem) : sample_problem(op, kGradcheckBudget, opt->seed, i, n);
        const Problem p = problem.value();
        todo.push_back({op, std::move(problem), p, opt->seed + static_cast<uint64_t>(i), {}});
      }
    }
    first_of.push_back(todo.size());
    parallel_for(static_cast<int64_t>(todo.size()), [&](int64_t c) {
      Case& k = todo[static_cast<size_t>(c)];
      k.result = gradcheck(k.p, k.seed, go);
    });
    for (size_t o = 0; o < ops.size(); ++o) {
      const std::string& op = ops[o];
      double worst = 0;
      int failed = 0;
      for (size_t c = first_of[o]; c < first_of[o + 1]; ++c) {
        const Case& k = todo[c];
        const Problem& p = k.p;
        const uint64_t seed = k.seed;
        cases.push_back(to_json(p, seed, k.result));
        worst = std::max(worst, k.result.worst_ratio);
        if (k.result.passed) continue;
        ++failed;
        const Problem small = shrink_failure(k.problem, [&](const Problem& q) { return !gradcheck(q, seed, go).passed; });
        const GradcheckResult rs = gradcheck(small, seed, go);
        std::cout << "FAIL " << op << ": " << rs.summary() << "\n  problem: " << small.line() << "\n  repro:   " << repro(small, seed) << "\n";
        if (!(small == p)) std::cout << "  (shrunk from " << p.line() << ")\n";
        failures.push_back({{"op", op},
                            {"problem", small.line()},
                            {"original", p.line()},
                            {"seed", seed},
                            {"message", rs.summary()},
                            {"repro", repro(small, seed)}});
      }
      all_passed = all_passed && failed == 0;
      std::printf("%-22s %s  %d cases  worst ratio %.3g\n", op.c_str(), failed ? "FAIL" : "pass", static_cast<int>(first_of[o + 1] - first_of[o]),
                  worst);
      std::fflush(stdout);
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
