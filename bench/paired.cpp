#include "bench/paired.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>

#include "bench/calibration.hpp"
#include "bench/timed.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"
#include "opencl/device.hpp"
#include "build_id.hpp"  // PLUMBLINE_BUILD_ID, written at every build (bench/build_id.cmake)

namespace plumbline::bench {

namespace fs = std::filesystem;

namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

PairedVerdict judge_pairs(const std::vector<double>& baseline, const std::vector<double>& candidate, double threshold, uint64_t seed) {
  if (baseline.size() != candidate.size() || baseline.empty())
    throw Error("paired comparison: the two sides need the same, non-zero number of samples");
  std::vector<double> ratios;
  for (size_t i = 0; i < baseline.size(); ++i) ratios.push_back(candidate[i] / baseline[i]);
  PairedVerdict v;
  v.pairs = static_cast<int>(ratios.size());
  v.ratio = median_of(ratios);
  // Bootstrap: the median of resampled pairs, 2000 times; the 2.5% and 97.5% quantiles.
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, ratios.size() - 1);
  std::vector<double> medians(2000), resample(ratios.size());
  for (auto& m : medians) {
    for (auto& r : resample) r = ratios[pick(rng)];
    m = median_of(resample);
  }
  std::sort(medians.begin(), medians.end());
  v.low = medians[static_cast<size_t>(0.025 * static_cast<double>(medians.size()))];
  v.high = medians[static_cast<size_t>(0.975 * static_cast<double>(medians.size())) - 1];
  const double up = 1 + threshold, down = 1 / (1 + threshold);
  v.verdict = v.low > up ? "regression" : v.high < down ? "improvement" : "same";
  v.uncertain = v.verdict == "same" && (v.low < down || v.high > up);
  return v;
}

