// `plumbline bench`: kernels timed on real layer shapes (bench/suite.hpp), Google Benchmark JSON out.
// Compare two runs with bench/compare.py (the regression gate).
#include <memory>

#include "apps/commands.hpp"
#include "apps/kernel_flags.hpp"
#include "bench/suite.hpp"
#include "core/error.hpp"
#include "opencl/device.hpp"

namespace plumbline::apps {

void add_bench_command(CLI::App& app, Context& ctx) {
  struct Options {
    std::vector<std::string> batches, problems;
    std::string device, json, filter;
    plans::KernelSource source;
    int repetitions = 9;
    double min_time = 0.1, check_budget = 3e8;
    bool smoke = false, cpu_peer = false, clblast_peer = false;
    uint64_t seed = 1;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("bench", "Time kernels on real layer shapes (checked first), Google Benchmark JSON out");
  cmd->add_option("--batch", opt->batches, "batch file of problem lines (repeatable; default: every bench/batches/*.batch but smoke)");
  cmd->add_option("--problem", opt->problems, "one problem line (repeatable)");
  cmd->add_flag("--smoke", opt->smoke, "the CI smoke set: bench/batches/smoke.batch, 3 repetitions, short");
  cmd->add_option("--device", opt->device, "device selector (default: PLUMBLINE_DEVICE, else all)");
  auto* reps = cmd->add_option("--repetitions", opt->repetitions, "repetitions per benchmark (the gate's statistics need >= 9)")
                   ->check(CLI::PositiveNumber);
  auto* min_time = cmd->add_option("--min-time", opt->min_time, "seconds of kernel time per repetition")->check(CLI::PositiveNumber);
  cmd->add_flag("--cpu-peer", opt->cpu_peer, "also time each problem through Eigen on the CPU");
  cmd->add_flag("--clblast-peer", opt->clblast_peer, "also time CLBlast SGEMM beside our GEMMs on each device");
  add_kernel_flags(cmd, opt->source);
  cmd->add_option("--json", opt->json, "write Google Benchmark's JSON here");
  cmd->add_option("--filter", opt->filter, "only benchmarks whose name matches this regex");
  cmd->add_option("--seed", opt->seed, "seed of the input values");
  cmd->add_option("--check-budget", opt->check_budget,
                  "FLOPs of the reference check before timing; larger problems are checked at a smaller batch")
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
    opt->source.validate();
    so.source = opt->source;
    so.devices = opt->device.empty() ? ocl::default_selector() : opt->device;
    // --smoke shortens what was not given explicitly.
    if (!opt->smoke || min_time->count()) so.min_time = opt->min_time;
    if (!opt->smoke || reps->count()) so.repetitions = opt->repetitions;
    so.cpu_peer = opt->cpu_peer;
    so.clblast_peer = opt->clblast_peer;
    so.json = opt->json;
    so.filter = opt->filter;
    so.seed = opt->seed;
    so.check_budget = opt->check_budget;
    ctx.exit_code = std::max(ctx.exit_code, bench::run_suite(so));
  });
}

}  // namespace plumbline::apps
