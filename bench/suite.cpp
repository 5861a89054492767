#include "bench/suite.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>

#include "bench/calibration.hpp"
#include "bench/clblast_peer.hpp"
#include "bench/cpu_peer.hpp"
#include "bench/timed.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"
#include "opencl/device.hpp"
#include "build_id.hpp"  // PLUMBLINE_BUILD_ID, written at every build (bench/build_id.cmake)

namespace plumbline::bench {
namespace {

struct DeviceCtx {
  std::unique_ptr<ocl::Runtime> runtime;
  std::unique_ptr<KernelChecker> checker;
  DevicePeaks peaks;
};

// One benchmark's state, kept across Google Benchmark's calls (it calls the function once to pick an
// iteration count, then once per repetition). Buffers live while the benchmark runs: the previous
// benchmark's are released when the next one starts.
struct BenchCtx {
  Problem problem;
  std::string name;  // the batch's name of the problem (a layer's), or ""

  DeviceCtx* device = nullptr;  // nullptr: the CPU peer
  bool checked = false;
  CheckOnce check;
  std::unique_ptr<TimedProblem> timed;
  std::unique_ptr<ClblastGemm> clblast;  // the CLBlast peer's benchmark
  std::vector<TensorF> peer_in, peer_out;
};

BenchCtx* g_current = nullptr;

// Lines that did not time: kernels that failed their check, and lines that could not run at all.
struct Failures {
  int wrong = 0, errors = 0;
};

void make_current(BenchCtx* c) {
  if (g_current == c) return;
  if (g_current) {
    g_current->timed.reset();
    g_current->clblast.reset();
    g_current->peer_in.clear();
    g_current->peer_out.clear();
  }
  g_current = c;
}

void set_counters(benchmark::State& st, const Problem& p, double seconds_per_iter, const DevicePeaks* peaks) {
  const Signature sig = signature_of(p);
  const double gflops = sig.flops / seconds_per_iter / 1e9, gbps = sig.bytes() / seconds_per_iter / 1e9;
  st.counters["gflops"] = gflops;
  st.counters["gbps"] = gbps;
  st.counters["flops"] = sig.flops;
  st.counters["bytes"] = sig.bytes();
  if (peaks && peaks->gflops > 0) {
    // A 16-bit problem's FLOPs against the tensor cores where they were measured, else FP32's.
    const double peak = dtype_of(p) != DType::F32 && peaks->tensor_gflops > 0 ? peaks->tensor_gflops : peaks->gflops;
    st.counters["pct_peak_flops"] = 100 * gflops / peak;
    st.counters["pct_peak_bw"] = 100 * gbps / peaks->gbps;
    // Roofline: the shortest time its FLOPs and its bytes allow, over the time taken.
    const double best = std::max(sig.flops / (peak * 1e9), sig.bytes() / (peaks->gbps * 1e9));
    st.counters["pct_roofline"] = 100 * best / seconds_per_iter;
  }
}

// Ends a benchmark that cannot be timed, with the reason (one line of the console and the JSON); the
// batch goes on with the next line. Google Benchmark needs no loop after SkipWithError.
void not_timed(benchmark::State& st, const std::string& why) { st.SkipWithError(why.c_str()); }

// A line whose check, setup or launch throws (a problem this device cannot hold, a launch it refuses)
// is reported and counted, and the batch goes on: one line never loses the rest.
template <class Run>
void guarded(benchmark::State& st, BenchCtx& c, Failures& failures, Run&& body) {
  try {
    body();
  } catch (const Error& e) {
    ++failures.errors;
    c.timed.reset();
    c.clblast.reset();
    not_timed(st, std::string("not timed: ") + e.what());
  }
}

void run_on_device(benchmark::State& st, BenchCtx& c, const SuiteOptions& opt, Failures& failures) {
  make_current(&c);
  if (!c.checked) {
    c.checked = true;
    const auto made = opt.checked.find(benchmark_name(c.problem, c.device->runtime->device().selector));
    c.check = made != opt.checked.end() ? made->second : check_once(*c.device->checker, c.problem, opt.check_budget, opt.seed);
    if (!c.check.passed) ++failures.wrong;
  }
  if (!c.check.passed) return not_timed(st, "not timed: the kernel fails its check: " + c.check.message);
  if (!c.timed) {
    c.timed = std::make_unique<TimedProblem>(*c.device->checker, c.problem, opt.seed);
    c.timed->launch();  // warm-up: first-launch costs (kernel creation, page faults) are not timed
    c.timed->launch();
  }
  double total = 0;
  const std::vector<std::string> entries = c.timed->step_entries();
  std::vector<double> step_total(entries.size(), 0.0), steps;
  for (auto _ : st) {
    steps.clear();
    // Stream: one iteration a repetition (registered so), a burst of back-to-back launches; no step times.
    const double s = opt.timing == Timing::Stream ? sample(*c.timed, opt.min_time, Timing::Stream) : c.timed->launch(&steps);
    st.SetIterationTime(s);
    total += s;
    for (size_t i = 0; i < steps.size() && i < step_total.size(); ++i) step_total[i] += steps[i];
  }
  set_counters(st, c.problem, total / static_cast<double>(st.iterations()), &c.device->peaks);
  // A plan of several steps: each step's milliseconds an iteration, so that a report can say which
  // step costs (counters "step_01 ENTRY", ...: the numbers keep them in the plan's order).
  if (entries.size() > 1 && opt.timing == Timing::Launch)
    for (size_t i = 0; i < entries.size(); ++i) {
      char key[32];
      std::snprintf(key, sizeof key, "step_%02zu ", i + 1);
      st.counters[key + entries[i]] = 1e3 * step_total[i] / static_cast<double>(st.iterations());
    }
  const plans::Variant& chosen_variant = c.device->checker->select(c.problem);
  const std::string chosen = chosen_variant.name;
  const auto& borrowed = c.device->checker->kernels(c.problem.op()).borrowed;
  const auto from = borrowed.find(chosen);  // an entry of another device of this architecture: say whose
  // Its numeric mode where it is not exact: a side-by-side puts it beside a peer in the same mode.
  const std::string variant = "variant " + chosen + (from == borrowed.end() ? "" : " (" + from->second + "'s entry)") +
                              (plans::computes_exactly(chosen_variant) ? "" : ", math " + chosen_variant.math);
  st.SetLabel((c.name.empty() ? "" : c.name + ", ") + (c.check.sampled.empty() ? variant : variant + ", sampled check"));
}

void run_clblast(benchmark::State& st, BenchCtx& c, const SuiteOptions& opt) {
  make_current(&c);
  if (!c.clblast) {
    c.clblast = std::make_unique<ClblastGemm>(*c.device->runtime, c.problem, opt.seed);
    c.clblast->launch();  // warm-up (CLBlast compiles its kernels on first use)
  }
  double total = 0;
  for (auto _ : st) {
    const double s = c.clblast->launch();
    st.SetIterationTime(s);
    total += s;
  }
  set_counters(st, c.problem, total / static_cast<double>(st.iterations()), &c.device->peaks);
  st.SetLabel(c.clblast->label());
}

void run_on_cpu(benchmark::State& st, BenchCtx& c, const SuiteOptions& opt) {
  make_current(&c);
  const Signature sig = signature_of(c.problem);
  if (c.peer_in.empty()) {
    Rng rng(opt.seed);
    for (const auto& d : sig.inputs) c.peer_in.push_back(make_input(d, Values::Normal, rng));
    for (const auto& d : sig.outputs) c.peer_out.emplace_back(d.shape);
  }
  const CpuPeer peer = cpu_peer(c.problem);
  peer.run(c.peer_in, c.peer_out);  // warm-up
  double total = 0;
  for (auto _ : st) {
    const auto t0 = std::chrono::steady_clock::now();
    peer.run(c.peer_in, c.peer_out);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    st.SetIterationTime(s);
    total += s;
  }
  set_counters(st, c.problem, total / static_cast<double>(st.iterations()), nullptr);
  st.SetLabel(peer.method);
}

// One line per benchmark (bench's and the gate's console): the median time, GFLOP/s, GB/s and % of the
// roofline, and for a peer its time over ours. The full Google Benchmark table is --verbose's; every
// repetition is in the JSON either way.
class OneLineReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs) {
      const std::string name = r.run_name.function_name;
      if (r.error_occurred) {
        std::printf("%-70s FAILED: %s\n", name.c_str(), r.error_message.c_str());
        continue;
      }
      const bool aggregate = r.run_type == Run::RT_Aggregate;
      if (r.repetitions > 1 ? !(aggregate && r.aggregate_name == "median") : aggregate) continue;
      const double ms = r.GetAdjustedRealTime() * (r.time_unit == benchmark::kMillisecond   ? 1.0
                                                   : r.time_unit == benchmark::kMicrosecond ? 1e-3
                                                   : r.time_unit == benchmark::kNanosecond  ? 1e-6
                                                                                            : 1e3);
      auto counter = [&](const char* c) { return r.counters.count(c) ? static_cast<double>(r.counters.at(c)) : 0.0; };
      // A peer (problem@device+clblast, problem@cpu-eigen) gets our time over its own.
      const size_t at = name.find('@');
      const std::string problem = name.substr(0, at), ours = name.substr(0, name.find('+', at == std::string::npos ? 0 : at));
      const bool cpu = name.find("@cpu-eigen") != std::string::npos, peer = cpu || name != ours;
      const std::string key = cpu ? problem : ours;
      char ratio[64] = "", roofline[32] = "         -";
      if (peer && medians_.count(key))
        std::snprintf(ratio, sizeof ratio, "  kernel/peer %.3f", medians_[key] / ms);  // the kernel checked, ours or yours
      if (!peer) medians_[name] = ms, medians_.emplace(problem, ms);
      if (r.counters.count("pct_roofline")) std::snprintf(roofline, sizeof roofline, "%6.1f%%", counter("pct_roofline"));
      std::string steps;  // a plan of several steps: their times, in order
      for (const auto& [key, value] : r.counters)
        if (key.rfind("step_", 0) == 0 && key.size() > 8) {
          char t[32];
          std::snprintf(t, sizeof t, " %.4f", static_cast<double>(value));
          steps += (steps.empty() ? "  steps (ms):" : ",") + (" " + key.substr(8)) + t;
        }
      std::printf("%-70s %9.4f ms %10.1f GFLOP/s %8.1f GB/s %s roofline%s  %s%s\n", name.c_str(), ms, counter("gflops"), counter("gbps"), roofline,
                  ratio, r.report_label.c_str(), steps.c_str());
      std::fflush(stdout);
    }
  }

 private:
  std::map<std::string, double> medians_;  // ours, by name and by problem (the first device's), for the peers' ratios
};

}  // namespace

