// `plumbline bench`: kernels timed on real layer shapes (bench/suite.hpp), Google Benchmark JSON out.
// Compare two runs with bench/compare.py (the regression gate).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <thread>
#include <unistd.h>

#include "apps/child_process.hpp"
#include "apps/commands.hpp"
#include "apps/kernel_flags.hpp"
#include "bench/paired.hpp"
#include "bench/suite.hpp"
#include "core/error.hpp"
#include "opencl/device.hpp"

namespace plumbline::apps {

namespace {

struct Options {
  std::vector<std::string> batches, problems;
  std::string device, json, filter;
  plans::KernelSource source;
  std::string baseline_kernel_file, baseline_plan, baseline_ref, shard, timing = "launch";
  double threshold = 0.05;
  int repetitions = 9, jobs = 1;
  double min_time = 0.1, check_budget = 3e8;
  bool smoke = false, cpu_peer = false, clblast_peer = false, verbose = false;
  uint64_t seed = 1;
  std::string check_part, check_out;  // a --jobs child: its share of the checks, and where they go
};

// bench --jobs: the lines' checks (each line's build and reference, most of a cold batch's time) made
// by `jobs` child processes side by side, each over the same lines as this process (problem j goes to
// child j % jobs), before this process times the lines one at a time. A line a child did not check (it
// failed to run, or crashed) is checked by this process as without --jobs.
std::map<std::string, bench::CheckOnce> check_side_by_side(const Options& o, const bench::SuiteOptions& so, int jobs) {
  namespace fs = std::filesystem;
  jobs = std::min<int>(jobs, static_cast<int>(so.problems.size()));
  std::printf("bench: checking %zu line(s) in %d processes side by side\n", so.problems.size(), jobs);
  std::fflush(stdout);
  std::vector<std::string> outs;
  std::vector<std::thread> children;
  for (int i = 0; i < jobs; ++i) {
    const std::string tag = "plumbline_bench_" + std::to_string(::getpid()) + "_" + std::to_string(i);
    outs.push_back((fs::temp_directory_path() / (tag + ".jsonl")).string());
    std::vector<std::string> a{self_path(),      "bench",
                               "--device",       so.devices,
                               "--seed",         std::to_string(so.seed),
                               "--check-budget", std::to_string(so.check_budget),
                               "--check-part",   std::to_string(i) + "/" + std::to_string(jobs),
                               "--check-out",    outs.back()};
    for (const auto& b : o.batches) a.insert(a.end(), {"--batch", b});
    for (const auto& p : o.problems) a.insert(a.end(), {"--problem", p});
    if (o.smoke) a.push_back("--smoke");
    if (!o.shard.empty()) a.insert(a.end(), {"--shard", o.shard});
    if (!o.filter.empty()) a.insert(a.end(), {"--filter", o.filter});
    const std::vector<std::string> source = o.source.flag_args();
    a.insert(a.end(), source.begin(), source.end());
    const std::string log = (fs::temp_directory_path() / (tag + ".log")).string();
    children.emplace_back([a, out = outs.back(), log] { run_child(a, out, 1800, log); });
  }
  for (auto& t : children) t.join();
  std::map<std::string, bench::CheckOnce> checked;
  for (const auto& out : outs) {
    checked.merge(bench::read_checks(out));
    std::error_code ignored;
    fs::remove(out, ignored);
    fs::remove(fs::path(out).replace_extension(".log"), ignored);
  }
  // Lines times devices; one a child did not check is checked when it is timed.
  std::printf("bench: %zu of %zu line(s) checked side by side\n", checked.size(), so.problems.size() * ocl::select_devices(so.devices).size());
  return checked;
}

}  // namespace

void add_bench_command(CLI::App& app, Context& ctx) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("bench", "Time kernels on real layer shapes (checked first), Google Benchmark JSON out");
  cmd->add_option("--batch", opt->batches, "batch file of problem lines (repeatable; default: every bench/batches/*.batch but smoke)");
  cmd->add_option("--problem", opt->problems, "one problem line (repeatable)");
  cmd->add_flag("--smoke", opt->smoke, "the CI smoke set: bench/batches/smoke.batch, 3 repetitions, short");
  cmd->add_option("--device", opt->device, "device selector (default: PLUMBLINE_DEVICE, else all)");
  auto* reps =
      cmd->add_option("--repetitions", opt->repetitions, "repetitions per benchmark (the gate's statistics need >= 9)")->check(CLI::PositiveNumber);
  auto* min_time = cmd->add_option("--min-time", opt->min_time, "seconds of kernel time per repetition")->check(CLI::PositiveNumber);
  cmd->add_option("--timing", opt->timing,
                  "launch: one launch at a time, each waited for, steps timed apart (default); stream: launches back to back "
                  "from the first start to the last end, as CUDA events around a loop time PyTorch (bench/side_by_side.sh)");
  cmd->add_flag("--cpu-peer", opt->cpu_peer, "also time each problem through Eigen on the CPU");
  cmd->add_flag("--clblast-peer", opt->clblast_peer, "also time CLBlast SGEMM beside our GEMMs on each device");
  add_kernel_flags(cmd, opt->source);
  cmd->add_option("--baseline-kernel-file", opt->baseline_kernel_file,
                  "paired comparison: this file's kernel (same entries and launch flags) against the candidate, interleaved");
  cmd->add_option("--baseline-plan", opt->baseline_plan, "paired comparison: this plan file's kernels as the baseline");
  cmd->add_option("--baseline-ref", opt->baseline_ref, "paired comparison: our kernels (and tuning) at this git revision as the baseline");
  cmd->add_option("--threshold", opt->threshold, "paired comparison: the change that counts (0.05: 5%)")->check(CLI::PositiveNumber);
  add_shard_option(cmd, opt->shard);
  cmd->add_option("--json", opt->json, "write Google Benchmark's JSON here");
  cmd->add_flag("--verbose", opt->verbose, "Google Benchmark's full table instead of one line per benchmark");
  cmd->add_option("--filter", opt->filter, "only benchmarks whose name matches this regex");
  cmd->add_option("--seed", opt->seed, "seed of the input values");
  cmd->add_option("--jobs", opt->jobs,
                  "check the lines in this many processes side by side before timing them one at a time (default 1: each line checked "
                  "as it is timed); each process holds one line's check at a time")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--check-part", opt->check_part)->group("");  // internal: a --jobs child's share, I/N
  cmd->add_option("--check-out", opt->check_out)->group("");    // internal: where that child writes its checks
  cmd->add_option("--check-budget", opt->check_budget,
                  "FLOPs of the full reference check before timing; larger problems are checked on a sample of their outputs")
      ->check(CLI::PositiveNumber);
  cmd->callback([opt, reps, min_time, &ctx] {
    bench::SuiteOptions so;
    std::vector<std::string> files = opt->batches;
    if (opt->smoke) {
      files.push_back(bench::smoke_batch());
      so.repetitions = 3;
      so.min_time = 0.01;
    }
    if (files.empty() && opt->problems.empty()) files = bench::real_layer_batches();
    for (const auto& f : files)
      for (auto& e : bench::read_batch(f)) so.problems.push_back(std::move(e));
    for (const auto& line : opt->problems) so.problems.push_back({Problem::parse(line), "--problem", 0});
    const Shard shard = parse_shard(opt->shard);
    if (!shard.whole()) {  // problem j of the list belongs to shard j % N
      std::vector<bench::BatchEntry> mine;
      for (size_t j = 0; j < so.problems.size(); ++j)
        if (shard.mine(j)) mine.push_back(so.problems[j]);
      so.problems = std::move(mine);
      if (so.problems.empty()) {
        std::printf("bench: shard %d/%d has no problem\n", shard.index, shard.count);
        if (!opt->json.empty()) std::ofstream(opt->json) << "{\"context\": {}, \"benchmarks\": []}\n";
        return;
      }
    }
    opt->source.validate();
    so.source = opt->source;
    const int baselines = !opt->baseline_kernel_file.empty() + !opt->baseline_plan.empty() + !opt->baseline_ref.empty();
    if (baselines > 1) throw Error("give one of --baseline-kernel-file, --baseline-plan and --baseline-ref");
    so.devices = opt->device.empty() ? ocl::default_selector() : opt->device;
    // --smoke shortens what was not given explicitly.
    if (!opt->smoke || min_time->count()) so.min_time = opt->min_time;
    if (!opt->smoke || reps->count()) so.repetitions = opt->repetitions;
    so.timing = bench::parse_timing(opt->timing);
    so.cpu_peer = opt->cpu_peer;
    so.clblast_peer = opt->clblast_peer;
    so.json = opt->json;
    so.filter = opt->filter;
    so.seed = opt->seed;
    so.check_budget = opt->check_budget;
    so.verbose = opt->verbose;
    if (!opt->check_part.empty()) {  // a --jobs child: its share of the checks, nothing timed
      const Shard part = parse_shard(opt->check_part);
      bench::check_lines(so, part.index, part.count, opt->check_out);
      return;
    }
    if (baselines) {
      // Baseline and candidate interleaved in this process, judged on their paired ratios.
      bench::PairedOptions po;
      for (const auto& e : so.problems)
        if (so.filter.empty() || std::regex_search(e.problem.line(), std::regex(so.filter))) po.problems.push_back(e);
      po.devices = so.devices;
      po.candidate = so.source;
      po.pairs = so.repetitions < 3 ? 15 : so.repetitions;
      po.min_time = so.min_time;
      po.timing = so.timing;
      po.threshold = opt->threshold;
      po.check_budget = so.check_budget;
      po.seed = so.seed;
      po.json = so.json;
      po.baseline_ref = opt->baseline_ref;
      if (!opt->baseline_plan.empty()) po.baseline = plans::KernelSource{.plan_file = opt->baseline_plan, .variant = opt->source.variant};
      if (!opt->baseline_kernel_file.empty()) {
        // The candidate's launch with the baseline's file: the same entries (ours: the default ABI's).
        po.baseline = so.source.kernel_file.empty() ? plans::KernelSource{} : so.source;
        po.baseline.kernel_file = opt->baseline_kernel_file;
        po.baseline.plan_file.clear();
        if (po.baseline.entries.empty())
          throw Error("--baseline-kernel-file replaces the file of a --kernel-file's launch: give the candidate as --kernel-file ... --entry ...");
      }
      ctx.exit_code = std::max(ctx.exit_code, bench::run_paired(po));
      return;
    }
    if (opt->jobs > 1 && so.problems.size() > 1) so.checked = check_side_by_side(*opt, so, opt->jobs);
    ctx.exit_code = std::max(ctx.exit_code, bench::run_suite(so));
  });
}

}  // namespace plumbline::apps
