// `plumbline gate`: the main job. Every check on every selected device (gradients, kernels, rewrite
// rules, whole training graphs), then the benchmark smoke set and its regression comparison against
// the previous run's, then the HTML report and JUnit XML. Each step runs as a subcommand of this
// program (its output streamed, one line per operator and device, and kept in OUT/logs/), writing its
// JSON into OUT. Exit 1 if anything failed or regressed.
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "apps/kernel_flags.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"

namespace fs = std::filesystem;

namespace plumbline::apps {
namespace {

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct Step {
  std::string name, status = "skipped", details;
  double seconds = 0;
};

class Gate {
 public:
  explicit Gate(fs::path out) : out_(std::move(out)), start_(std::chrono::steady_clock::now()) { fs::create_directories(out_ / "logs"); }

  double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

  // Runs `args` (a command line); its output is streamed, indented, and kept in logs/<log>.log.
  // Returns the exit status.
  int run(const std::string& title, const std::string& log, const std::string& args) {
    std::printf("[%6.1fs] %s\n", elapsed(), title.c_str());
    std::fflush(stdout);
    std::ofstream keep(out_ / "logs" / (log + ".log"), std::ios::app);
    keep << "$ " << args << "\n";
    FILE* p = popen((args + " 2>&1").c_str(), "r");
    if (!p) throw Error("gate: cannot run " + args);
    std::array<char, 4096> line;
    while (fgets(line.data(), line.size(), p)) {
      keep << line.data();
      std::printf("    %s", line.data());
      std::fflush(stdout);
    }
    const int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
  }

  Step& step(const std::string& name) {
    steps_.push_back(Step{name, "skipped", "", 0});
    return steps_.back();
  }
  const std::vector<Step>& steps() const { return steps_; }
  const fs::path& out() const { return out_; }

 private:
  fs::path out_;
  std::chrono::steady_clock::time_point start_;
  std::vector<Step> steps_;
};

nlohmann::json read_json(const fs::path& p) {
  std::ifstream f(p);
  if (!f) return nullptr;
  try {
    return nlohmann::json::parse(f);
  } catch (const std::exception&) {
    return nullptr;
  }
}

// Runs `command(target) --json PART` for each target (one subcommand per operator, or --all) and
// appends each part's cases and failures to `merged`. Returns the worst exit status.
int run_merged(Gate& gate, const std::vector<std::string>& targets, const std::string& title, const std::string& log,
               const std::function<std::string(const std::string&)>& command, nlohmann::json& merged) {
  int worst = 0;
  const fs::path part = gate.out() / (log + "_part.json");
  for (const auto& t : targets) {
    worst = std::max(worst, gate.run(title + ": " + t, log, command(t) + " --json " + quote(part.string())));
    const auto j = read_json(part);
    if (j.is_object())
      for (const char* k : {"cases", "failures"})
        for (const auto& x : j[k]) merged[k].push_back(x);
    fs::remove(part);
  }
  return worst;
}

// The newest earlier run's benchmarks in OUT/history (the stored baseline), or "".
std::string previous_bench(const fs::path& history) {
  std::vector<fs::path> runs;
  if (fs::exists(history))
    for (const auto& e : fs::directory_iterator(history))
      if (fs::exists(e.path() / "bench.json")) runs.push_back(e.path());
  std::sort(runs.begin(), runs.end());
  return runs.empty() ? "" : (runs.back() / "bench.json").string();
}

std::string utc_stamp() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", std::gmtime(&t));
  return buf;
}

}  // namespace

