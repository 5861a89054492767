#include "tune/tuner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "bench/paired.hpp"
#include "bench/timed.hpp"
#include "core/error.hpp"
#include "core/dtype.hpp"
#include "core/registry.hpp"

namespace plumbline::tune {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// The class's problems timed with one candidate: the median over repetitions of the mean kernel time
// of a repetition's launches, summed over the problems.
double time_problems(KernelChecker& kc, const plans::Variant& v, const std::vector<Problem>& problems, const TuneOptions& o) {
  double seconds = 0;
  for (const auto& p : problems) {
    bench::TimedProblem t(kc, p, o.seed, &v);
    t.launch();
    t.launch();
    std::vector<double> samples;
    for (int r = 0; r < o.repetitions; ++r) samples.push_back(bench::sample(t, o.min_time));
    std::nth_element(samples.begin(), samples.begin() + static_cast<long>(samples.size() / 2), samples.end());
    seconds += samples[samples.size() / 2];
  }
  return seconds;
}

// Checks, then times, one candidate. `variant` is the candidate (the base's name, the candidate's defines).
Candidate evaluate(KernelChecker& kc, const plans::Variant& base, const Defines& d, const std::vector<Problem>& problems, const TuneOptions& o) {
  Candidate c{d, "invalid", "", 0};
  const std::vector<plans::Variant> one{base.with_defines(d)};
  const plans::Variant& v = one[0];
  plans::KernelSource repro_source = kc.source();
  repro_source.variant = base.name;
  repro_source.defines.clear();
  for (const auto& [n, x] : d) repro_source.defines.push_back(n + "=" + x);
  try {
    kc.program_for(v, dtype_from_string(plans::dtypes_of(v).front()));  // in a format it takes (mma: 16-bit only)
  } catch (const Error& e) {
    c.message = "does not build: " + first_line(e.what());
    return c;
  }
  try {
    // 1. Problems at the candidate's own tile boundaries, every value distribution.
    const CasePlan plan(one, o.op, o.check_cases, o.seed);
    for (int i = 0; i < plan.count(); ++i) {
      const KernelCase kcase = plan.at(i);
      const CaseResult r = kc.run(kcase.problem.value(), kcase.values, kcase.seed, &v);
      if (!r.passed) {
        c.status = "wrong";
        c.message = r.verdict + ": " + r.message + "\n      repro: " + check_repro(r, repro_source);
        return c;
      }
    }
    // 2. The class's own problems, at their size (sampled where the full reference would cost too much).
    for (const auto& p : problems) {
      const bench::CheckOnce co = bench::check_once(kc, p, o.check_budget, o.seed, &v);
      if (!co.passed) {
        c.status = "wrong";
        c.message = co.message;
        return c;
      }
    }
    // 3. Timed.
    c.seconds = time_problems(kc, v, problems, o);
    c.status = "timed";
  } catch (const Error& e) {
    // The launch was refused (a work-group or local memory beyond the device's limits): it cannot run here.
    c.status = "invalid";
    c.message = first_line(e.what());
  }
  return c;
}

std::string describe(const Candidate& c, double flops) {
  char buf[128];
  if (c.status != "timed") return c.status == "wrong" ? "WRONG, discarded: " + c.message : "invalid: " + c.message;
  std::snprintf(buf, sizeof buf, "%.4f ms (%.1f GFLOP/s)", c.seconds * 1e3, flops / c.seconds / 1e9);
  return buf;
}

}  // namespace

int ClassResult::count(const std::string& status) const {
  return static_cast<int>(std::count_if(tried.begin(), tried.end(), [&](const Candidate& c) { return c.status == status; }));
}