std::string benchmark_name(const Problem& p, const std::string& where) { return p.line() + "@" + where; }

void check_lines(const SuiteOptions& opt, int index, int count, const std::string& out) {
  std::ofstream f(out);
  const std::regex filter(opt.filter.empty() ? std::string(".") : opt.filter);  // once: a regex is costly to build
  for (const auto& info : ocl::select_devices(opt.devices)) {
    ocl::Runtime runtime(info);
    KernelChecker checker(runtime, opt.source);
    for (size_t j = static_cast<size_t>(index); j < opt.problems.size(); j += static_cast<size_t>(count)) {
      const Problem& p = opt.problems[j].problem;
      if (!std::regex_search(benchmark_name(p, info.selector), filter)) continue;
      try {
        const CheckOnce c = check_once(checker, p, opt.check_budget, opt.seed);
        f << nlohmann::json{{"name", benchmark_name(p, info.selector)}, {"passed", c.passed}, {"message", c.message}, {"sampled", c.sampled}}.dump()
          << "\n"
          << std::flush;
      } catch (const Error&) {
        // A line that cannot run: the timing run meets the same error and reports it there.
      }
    }
  }
}

std::map<std::string, CheckOnce> read_checks(const std::string& path) {
  std::map<std::string, CheckOnce> checks;
  std::ifstream f(path);
  for (std::string line; std::getline(f, line);) {
    if (line.empty()) continue;
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.contains("name")) continue;  // a child cut off mid-line: that line is checked again
    checks[j["name"].get<std::string>()] = CheckOnce{j["passed"].get<bool>(), j["message"].get<std::string>(), j["sampled"].get<std::string>()};
  }
  return checks;
}