plans::KernelSource source_at_revision(const std::string& rev, const std::string& op) {
  static std::map<std::string, std::string> extracted;  // revision -> folder
  auto it = extracted.find(rev);
  if (it == extracted.end()) {
    const std::string src = PLUMBLINE_SOURCE_DIR;
    if (std::system(("git -C " + shell_quote(src) + " rev-parse --quiet --verify " + shell_quote(rev + "^{commit}") + " > /dev/null 2>&1").c_str()) !=
        0)
      throw Error("--baseline-ref: '" + rev + "' is not a revision of " + src + " (git rev-parse found no commit)");
    std::string tag;
    for (char c : rev) tag += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    const fs::path dir = fs::temp_directory_path() / ("plumbline_rev_" + tag + "_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string archive = "git -C " + shell_quote(src) + " archive --format=tar " + shell_quote(rev);
    if (std::system((archive + " opencl/kernels | tar -x -C " + shell_quote(dir.string())).c_str()) != 0)
      throw Error("--baseline-ref: cannot extract opencl/kernels of revision " + rev);
    // Its tuning database, when that revision has one.
    std::system((archive + " opencl/tuning 2>/dev/null | tar -x -C " + shell_quote(dir.string()) + " 2>/dev/null").c_str());
    it = extracted.emplace(rev, dir.string()).first;
  }
  const fs::path kernels = fs::path(it->second) / "opencl" / "kernels";
  std::vector<fs::path> plans;
  for (const auto& e : fs::directory_iterator(kernels))
    if (e.path().extension() == ".plan") plans.push_back(e.path());
  std::sort(plans.begin(), plans.end());
  for (const auto& f : plans)
    for (const auto& v : plans::read_plan_file(f.string(), true))
      if (v.op == op) {
        plans::KernelSource s;
        s.plan_file = f.string();
        if (fs::is_directory(fs::path(it->second) / "opencl" / "tuning")) s.tuning_dir = (fs::path(it->second) / "opencl" / "tuning").string();
        return s;
      }
  throw Error("--baseline-ref: revision " + rev + " has no kernel plan for " + op);
}

int run_paired(const PairedOptions& o) {
  if (o.problems.empty()) throw Error("bench: no problems to time (give --batch or --problem)");
  if (o.pairs < 3) throw Error("a paired comparison needs at least 3 pairs (--repetitions)");
  nlohmann::json results = nlohmann::json::array();
  int failures = 0, regressions = 0, errors = 0;
  for (const auto& info : ocl::select_devices(o.devices)) {
    ocl::Runtime rt(info);
    // The bandwidth peak of this run, as a plain bench prints it: a memory-bound kernel's share of it
    // is the figure kernel authors compare (no other run needed for it).
    const DevicePeaks peaks = calibrate(rt);
    std::printf("%s: %s, peaks measured: %.1f GFLOP/s FP32, %.1f GB/s\n", info.selector.c_str(), info.name.c_str(), peaks.gflops, peaks.gbps);
    // A baseline from another revision is a plan file per operator family: one checker per operator.
    std::map<std::string, std::unique_ptr<KernelChecker>> baselines;
    KernelChecker candidate(rt, o.candidate);
    for (const auto& entry : o.problems) {
      // A line that cannot run (a problem this device cannot hold, a launch it refuses) is reported,
      // and the batch goes on.
      try {
        const Problem& p = entry.problem;
        auto& base = baselines[p.op()];
        if (!base) {
          base = std::make_unique<KernelChecker>(rt, o.baseline_ref.empty() ? o.baseline : source_at_revision(o.baseline_ref, p.op()));
        }
        const std::string where = p.line() + "@" + info.selector;
        nlohmann::json r{{"problem", p.line()},
                         {"device", info.selector},
                         {"device_name", info.name},
                         {"driver", info.driver_version},
                         {"baseline", {{"kernel", base->source().describe()}, {"variant", base->select(p).name}}},
                         {"candidate", {{"kernel", candidate.source().describe()}, {"variant", candidate.select(p).name}}}};
        // Both checked before anything is timed.
        const CheckOnce cb = check_once(*base, p, o.check_budget, o.seed), cc = check_once(candidate, p, o.check_budget, o.seed);
        if (!cb.passed || !cc.passed) {
          ++failures;
          r["verdict"] = "failed";
          r["message"] = !cb.passed ? "baseline: " + cb.message : "candidate: " + cc.message;
          std::printf("%s  FAILED its check, not timed: %s\n", where.c_str(), r["message"].get<std::string>().c_str());
          results.push_back(r);
          continue;
        }
        TimedProblem a(*base, p, o.seed), b(candidate, p, o.seed);
        for (int w = 0; w < 2; ++w) a.launch(), b.launch();
        std::vector<double> ta, tb;
        for (int i = 0; i < o.pairs; ++i) {
          // A B, then B A: a trend over the run affects both sides alike.
          if (i % 2 == 0) {
            ta.push_back(sample(a, o.min_time, o.timing));
            tb.push_back(sample(b, o.min_time, o.timing));
          } else {
            tb.push_back(sample(b, o.min_time, o.timing));
            ta.push_back(sample(a, o.min_time, o.timing));
          }
        }
        const PairedVerdict v = judge_pairs(ta, tb, o.threshold, o.seed);
        regressions += v.verdict == "regression";
        r["baseline"]["seconds"] = ta;
        r["candidate"]["seconds"] = tb;
        r["ratio"] = v.ratio;
        r["interval"] = {v.low, v.high};
        r["verdict"] = v.verdict;
        r["uncertain"] = v.uncertain;
        const double bytes = signature_of(p).bytes(), gbps = bytes / median_of(tb) / 1e9;
        r["candidate"]["gbps"] = gbps;
        r["peak_gbps"] = peaks.gbps;
        std::printf("%s  baseline %.4f ms  candidate %.4f ms  ratio %.3f [%.3f, %.3f]  %s%s  (candidate %.1f GB/s, %.1f%% of the bandwidth peak)\n",
                    where.c_str(), median_of(ta) * 1e3, median_of(tb) * 1e3, v.ratio, v.low, v.high, v.verdict.c_str(),
                    v.uncertain ? " (uncertain: the interval reaches past the threshold)" : "", gbps, 100 * gbps / peaks.gbps);
        std::fflush(stdout);
        results.push_back(r);
      } catch (const Error& e) {
        ++errors;
        const std::string where = entry.problem.line() + "@" + info.selector;
        std::printf("%s  FAILED, not timed: %s\n", where.c_str(), e.what());
        results.push_back({{"problem", entry.problem.line()}, {"device", info.selector}, {"verdict", "error"}, {"message", e.what()}});
      }
    }
  }
  if (!o.json.empty()) {
    std::ofstream f(o.json);
    if (!f) throw Error("cannot write " + o.json);
    f << nlohmann::json{{"kind", "paired"},       {"threshold", o.threshold},        {"pairs", o.pairs},
                        {"min_time", o.min_time}, {"timing", timing_name(o.timing)}, {"build", PLUMBLINE_BUILD_ID},
                        {"results", results}}
             .dump(1)
      << "\n";
  }
  std::printf("paired: %zu comparisons, %d regression%s, %d failed check%s, %d could not run (threshold %.0f%%)\n", results.size(), regressions,
              regressions == 1 ? "" : "s", failures, failures == 1 ? "" : "s", errors, o.threshold * 100);
  return errors ? 2 : regressions || failures ? 1 : 0;
}

}  // namespace plumbline::bench