std::vector<ClassResult> tune(KernelChecker& kc, const TuneOptions& o) {
  if (o.problems.empty()) throw Error("tune " + o.op + ": no problems to tune on (give --problem or --batch with problems of " + o.op + ")");
  // The tunable variants of the plan (not tuned instances) and their classes' problems.
  std::vector<ClassResult> results;
  std::vector<const plans::Variant*> bases;
  for (const auto& v : kc.variants(o.op)) {
    if (v.tunables.empty() || v.name.find('@') != std::string::npos) continue;
    std::map<std::string, std::vector<Problem>> by_class;
    std::vector<std::string> order;
    for (const auto& p : o.problems) {
      if (p.op() != o.op || !plans::preferred(v, p)) continue;
      const std::string cls = plans::class_of(v, p);
      if (cls.empty()) continue;
      if (!by_class.count(cls)) order.push_back(cls);
      by_class[cls].push_back(p);
    }
    for (const auto& cls : order) {
      ClassResult r{v.name, cls, by_class[cls]};
      for (const auto& p : r.problems) r.flops += signature_of(p).flops;
      results.push_back(std::move(r));
      bases.push_back(&v);
    }
  }
  if (results.empty()) {
    const KernelVariants& k = kc.kernels(o.op);
    throw Error("tune " + o.op + ": no tunable variant serves the problems given" +
                (k.unavailable.empty() ? std::string() : " (" + unavailable_message(o.op, k, kc.runtime().device()) + ")"));
  }
  const double per_class = o.budget_seconds / static_cast<double>(results.size());
  // The database as it was before this run wrote to it (o.on_best writes each class's best as it goes).
  const std::vector<plans::TuningEntry> database = plans::tuning_database();
  const ocl::DeviceInfo& dev = kc.runtime().device();
  for (size_t ri = 0; ri < results.size(); ++ri) {
    ClassResult& r = results[ri];
    const plans::Variant& base = *bases[ri];
    const Space space(base);
    const auto t0 = Clock::now();
    std::set<Defines> seen;
    auto report = [&](const Candidate& c, const char* why) {
      if (!o.progress) return;
      char head[64];
      std::snprintf(head, sizeof head, "[%3zu, %5.0f s] ", r.tried.size(), since(t0));
      std::string text = describe(c, r.flops) + (c.status == "timed" && r.best && r.best->defines == c.defines ? "  best so far" : "");
      text.insert(std::min(text.find('\n'), text.size()), why);  // on the first line: a repro line below stays runnable
      o.progress(o.op + "/" + r.variant + " " + r.shape_class + " " + head + to_string(c.defines) + ": " + text);
    };
    auto attempt = [&](const Defines& d, const char* why, bool defaults = false, bool entry = false) {
      if (!seen.insert(d).second) {  // tried already (the class's entry may be the defaults)
        if (defaults)
          for (const auto& c : r.tried)
            if (c.defines == d && c.status == "timed") r.defaults = c;
        return false;
      }
      const Candidate c = evaluate(kc, base, d, r.problems, o);
      r.tried.push_back(c);
      if (entry && c.status == "timed") r.entry = c;
      if (defaults && c.status == "timed") r.defaults = c;  // before on_best: its entry quotes them
      const bool better = c.status == "timed" && (!r.best || c.seconds < r.best->seconds);
      if (better) r.best = c;
      // Written as the search goes (before the progress line: who reads "best so far" finds it
      // written), so that a run cut off keeps its best; but only where the class has no working
      // entry: one that has keeps it until a winner is confirmed against it below.
      if (better && o.on_best && !r.entry) {
        r.elapsed = since(t0);
        o.on_best(r, false);
      }
      report(c, why);
      return better;
    };
    // An entry's defines in the variant's order, if they are a point of its space. A tunable the
    // entry does not name takes the plan's default, as it does when the entry is launched.
    auto point_of = [&](const plans::TuningEntry& e) -> std::optional<Defines> {
      if (e.off) return std::nullopt;
      Defines d = space.defaults();
      for (auto& [name, value] : d) {
        auto it = std::find_if(e.defines.begin(), e.defines.end(), [&](const auto& x) { return x.first == name; });
        if (it != e.defines.end()) value = it->second;
      }
      return space.contains(d) ? std::optional<Defines>(d) : std::nullopt;
    };
    // This class's own entry first, whatever the budget: the entry a run writes replaces it, so
    // even a search cut short has compared the two (without one, the entry of a device of the same
    // architecture that launches take here: the one in effect). Then the plan's defaults, --start,
    // the database's other entries for this device and its architecture (a warm start), random ones.
    bool own_entry = false;
    for (const auto& e : database)
      if (e.device == dev.name && e.op == o.op && e.variant == r.variant && e.shape_class == r.shape_class)
        if (const auto d = point_of(e)) {
          own_entry = true;
          attempt(*d, " (database: this class's entry)", false, true);
        }
    if (!own_entry)
      if (const auto* e = plans::find_tuning(database, dev.name, dev.driver_version, dev.architecture, o.op, r.variant, r.shape_class))
        if (const auto d = point_of(*e))
          attempt(*d, (" (database: this class's entry of " + e->device + ", the same architecture)").c_str(), false, true);
    attempt(space.defaults(), " (the plan's defaults)", true);
    for (const auto& d : o.start) {
      Defines ordered;  // in the variant's order, every tunable given
      for (const auto& [name, values] : base.tunables)
        for (const auto& x : d)
          if (x.first == name) ordered.push_back(x);
      if (!space.contains(ordered))
        throw Error("--start '" + to_string(d) + "' is not in the tuning space of " + base.id() +
                    " (every tunable, values from its tune lines, meeting its require lines)");
      attempt(ordered, " (--start)");
    }
    for (const auto& e : database) {
      const bool sibling = !dev.architecture.empty() && e.architecture == dev.architecture;
      if ((e.device != dev.name && !sibling) || since(t0) > per_class) continue;
      if (const auto d = point_of(e)) attempt(*d, (" (database: " + e.op + "/" + e.variant + " " + e.shape_class + ")").c_str());
    }
    std::vector<Defines> order = space.valid();
    std::mt19937_64 rng(o.seed + ri);
    std::shuffle(order.begin(), order.end(), rng);
    size_t next = 0;
    while (since(t0) < 0.6 * per_class && next < order.size()) attempt(order[next++], "");
    // Local refinement: the best one's neighbours, moving while one improves.
    bool moved = r.best.has_value();
    while (moved && since(t0) < per_class) {
      moved = false;
      for (const auto& n : space.neighbours(r.best->defines)) {
        if (since(t0) >= per_class) break;
        if (attempt(n, " (neighbour)")) {
          moved = true;
          break;
        }
      }
      if (!moved)  // a local optimum: spend what is left on random ones
        while (since(t0) < per_class && next < order.size()) moved = attempt(order[next++], "") || moved;
    }
    // A new winner replaces the class's entry only if its lead holds when the two are timed again in
    // pairs, alternating (a search's times are one sample each, minutes apart: noise wins some of
    // them), judged as `bench --baseline-*` judges a pair: an improvement beyond confirm_threshold.
    if (r.best && r.entry && r.best->defines != r.entry->defines && o.confirm_pairs > 0) {
      const plans::Variant winner = base.with_defines(r.best->defines), entry = base.with_defines(r.entry->defines);
      std::vector<double> entry_times, winner_times;
      for (int i = 0; i < o.confirm_pairs; ++i) {
        const bool winner_first = i % 2 == 0;
        const double first = time_problems(kc, winner_first ? winner : entry, r.problems, o);
        const double second = time_problems(kc, winner_first ? entry : winner, r.problems, o);
        winner_times.push_back(winner_first ? first : second);
        entry_times.push_back(winner_first ? second : first);
      }
      r.confirmed = bench::judge_pairs(entry_times, winner_times, o.confirm_threshold, o.seed);
      r.entry_kept = !replaces_entry(*r.confirmed);
      if (o.progress) {
        char buf[200];
        std::snprintf(buf, sizeof buf, "winner against the class's entry, %d pairs alternating: ratio %.3f [%.3f, %.3f]%s", r.confirmed->pairs,
                      r.confirmed->ratio, r.confirmed->low, r.confirmed->high, r.entry_kept ? ": no improvement shown, the entry stays" : "");
        o.progress(o.op + "/" + r.variant + " " + r.shape_class + " " + buf);
      }
      if (r.entry_kept) r.best = r.entry;
    }
    r.elapsed = since(t0);
    if (r.best && o.on_best) o.on_best(r, true);
  }
  return results;
}