void add_gate_command(CLI::App& app, Context& ctx) {
  struct Options {
    std::vector<std::string> ops;
    std::string device, out = "out", baseline, baseline_ref, shard;
    plans::KernelSource source;
    int cases = 100;
    uint64_t seed = 1;
    bool no_bench = false, no_report = false, mutants = false, no_sanitize = false;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("gate", "The main job: every check on every device, benchmarks and their regression gate, the HTML report");
  cmd->add_option("--op", opt->ops, "only these operators (repeatable; default: all)");
  cmd->add_option("--device", opt->device, "device selector (default: PLUMBLINE_DEVICE, else all)");
  cmd->add_option("--cases", opt->cases, "random problems per operator and device")->check(CLI::PositiveNumber);
  cmd->add_option("--seed", opt->seed, "seed of every random choice");
  cmd->add_option("--out", opt->out, "output folder: JSON per step, logs/, history/, report.html, junit.xml");
  cmd->add_flag("--no-bench", opt->no_bench, "skip the benchmark smoke set and the regression comparison");
  cmd->add_flag("--no-sanitize", opt->no_sanitize, "skip the sanitizer pass (every variant on Oclgrind: races, uninitialized values, barriers)");
  cmd->add_option("--baseline", opt->baseline, "benchmark JSON to compare with (default: the previous run's, OUT/history)");
  cmd->add_option("--baseline-ref", opt->baseline_ref,
                  "judge the benchmarks paired against our kernels at this git revision, interleaved in one run (immune to machine drift)");
  add_kernel_flags(cmd, opt->source);
  cmd->add_flag("--no-report", opt->no_report, "do not write the HTML report");
  cmd->add_flag("--mutants", opt->mutants, "also measure detection power: the bug catalogue (plumbline mutants --catalogue)");
  add_shard_option(cmd, opt->shard);
  cmd->callback([opt, &ctx] {
    opt->source.validate();
    if (!opt->source.kernel_file.empty() && opt->ops.size() != 1) throw Error("--kernel-file replaces one operator's kernel: give exactly one --op");
    for (const auto& op : opt->ops) Registry::get().find(op);  // unknown names: an error listing the known ones
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    const std::string dev = opt->device.empty() ? "" : " --device " + quote(opt->device);
    Gate gate(opt->out);
    const fs::path out = gate.out();
    for (const char* f : {"gradcheck.json", "check.json", "sanitizer.json", "rules.json", "graphs.json", "bench.json", "regression.json",
                          "paired.json", "mutants.json"})
      fs::remove(out / f);  // a step that does not run leaves no stale result behind
    const Shard shard = parse_shard(opt->shard);
    const std::string seed = " --seed " + std::to_string(opt->seed) + shard.flag();  // every sharded step gets --shard
    const std::string cases = " --cases " + std::to_string(opt->cases);
    int failed = 0;
    auto verdict = [&](Step& s, int status, const std::string& details) {
      s.status = status == 0 ? "pass" : status == 1 ? "FAIL" : "ERROR";
      s.details = details;
      failed += status != 0;
    };
    auto timed = [&](Step& s, const std::function<void()>& f) {
      const double t0 = gate.elapsed();
      f();
      s.seconds = gate.elapsed() - t0;
    };

    // 1. Reference gradients against finite differences.
    Step& grads = gate.step("gradients");
    timed(grads, [&] {
      std::vector<std::string> targets;
      if (opt->ops.empty()) targets.push_back("--all");
      for (const auto& op : opt->ops) {
        const auto& all = Registry::get().all();
        const bool has_backward =
            !Registry::get().find(op).forward.empty() || std::any_of(all.begin(), all.end(), [&](const OpSpec& s) { return s.forward == op; });
        if (has_backward) targets.push_back(op);
      }
      nlohmann::json merged{{"kind", "gradcheck"}, {"cases", nlohmann::json::array()}, {"failures", nlohmann::json::array()}};
      const int worst = run_merged(
          gate, targets, "gradients", "gradcheck", [&](const std::string& t) { return quote(self) + " gradcheck " + t + cases + seed; }, merged);
      std::ofstream(out / "gradcheck.json") << merged.dump(1);
      verdict(grads, worst, std::to_string(merged["cases"].size()) + " cases, " + std::to_string(merged["failures"].size()) + " failures");
    });

    // 2. Every kernel against the reference, on every device.
    Step& kernels = gate.step("kernels");
    timed(kernels, [&] {
      std::vector<std::string> targets = opt->ops.empty() ? std::vector<std::string>{"--all"} : opt->ops;
      nlohmann::json merged{
          {"kind", "check"}, {"cases", nlohmann::json::array()}, {"failures", nlohmann::json::array()}, {"kernel", opt->source.describe()}};
      const std::string user = opt->source.flags().empty() ? "" : " " + opt->source.flags();
      const int worst = run_merged(
          gate, targets, "kernels", "check", [&](const std::string& t) { return quote(self) + " check " + t + cases + seed + dev + user; }, merged);
      std::ofstream(out / "check.json") << merged.dump(1);
      verdict(kernels, worst, std::to_string(merged["cases"].size()) + " cases, " + std::to_string(merged["failures"].size()) + " failures");
    });

    // 2b. The sanitizer pass: every variant on the device simulator (races, uninitialized values,
    // divergent barriers, accesses out of bounds), whatever devices the run checks.
    Step& sanitizer = gate.step("sanitizer");
    if (opt->no_sanitize) sanitizer.details = "--no-sanitize";
    if (!opt->no_sanitize)
      timed(sanitizer, [&] {
        std::vector<std::string> targets = opt->ops.empty() ? std::vector<std::string>{"--all"} : opt->ops;
        nlohmann::json merged{
            {"kind", "check"}, {"cases", nlohmann::json::array()}, {"failures", nlohmann::json::array()}, {"kernel", opt->source.describe()}};
        const std::string user = opt->source.flags().empty() ? "" : " " + opt->source.flags();
        const int worst = run_merged(
            gate, targets, "sanitizer", "sanitizer", [&](const std::string& t) { return quote(self) + " check " + t + " --sanitize" + seed + user; },
            merged);
        std::ofstream(out / "sanitizer.json") << merged.dump(1);
        int skipped = 0;
        for (const auto& c : merged["cases"]) skipped += c.value("skipped", false);
        verdict(sanitizer, worst,
                std::to_string(merged["cases"].size()) + " cases, " + std::to_string(merged["failures"].size()) + " failures" +
                    (skipped ? ", " + std::to_string(skipped) + " skipped (Oclgrind cannot run them)" : ""));
      });

    // 3. Rewrite rules, and 4. whole training graphs.
    Step& rules = gate.step("rules");
    timed(rules, [&] {
      const int s = gate.run("rewrite rules", "rules", quote(self) + " rules check" + seed + dev + " --json " + quote((out / "rules.json").string()));
      const auto j = read_json(out / "rules.json");
      int bad = 0;
      if (j.is_object())
        for (const auto& r : j["rules"]) bad += !r["passed"].get<bool>();
      verdict(rules, s, std::to_string(j.is_object() ? j["rules"].size() : 0) + " verdicts, " + std::to_string(bad) + " failing");
    });
    Step& graphs = gate.step("graphs");
    if (shard.index != 0) graphs.details = "runs on shard 0 of " + std::to_string(shard.count);
    if (shard.index == 0)
      timed(graphs, [&] {
        const int s = gate.run("training graphs", "graphs", quote(self) + " rules graphs" + dev + " --json " + quote((out / "graphs.json").string()));
        verdict(graphs, s, "mlp_gelu, conv_block, transformer_mlp");
      });

    // 5. Benchmarks (smoke set), and 6. the regression comparison.
    Step& bench = gate.step("benchmarks");
    Step& regression = gate.step("regression");
    if (!opt->no_bench) {
      const std::string baseline = opt->baseline.empty() ? previous_bench(out / "history") : opt->baseline;
      timed(bench, [&] {
        std::string filter;
        for (const auto& op : opt->ops) filter += (filter.empty() ? "^(" : "|") + op;
        if (!filter.empty()) filter += "):";
        const int s = gate.run("benchmarks (smoke set)", "bench",
                               quote(self) + " bench --smoke --repetitions 9 --min-time 0.02" + dev + shard.flag() +
                                   (filter.empty() ? "" : " --filter " + quote(filter)) + " --json " + quote((out / "bench.json").string()));
        const auto j = read_json(out / "bench.json");
        const bool none = s == 0 && (!j.is_object() || j["benchmarks"].empty());
        if (none) {
          fs::remove(out / "bench.json");
          bench.status = "skipped";
          bench.details = "the smoke set has no problem of these operators";
        } else {
          verdict(bench, s, "bench/batches/smoke.batch, 9 repetitions");
        }
      });
      timed(regression, [&] {
        if (!fs::exists(out / "bench.json")) return;
        if (!opt->baseline_ref.empty()) {  // paired: baseline and candidate interleaved in one process
          std::string filter;
          for (const auto& op : opt->ops) filter += (filter.empty() ? "^(" : "|") + op;
          const int s = gate.run("paired against " + opt->baseline_ref, "regression",
                                 quote(self) + " bench --smoke --repetitions 15 --min-time 0.02" + dev + shard.flag() + " --baseline-ref " +
                                     quote(opt->baseline_ref) + (filter.empty() ? "" : " --filter " + quote(filter + "):")) + " --json " +
                                     quote((out / "paired.json").string()));
          const auto j = read_json(out / "paired.json");
          int regressions = 0, failed = 0;
          if (j.is_object())
            for (const auto& r : j["results"])
              regressions += r["verdict"] == "regression", failed += r["verdict"] == "failed" || r["verdict"] == "error";
          verdict(regression, s,
                  j.is_object()
                      ? std::to_string(regressions) + " regressions, " + std::to_string(failed) + " failures, paired against " + opt->baseline_ref
                      : "the paired run failed");
          return;
        }
        if (baseline.empty()) {
          regression.status = "skipped";
          regression.details = "no baseline yet: this run's benchmarks become the next run's";
          return;
        }
        const int s = gate.run("regression against " + baseline, "regression",
                               "/usr/bin/python3 " + quote(std::string(PLUMBLINE_SOURCE_DIR) + "/bench/compare.py") + " " + quote(baseline) + " " +
                                   quote((out / "bench.json").string()) + " --json " + quote((out / "regression.json").string()));
        const auto j = read_json(out / "regression.json");
        verdict(regression, s,
                j.is_object() ? std::to_string(j["regressions"].get<int>()) + " regressions, " + std::to_string(j["failures"].get<int>()) +
                                    " failures (baseline " + baseline + ")"
                              : "compare.py failed");
      });
    }

    // 7. Detection power (on request: a minute on PoCL).
    Step& power = gate.step("mutants");
    if (opt->mutants && shard.index == 0)
      timed(power, [&] {
        std::string only;
        if (opt->ops.size() == 1) only = " --op " + quote(opt->ops[0]);
        const int s = gate.run("detection power: the bug catalogue", "mutants",
                               quote(self) + " mutants --catalogue" + only + " --seed " + std::to_string(opt->seed) + dev + " --json " +
                                   quote((out / "mutants.json").string()));
        verdict(power, s, "every catalogued bug must be killed");
      });

    // Summary, history, report.
    nlohmann::json summary{{"kind", "gate"},
                           {"date", utc_stamp()},
                           {"device", opt->device},
                           {"cases", opt->cases},
                           {"seed", opt->seed},
                           {"ops", opt->ops},
                           {"steps", nlohmann::json::array()},
                           {"passed", failed == 0},
                           {"shard", shard.whole() ? "" : std::to_string(shard.index) + "/" + std::to_string(shard.count)}};
    std::printf("\n%-12s %-8s %8s  %s\n", "step", "status", "seconds", "details");
    for (const auto& s : gate.steps()) {
      std::printf("%-12s %-8s %8.1f  %s\n", s.name.c_str(), s.status.c_str(), s.seconds, s.details.c_str());
      summary["steps"].push_back({{"name", s.name}, {"status", s.status}, {"seconds", s.seconds}, {"details", s.details}});
    }
    std::ofstream(out / "summary.json") << summary.dump(1);
    const fs::path stamp = out / "history" / summary["date"].get<std::string>();
    fs::create_directories(stamp);
    for (const char* f : {"summary.json", "bench.json", "check.json", "rules.json", "regression.json"})
      if (fs::exists(out / f)) fs::copy_file(out / f, stamp / f, fs::copy_options::overwrite_existing);
    if (!opt->no_report) {
      const int s = gate.run("report", "report",
                             "/usr/bin/python3 " + quote(std::string(PLUMBLINE_SOURCE_DIR) + "/reports/make_report.py") + " " + quote(out.string()));
      if (s != 0) ++failed;
      std::cout << "\nreport: " << fs::absolute(out / "report.html").string() << "\njunit:  " << fs::absolute(out / "junit.xml").string() << "\n";
    }
    std::cout << (failed ? "GATE FAILED" : "gate passed") << " in " << static_cast<int>(gate.elapsed()) << " s\n";
    ctx.exit_code = std::max(ctx.exit_code, failed ? 1 : 0);
  });
}

}  // namespace plumbline::apps