int run_suite(const SuiteOptions& opt) {
  if (opt.problems.empty()) throw Error("bench: no problems to time (give --batch or --problem)");
  std::vector<std::unique_ptr<DeviceCtx>> devices;
  for (const auto& info : ocl::select_devices(opt.devices)) {
    auto d = std::make_unique<DeviceCtx>();
    d->runtime = std::make_unique<ocl::Runtime>(info);
    d->checker = std::make_unique<KernelChecker>(*d->runtime, opt.source);
    d->peaks = calibrate(*d->runtime);
    const std::string key = "device." + info.selector;
    benchmark::AddCustomContext(key + ".name", info.name);
    benchmark::AddCustomContext(key + ".platform", info.platform_name + " " + info.platform_version);
    benchmark::AddCustomContext(key + ".driver", info.driver_version);
    benchmark::AddCustomContext(key + ".peak_gflops", std::to_string(d->peaks.gflops));
    benchmark::AddCustomContext(key + ".peak_gbps", std::to_string(d->peaks.gbps));
    benchmark::AddCustomContext(key + ".copy_gbps", std::to_string(d->peaks.copy_gbps));
    benchmark::AddCustomContext(key + ".peaks_method", d->peaks.method);
    if (d->peaks.tensor_gflops > 0) benchmark::AddCustomContext(key + ".peak_tensor_gflops", std::to_string(d->peaks.tensor_gflops));
    std::printf("%s: %s, peaks measured: %.1f GFLOP/s FP32, %.1f GB/s", info.selector.c_str(), info.name.c_str(), d->peaks.gflops, d->peaks.gbps);
    if (d->peaks.tensor_gflops > 0)
      std::printf(", %.1f GFLOP/s 16-bit on the tensor cores (the roofline of f16 and bf16 problems)", d->peaks.tensor_gflops);
    std::printf("\n");
    devices.push_back(std::move(d));
  }
  benchmark::AddCustomContext("plumbline.build", PLUMBLINE_BUILD_ID);
  benchmark::AddCustomContext("plumbline.kernels", opt.source.describe() + (opt.source.flags().empty() ? "" : " (" + opt.source.flags() + ")"));
  benchmark::AddCustomContext("plumbline.repetitions", std::to_string(opt.repetitions));
  benchmark::AddCustomContext("plumbline.timing", timing_name(opt.timing));

  std::vector<std::unique_ptr<BenchCtx>> contexts;
  Failures failures;
  for (const auto& entry : opt.problems) {
    devices.front()->checker->select(entry.problem);  // an operator without a kernel, or a problem no variant serves: an error now
    for (auto& d : devices) {
      auto c = std::make_unique<BenchCtx>();
      c->problem = entry.problem;
      c->name = entry.name;
      c->device = d.get();
      BenchCtx* raw = c.get();
      auto* b = benchmark::RegisterBenchmark(
          benchmark_name(entry.problem, d->runtime->device().selector).c_str(),
          [raw, &opt, &failures](benchmark::State& st) { guarded(st, *raw, failures, [&] { run_on_device(st, *raw, opt, failures); }); });
      b->UseManualTime()->Repetitions(opt.repetitions)->Unit(benchmark::kMillisecond);
      if (opt.timing == Timing::Stream)
        b->Iterations(1);  // the repetition's one iteration is a burst of min_time's launches
      else
        b->MinTime(opt.min_time);
      contexts.push_back(std::move(c));
      if (opt.clblast_peer && clblast_supports(entry.problem)) {
        auto pc = std::make_unique<BenchCtx>();
        pc->problem = entry.problem;
        pc->device = d.get();
        BenchCtx* praw = pc.get();
        benchmark::RegisterBenchmark(
            benchmark_name(entry.problem, d->runtime->device().selector + "+clblast").c_str(),
            [praw, &opt, &failures](benchmark::State& st) { guarded(st, *praw, failures, [&] { run_clblast(st, *praw, opt); }); })
            ->UseManualTime()
            ->Repetitions(opt.repetitions)
            ->MinTime(opt.min_time)
            ->Unit(benchmark::kMillisecond);
        contexts.push_back(std::move(pc));
      }
    }
    if (opt.cpu_peer) {
      auto c = std::make_unique<BenchCtx>();
      c->problem = entry.problem;
      BenchCtx* raw = c.get();
      benchmark::RegisterBenchmark(benchmark_name(entry.problem, "cpu-eigen").c_str(),
                                   [raw, &opt, &failures](benchmark::State& st) { guarded(st, *raw, failures, [&] { run_on_cpu(st, *raw, opt); }); })
          ->UseManualTime()
          ->Repetitions(opt.repetitions)
          ->MinTime(opt.min_time)
          ->Unit(benchmark::kMillisecond);
      contexts.push_back(std::move(c));
    }
  }
  // Every repetition goes to the JSON (the gate's statistics need them); the console shows the
  // aggregates only.
  std::vector<std::string> args{"plumbline-bench", "--benchmark_display_aggregates_only=true"};
  if (!opt.json.empty()) {
    args.push_back("--benchmark_out=" + opt.json);
    args.push_back("--benchmark_out_format=json");
  }
  if (!opt.filter.empty()) args.push_back("--benchmark_filter=" + opt.filter);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());
  if (opt.verbose) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    OneLineReporter one_line;
    benchmark::RunSpecifiedBenchmarks(&one_line);
  }
  benchmark::ClearRegisteredBenchmarks();
  make_current(nullptr);
  if (failures.wrong || failures.errors)
    std::printf("bench: %d line(s) not timed: %d failed their check, %d could not run (each FAILED above)\n", failures.wrong + failures.errors,
                failures.wrong, failures.errors);
  // A line that could not run is an error of the input (exit 2), a wrong kernel a failed check (1).
  return failures.errors ? 2 : failures.wrong ? 1 : 0;
}

}  // namespace plumbline::bench