bool replaces_entry(const bench::PairedVerdict& v) { return v.verdict == "improvement"; }

plans::TuningEntry entry_for(const ClassResult& r, const std::string& op, const ocl::DeviceInfo& device, const std::string& date, bool finished) {
  if (!r.best) throw Error(op + "/" + r.variant + " class " + r.shape_class + ": no candidate passed its checks");
  std::string problems;
  for (const auto& p : r.problems) problems += (problems.empty() ? "" : " ") + p.line();
  char defaults[64] = "", buf[512];
  if (r.defaults) std::snprintf(defaults, sizeof defaults, ", the plan's defaults %.1f GFLOP/s", r.flops / r.defaults->seconds / 1e9);
  char confirmed[200] = "";
  if (r.confirmed)
    std::snprintf(confirmed, sizeof confirmed,
                  r.entry_kept ? "; the class's entry kept: the winner took %.3f [%.3f, %.3f] of its time in %d pairs"
                               : "; %.3f [%.3f, %.3f] of the class's entry's time in %d pairs",
                  r.confirmed->ratio, r.confirmed->low, r.confirmed->high, r.confirmed->pairs);
  std::snprintf(buf, sizeof buf, "%.1f GFLOP/s (%.4f ms)%s; %zu candidates in %.0f s (%d wrong, %d invalid)%s%s; %s on ",
                r.flops / r.best->seconds / 1e9, r.best->seconds * 1e3, defaults, r.tried.size(), r.elapsed, r.count("wrong"), r.count("invalid"),
                finished ? "" : ", written while the search went on (it was cut off here)", confirmed, date.c_str());
  return {device.name, device.driver_version, op, r.variant, r.shape_class, r.best->defines, false, buf + problems, device.architecture, {}};
}

}  // namespace plumbline::tune
