// `plumbline check OP|--all`: every kernel against the reference on random problems (or one problem
// line), on every selected OpenCL device, with poisoned outputs and guarded buffers. Every variant of
// an operator gets its share of the cases. A failure is shrunk to a small problem and printed with the
// command that reproduces it.
//
// Isolation: the cases of each operator and device run in a child process (this program again), so a
// kernel that crashes its process (a wild write on a CPU device), faults its device (an illegal address
// on a GPU, which leaves the context unusable) or hangs is a failing verdict of that case ([crashed],
// [hung]) with its repro, and the run goes on from the next case in a fresh child. --in-process runs
// everything in this process instead (faster; one crash ends the run).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <sstream>
#include <memory>
#include <optional>
#include <thread>
#include <nlohmann/json.hpp>

#include "apps/child_process.hpp"
#include "apps/commands.hpp"
#include "apps/kernel_flags.hpp"
#include "check/kernel_check.hpp"
#include "bench/batch.hpp"
#include "check/sanitizer.hpp"
#include "check/stress.hpp"
#include "check/shrink.hpp"
#include "core/registry.hpp"
#include "opencl/device.hpp"
#include "plans/library.hpp"

namespace plumbline::apps {

namespace fs = std::filesystem;

namespace {

struct Options {
  std::string op, problem, json, device, values;
  std::vector<std::string> batches;     // --batch files
  std::vector<Problem> batch_problems;  // their problems, expanded (bench/batch.hpp)
  std::string stress, replay;           // "on", "off", or "" (on GPUs)
  plans::KernelSource source;
  bool all = false, first_failure = false, in_process = false, sanitize = false;
  int cases = 100, jobs = 0;
  uint64_t seed = 1;
  double timeout = 0;
  double reference_budget = kReferenceBudget;
  std::string shard_text;
  Shard shard;
  std::string part_text;  // internal: "I/N", this child's part of an operator's variants
  Shard part;
  std::string child_results;  // internal: run as the child, events to this file
  int first_case = 0;         // internal: the child starts here
};

nlohmann::json to_json(const CaseResult& r) {
  nlohmann::json j = {{"op", r.problem.op()},
                      {"family", Registry::get().find(r.problem.op()).family},
                      {"problem", r.problem.line()},
                      {"device", r.device},
                      {"variant", r.variant},
                      {"values", to_string(r.values)},
                      {"seed", r.seed},
                      {"passed", r.passed},
                      {"verdict", r.verdict},
                      {"message", r.message},
                      {"worst_ratio", r.worst_ratio},
                      {"max_error", r.max_error},
                      {"seconds", r.seconds}};
  if (!r.sampled.empty()) j["sampled"] = r.sampled;
  if (r.skipped) j["skipped"] = true;
  if (!r.exempted.empty()) j["exempted"] = r.exempted;
  if (r.cached) j["cached"] = true;
  if (r.nonfinite != NonfinitePolicy::Limits) j["nonfinite"] = to_string(r.nonfinite);
  if (r.math != "exact") j["math"] = r.math;
  if (r.ieee_accepted) j["ieee_accepted"] = r.ieee_accepted;
  return j;
}

nlohmann::json failure_json(const CaseResult& rs, const CaseResult& original, const plans::KernelSource& source) {
  return {{"op", rs.problem.op()},
          {"device", rs.device},
          {"variant", rs.variant},
          {"verdict", rs.verdict},
          {"math", rs.math},
          {"message", rs.message},
          {"problem", rs.problem.line()},
          {"original", original.problem.line()},
          {"values", to_string(rs.values)},
          {"seed", rs.seed},
          {"repro", check_repro(rs, source)}};
}

void print_failure(std::ostream& out, const std::string& name, const CaseResult& rs, const CaseResult& original, const plans::KernelSource& source) {
  out << "FAIL " << name << " on " << rs.device << " [" << rs.verdict << "]" << (rs.math == "exact" ? "" : " in " + rs.math) << ": " << rs.message
      << "\n  problem: " << rs.problem.line() << "  (values " << to_string(rs.values) << ", seed " << rs.seed << ", variant " << rs.variant << ")"
      << "\n  repro:   " << check_repro(rs, source) << "\n";
  if (!(rs.problem == original.problem)) out << "  (shrunk from " << original.problem.line() << ")\n";
  out.flush();
}

// The cases of one operator: random ones shared among the variants, or the one problem on each
// variant it meets.
struct OpCases {
  std::optional<CasePlan> plan;  // the random cases, first
  std::vector<KernelCase> todo;  // then these (the one problem's, the sanitizer's, a GPU's stress problems)
  int count = 0;
  std::vector<std::string> notes;  // what the cases could not reach (a sanitizer pass's crossings, a stress problem's waves)
  KernelCase at(int i) const {
    const int planned = plan ? plan->count() : 0;
    return i < planned ? plan->at(i) : todo[static_cast<size_t>(i - planned)];
  }
  // Whether case i is this run's: in its shard, and on a variant of its part (`variants` as given to
  // cases_of: a part is every N-th of them, so that its programs are built by one process only).
  bool mine(int i, const std::vector<plans::Variant>& variants, const Options& o) const {
    if (!o.shard.mine(static_cast<size_t>(i))) return false;
    if (o.part.whole()) return true;
    const int planned = plan ? plan->count() : 0;
    const plans::Variant* v = i < planned ? &plan->variant_of(i) : todo[static_cast<size_t>(i - planned)].variant;
    return o.part.mine(static_cast<size_t>(v - variants.data()));
  }
};

OpCases cases_of(const std::vector<plans::Variant>& variants, const std::string& op, const Selection& sel, const Options& o,
                 const ocl::DeviceInfo& device) {
  OpCases c;
  if (!o.batch_problems.empty()) {  // a batch's problems of this operator, each on every variant that serves it
    for (const auto& p : o.batch_problems) {
      if (p.op() != op) continue;
      const size_t before = c.todo.size();
      for (const auto& v : variants)
        if (plans::applies(v, p)) c.todo.push_back({&v, rc::shrinkable::just(p), values_for_case(0), o.seed});
      if (c.todo.size() == before) plans::select_variant(variants, p);  // the error naming every condition
    }
  } else if (sel.problem) {
    for (const auto& v : variants)
      if (plans::applies(v, *sel.problem)) c.todo.push_back({&v, rc::shrinkable::just(*sel.problem), values_for_case(0), o.seed});
    if (c.todo.empty()) plans::select_variant(variants, *sel.problem);  // the error naming every condition
  } else if (o.sanitize) {
    c.todo = sanitizer_cases(variants, op, o.seed, &c.notes);
  } else {
    c.plan.emplace(variants, op, o.cases, o.seed);
    // A GPU's stress problems after the random cases (--no-stress skips them; --stress asks for them elsewhere).
    if (o.stress == "on" || (o.stress.empty() && device.is_gpu)) c.todo = stress_cases(variants, op, device, o.seed, &c.notes);
  }
  c.count = (c.plan ? c.plan->count() : 0) + static_cast<int>(c.todo.size());
  return c;
}

// What one operator's cases gave on one device.
struct OpResult {
  nlohmann::json cases = nlohmann::json::array(), failures = nlohmann::json::array();
  int failed = 0, ran = 0, cached = 0;
  double worst = 0, seconds = 0;
  std::map<std::string, int> per_variant;
  std::vector<std::string> sampled;                            // per sampled case: "variant: what the sample covered"
  std::map<std::string, std::pair<int, std::string>> skipped;  // variant -> cases skipped, the first one's reason
  std::map<std::string, std::string> exempted;                 // variant -> the first case's reports set aside
  std::map<std::string, int64_t> ieee;                         // variant judged under ieee -> elements only that policy passed
  bool stop = false;                                           // three failures: no more cases

  // Another part's results of the same operator and device.
  void merge(const OpResult& r) {
    for (const auto& c : r.cases) cases.push_back(c);
    for (const auto& f : r.failures) failures.push_back(f);
    failed += r.failed, ran += r.ran, cached += r.cached;
    worst = std::max(worst, r.worst), seconds += r.seconds;
    for (const auto& [v, n] : r.per_variant) per_variant[v] += n;
    sampled.insert(sampled.end(), r.sampled.begin(), r.sampled.end());
    skipped.insert(r.skipped.begin(), r.skipped.end());  // variants are in one part each
    exempted.insert(r.exempted.begin(), r.exempted.end());
    ieee.insert(r.ieee.begin(), r.ieee.end());
  }

  void add(const nlohmann::json& c) {
    cases.push_back(c);
    ++ran;
    const std::string variant = c["variant"].get<std::string>();
    ++per_variant[variant];
    if (c.contains("sampled")) sampled.push_back(variant + ": " + c["sampled"].get<std::string>());
    if (c.value("skipped", false)) {
      auto& s = skipped[variant];
      if (s.first++ == 0) s.second = c["message"].get<std::string>();
    }
    if (c.contains("exempted")) exempted.emplace(variant, c["exempted"].get<std::string>());
    if (c.value("nonfinite", "") == "ieee") ieee[variant] += c.value("ieee_accepted", int64_t{0});
    cached += c.value("cached", false);
    // JSON has no infinity: a ratio that was infinite comes back from the child as null.
    worst = std::max(worst, c["worst_ratio"].is_number() ? c["worst_ratio"].get<double>() : INFINITY);
    seconds += c["seconds"].is_number() ? c["seconds"].get<double>() : 0.0;
  }
};

// Runs cases [first, count) of `op` in this process; with `events`, writes each case's beginning and
// result there as JSON lines (the parent reads them). Returns after a case whose kernel faulted.
void run_in_process(KernelChecker& checker, const std::string& op, const OpCases& oc, const Options& o, int first, OpResult& out,
                    std::ofstream* events) {
  const auto& variants = checker.variants(op);
  for (int i = first; i < oc.count && !out.stop; ++i) {
    if (!oc.mine(i, variants, o)) continue;
    KernelCase c = oc.at(i);
    if (!o.values.empty()) c.values = values_from_string(o.values);
    const Problem p = c.problem.value();
    if (events) {
      const Signature sig = signature_of(p);
      *events << nlohmann::json{{"event", "begin"},
                                {"case", i},
                                {"problem", p.line()},
                                {"variant", c.variant->name},
                                {"values", to_string(c.values)},
                                {"seed", c.seed},
                                {"limit", o.timeout > 0 ? o.timeout : checker.runtime().watchdog_for(sig.flops, sig.bytes())}}
                     .dump()
              << std::endl;
    }
    if (const char* inject = std::getenv("PLUMBLINE_INJECT_ABORT"); inject && op == inject) std::abort();  // tests of isolation only
    if (c.detect_uninitialized) checker.runtime().detect_uninitialized(*c.detect_uninitialized);
    checker.set_reference_budget(c.sample_outputs ? std::min(o.reference_budget, kKernelCaseBudget) : o.reference_budget);
    const auto start = std::chrono::steady_clock::now();
    const double built_before = checker.runtime().build_seconds();
    const CaseResult r = checker.run(p, c.values, c.seed, c.variant);
    // Where the check's own time goes: the case's wall time, and how much of it built programs.
    nlohmann::json result = to_json(r);
    result["wall_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result["build_seconds"] = checker.runtime().build_seconds() - built_before;
    out.add(result);
    if (events) *events << nlohmann::json{{"event", "case"}, {"case", i}, {"result", result}}.dump() << std::endl;
    if (r.passed || r.skipped) continue;
    ++out.failed;
    const std::string name = op + (variants.size() > 1 ? "/" + r.variant : "");
    if (o.first_failure || checker.faulted()) {
      // Unshrunk: a mutation run wants speed; after a fault this process's context is not to be trusted.
      if (o.first_failure && !checker.faulted())
        std::cout << "FAIL " << name << " on " << r.device << " [" << r.verdict << "] at case " << i + 1 << ": " << r.message << "\n";
      else
        print_failure(std::cout, name, r, r, checker.source());
      out.failures.push_back(failure_json(r, r, checker.source()));
      if (events) *events << nlohmann::json{{"event", "failure"}, {"failure", out.failures.back()}}.dump() << std::endl;
      out.stop = o.first_failure;
      if (checker.faulted()) return;
      continue;
    }
    const CaseResult rs = shrink_case(checker, c, r);
    print_failure(std::cout, name, rs, r, checker.source());
    out.failures.push_back(failure_json(rs, r, checker.source()));
    if (events) *events << nlohmann::json{{"event", "failure"}, {"failure", out.failures.back()}}.dump() << std::endl;
    if (out.failed >= 3 && !oc.todo.size()) {
      std::cout << "  (stopping " << op << " after 3 failures)\n";
      out.stop = true;
    }
  }
}

std::vector<std::string> child_args(const Options& o, const std::string& op, const std::string& device, const std::string& results, int first,
                                    const std::string& problem) {
  std::vector<std::string> a{self_path(),
                             "check",
                             op,
                             "--device",
                             device,
                             "--cases",
                             std::to_string(o.cases),
                             "--seed",
                             std::to_string(o.seed),
                             "--child-results",
                             results,
                             "--first-case",
                             std::to_string(first)};
  if (!problem.empty()) a.insert(a.end(), {"--problem", problem});
  for (const auto& b : o.batches) a.insert(a.end(), {"--batch", b});
  if (!o.values.empty()) a.insert(a.end(), {"--values", o.values});
  if (o.first_failure) a.push_back("--first-failure");
  if (o.sanitize) a.push_back("--sanitize");
  if (!o.replay.empty()) a.push_back(o.replay == "on" ? "--replay" : "--no-replay");
  if (!o.stress.empty()) a.push_back(o.stress == "on" ? "--stress" : "--no-stress");
  if (o.timeout > 0) a.insert(a.end(), {"--timeout", std::to_string(o.timeout)});
  if (o.reference_budget != kReferenceBudget) a.insert(a.end(), {"--reference-budget", std::to_string(o.reference_budget)});
  if (!o.shard.whole()) a.insert(a.end(), {"--shard", std::to_string(o.shard.index) + "/" + std::to_string(o.shard.count)});
  if (!o.part.whole()) a.insert(a.end(), {"--part", std::to_string(o.part.index) + "/" + std::to_string(o.part.count)});
  const std::vector<std::string> source = o.source.flag_args();
  a.insert(a.end(), source.begin(), source.end());
  return a;
}

std::vector<nlohmann::json> read_events(const std::string& path) {
  std::vector<nlohmann::json> v;
  std::ifstream f(path);
  for (std::string line; std::getline(f, line);)
    if (!line.empty()) v.push_back(nlohmann::json::parse(line));
  return v;
}

// The name of an operator's files in the temporary folder while it is checked on a device, and the file
// its children write their events to (a line per case begun and per case done).
std::string task_tag(const ocl::DeviceInfo& device, const std::string& op, const Shard& part) {
  std::string dev = device.selector;
  std::replace(dev.begin(), dev.end(), ':', '_');
  return std::to_string(::getpid()) + "_" + dev + "_" + op + (part.whole() ? "" : "_" + std::to_string(part.index));
}
fs::path events_path(const std::string& tag) { return fs::temp_directory_path() / ("plumbline_check_" + tag + ".jsonl"); }

// The case a child's event names (its problem, variant, values and seed), not yet judged.
CaseResult case_begun(const nlohmann::json& e, const std::string& device) {
  return CaseResult{Problem::parse(e["problem"].get<std::string>()), device, e["variant"].get<std::string>(),
                    values_from_string(e["values"].get<std::string>()), e["seed"].get<uint64_t>()};
}

// An operator's variants on a device and its cases, drawn once for all its parts (drawing holds the
// generator's lock: one part after another drawing the same cases kept a GPU's run waiting).
struct OpPlan {
  KernelVariants kv;
  std::once_flag drawn;
  std::optional<OpCases> oc;
  const OpCases& cases(const std::string& op, const Selection& sel, const Options& o, const ocl::DeviceInfo& device) {
    std::call_once(drawn, [&] { oc.emplace(cases_of(kv.all, op, sel, o, device)); });
    return *oc;
  }
};

// One operator on one device, each batch of cases in a child process: a child that dies takes the
// case it was running with it, as a [crashed] (or [hung]) verdict, and a fresh child goes on. What it
// prints goes to `log`; with `capture`, its children's output too (operators run side by side: each
// one's lines stay together), else they print to this process's stdout and stderr as they go. With a
// part in `o` (o.part), only the cases of that part's variants.
void run_isolated(const ocl::DeviceInfo& device, const std::string& op, const Selection& sel, const Options& o, OpPlan& plan, OpResult& out,
                  int& exit_code, std::ostream& log, bool capture) {
  const std::string tag = task_tag(device, op, o.part);
  const fs::path results = events_path(tag);
  const fs::path printed = fs::temp_directory_path() / ("plumbline_check_" + tag + ".out");
  // Runs a child with its output in `printed`, then appends that to the log.
  auto child = [&](const std::vector<std::string>& argv, const fs::path& activity) {
    if (!capture) return run_child(argv, activity.string(), 600);
    fs::remove(printed);
    const ChildEnd end = run_child(argv, activity.string(), 600, printed.string());
    std::ifstream f(printed);
    log << f.rdbuf();
    log.flush();
    fs::remove(printed);
    return end;
  };
  // The cases' problems, for the repro and the shrinking of a crashed one (no kernel runs here).
  const KernelVariants& kv = plan.kv;
  const OpCases& oc = plan.cases(op, sel, o, device);
  if (o.part.index == 0)
    for (const auto& n : oc.notes) log << "  " << n << "\n";
  const std::string problem = sel.problem ? sel.problem->line() : "";
  int next = 0;
  while (next < oc.count && !out.stop) {
    while (next < oc.count && !oc.mine(next, kv.all, o)) ++next;  // this shard's and part's cases only
    if (next >= oc.count) break;
    fs::remove(results);
    const ChildEnd end = child(child_args(o, op, device.selector, results.string(), next, problem), results);
    const auto events = read_events(results.string());
    int last_begun = -1, last_done = -1;
    nlohmann::json begun, unreported;  // the last case begun; a failed case whose failure the child did not report
    for (const auto& e : events) {
      if (e["event"] == "begin") last_begun = e["case"].get<int>(), begun = e;
      if (e["event"] == "case") {
        last_done = e["case"].get<int>(), out.add(e["result"]);
        const bool failed = !e["result"]["passed"].get<bool>() && !e["result"].value("skipped", false);
        unreported = failed ? e["result"] : nlohmann::json();
      }
      if (e["event"] == "failure") ++out.failed, out.failures.push_back(e["failure"]), unreported = nlohmann::json();
    }
    if (!unreported.is_null()) {
      // The child ended between a failed case and its report (a kernel the watchdog gave up on can take
      // its process down): the case still fails, unshrunk.
      CaseResult r = case_begun(unreported, device.selector);
      r.verdict = unreported["verdict"].get<std::string>();
      r.message = unreported["message"].get<std::string>();
      r.math = unreported.value("math", "exact");
      ++out.failed;
      print_failure(log, op + (kv.all.size() > 1 ? "/" + r.variant : ""), r, r, o.source);
      out.failures.push_back(failure_json(r, r, o.source));
    }
    if (!end.signal && (end.exit_code == 2 || end.exit_code == 3)) {  // bad input, or our own bug: the child said which
      exit_code = std::max(exit_code, end.exit_code);
      out.stop = true;
      return;
    }
    if (!end.signal && end.exit_code != 4) return;  // 0 or 1: every case ran
    if (end.signal && last_begun > last_done) {
      // The child died in the middle of a case: that case crashed (or hung, when we killed it).
      std::lock_guard<std::recursive_mutex> drawing(generator_mutex());  // its problem is drawn and shrunk here
      const KernelCase c = oc.at(last_begun);
      CaseResult r = case_begun(begun, device.selector);
      r.verdict = end.stalled ? "hung" : "crashed";
      r.message = end.stalled ? "the check process made no progress for longer than the case's watchdog allows and was killed"
                              : "the check process was ended by " + end.describe() +
                                    " while the case ran (a write far out of bounds, an abort, a crash in the driver)";
      // Shrink it where the crash reproduces: each candidate in a child of its own.
      const fs::path probe = fs::temp_directory_path() / ("plumbline_probe_" + tag + ".jsonl");
      Options one = o;
      one.values = to_string(r.values);
      one.source.variant = r.variant == "user" ? o.source.variant : r.variant;
      int steps = 0;
      const Problem small = shrink_failure(
          c.problem,
          [&](const Problem& q) {
            if (++steps > 40 || !plans::applies(*c.variant, q)) return false;
            Options qo = one;
            qo.seed = r.seed;
            fs::remove(probe);
            const ChildEnd e = child(child_args(qo, op, device.selector, probe.string(), 0, q.line()), probe);
            return e.signal != 0;
          },
          40);
      fs::remove(probe);
      CaseResult rs = r;
      rs.problem = small;
      out.add(to_json(r));
      ++out.failed;
      print_failure(log, op + (kv.all.size() > 1 ? "/" + r.variant : ""), rs, r, o.source);
      out.failures.push_back(failure_json(rs, r, o.source));
      last_done = last_begun;
    }
    if (last_done < next) {  // it died before any case: nothing to blame on a kernel
      exit_code = std::max(exit_code, 3);
      log << "plumbline: internal error: the check process for " << op << " on " << device.selector << " ended (" << end.describe()
          << ") before its first case\n";
      out.stop = true;
      return;
    }
    if (out.failed >= 3 && !sel.problem) {
      log << "  (stopping " << op << " after 3 failures)\n";
      out.stop = true;
    }
    next = last_done + 1;
  }
  fs::remove(results);
}

std::string summary_of(const std::string& op, const std::string& device, const OpResult& r, const KernelVariants& kv) {
  const size_t variants = kv.all.size();
  std::string split;
  for (const auto& [name, count] : r.per_variant) split += (split.empty() ? " (" : ", ") + name + " " + std::to_string(count);
  split = variants > 1 ? split + ")" : "";
  int skipped = 0;
  for (const auto& [name, s] : r.skipped) skipped += s.first;
  const char* status = r.failed ? "FAIL" : skipped == r.ran && r.ran > 0 ? "SKIP" : "pass";
  char line[512];
  std::snprintf(line, sizeof line, "%-22s %-9s %s  %d cases%s  worst ratio %.3g  kernel time %.3f ms\n", op.c_str(), device.c_str(), status, r.ran,
                split.c_str(), r.worst, r.seconds * 1e3);
  std::string out = line;
  for (const auto& s : r.sampled) out += "  " + s + "\n";
  // Said, so that a pass is not read as covering them:
  for (const auto& [name, s] : r.skipped)
    out += "  " + op + "/" + name + ": " + std::to_string(s.first) + " case" + (s.first == 1 ? "" : "s") + " skipped, not judged: " + s.second + "\n";
  for (const auto& [name, what] : r.exempted) out += "  " + op + "/" + name + ": set aside as the plan declares: " + what + "\n";
  for (const auto& [name, accepted] : r.ieee)
    out += "  " + op + "/" + name + ": judged under the ieee non-finite policy: " + std::to_string(accepted) +
           " elements passed as IEEE arithmetic on the formula gives them, where the reference's rules differ\n";
  if (r.cached > 0)
    out += "  " + std::to_string(r.cached) + " of " + std::to_string(r.ran) +
           " cases clean in an earlier run of the same programs and launch, not simulated again\n";
  for (const auto& [name, lacks] : kv.unavailable)
    out += "  " + op + "/" + name + " not checked: it needs " + lacks + ", which " + device + " lacks\n";
  return out;
}

// One operator on one device of a run, or one part of its variants: checked in child processes, side
// by side with others (--jobs); its lines are printed together, in the run's order, once it (every
// part of it) and every one before it are done.
struct Task {
  const ocl::DeviceInfo* device = nullptr;
  std::string op;
  Shard part;                    // which of the operator's parts: every part.count-th variant from part.index
  std::shared_ptr<OpPlan> plan;  // shared by its parts
  bool run = true;               // false: a line only (no kernel yet, nothing of it builds on the device)
  OpResult result;
  std::ostringstream log;
  int exit_code = 0;
  bool done = false;
};

// Runs the tasks, `jobs` at a time, printing each task's lines in order as soon as they are complete
// (one at a time: as they come). A task that ends in bad input or an internal error (exit 2 or 3)
// stops the run: no new task starts.
void run_tasks(std::vector<Task>& tasks, const Selection& sel, const Options& o, int jobs) {
  const auto runnable = std::count_if(tasks.begin(), tasks.end(), [](const Task& t) { return t.run; });
  if (jobs <= 1 || runnable <= 1) {
    for (Task& t : tasks) {
      std::cout << t.log.str() << std::flush;
      if (!t.run) continue;
      Options po = o;
      po.part = t.part;
      run_isolated(*t.device, t.op, sel, po, *t.plan, t.result, t.exit_code, std::cout, false);
      if (t.exit_code >= 2) return;
      std::cout << summary_of(t.op, t.device->selector, t.result, t.plan->kv) << std::flush;
    }
    return;
  }
  std::mutex mutex;
  size_t next = 0, printed = 0;
  bool stop = false;
  // The parts of one operator (consecutive tasks): printed once all are done, as one.
  auto group_end = [&](size_t i) {
    size_t e = i + 1;
    while (e < tasks.size() && tasks[e].part.index > 0) ++e;
    return e;
  };
  auto print_ready = [&] {  // under the mutex
    while (printed < tasks.size()) {
      const size_t end = group_end(printed);
      if (!std::all_of(tasks.begin() + static_cast<std::ptrdiff_t>(printed), tasks.begin() + static_cast<std::ptrdiff_t>(end),
                       [](const Task& t) { return t.done; }))
        return;
      Task& t = tasks[printed];
      OpResult all = t.result;
      int exit_code = t.exit_code;
      for (size_t i = printed; i < end; ++i) {
        std::cout << tasks[i].log.str();
        if (i > printed) all.merge(tasks[i].result), exit_code = std::max(exit_code, tasks[i].exit_code);
      }
      if (t.run && exit_code < 2) std::cout << summary_of(t.op, t.device->selector, all, t.plan->kv);
      std::cout.flush();
      printed = end;
    }
  };
  // The costliest first (by the variants a task holds: each builds its programs and checks its stress
  // problem), so that the run does not wait on one long operator started last.
  std::vector<size_t> order(tasks.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto weight = [&](size_t i) { return tasks[i].run ? tasks[i].plan->kv.all.size() / static_cast<size_t>(tasks[i].part.count) : 0; };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return weight(a) > weight(b); });
  auto worker = [&] {
    for (;;) {
      size_t i;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (stop || next >= tasks.size()) return;
        i = order[next++];
      }
      Task& t = tasks[i];
      // An error ends this task (its line says it) and stops the run, as it would one at a time.
      try {
        Options po = o;
        po.part = t.part;
        if (t.run) run_isolated(*t.device, t.op, sel, po, *t.plan, t.result, t.exit_code, t.log, true);
      } catch (const Error& e) {
        t.log << "plumbline: error: " << e.what() << "\n";
        t.exit_code = 2;
      } catch (const std::exception& e) {
        t.log << "plumbline: internal error: " << e.what() << "\n";
        t.exit_code = 3;
      }
      std::lock_guard<std::mutex> lock(mutex);
      t.done = true;
      stop = stop || t.exit_code >= 2;
      print_ready();
    }
  };
  // While operators are checked, a line on stderr every 20 s names each one and its cases done (their
  // own lines wait until they finish): a cold run spends minutes building programs.
  std::condition_variable finished;
  bool all_done = false;
  std::thread progress([&] {
    std::unique_lock<std::mutex> lock(mutex);
    const auto start = std::chrono::steady_clock::now();
    while (!finished.wait_for(lock, std::chrono::seconds(20), [&] { return all_done; })) {
      std::string line;
      for (size_t k = 0; k < next && k < tasks.size(); ++k) {
        const Task& t = tasks[order[k]];
        if (!t.run || t.done) continue;
        std::ifstream events(events_path(task_tag(*t.device, t.op, t.part)));
        int done = 0;  // in the running child (a crash starts another, which counts anew)
        for (std::string e; std::getline(events, e);) done += e.find("\"event\":\"case\"") != std::string::npos;
        const std::string name = t.part.whole() ? t.op : t.op + " part " + std::to_string(t.part.index + 1) + "/" + std::to_string(t.part.count);
        line += (line.empty() ? "" : ", ") + name + " (" + std::to_string(done) + " cases)";
      }
      const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!line.empty()) std::fprintf(stderr, "  [%.0f s] checking %s\n", seconds, line.c_str());
    }
  });
  std::vector<std::thread> pool;
  for (int j = 1; j < std::min<int>(jobs, static_cast<int>(tasks.size())); ++j) pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
  {
    std::lock_guard<std::mutex> lock(mutex);
    all_done = true;
  }
  finished.notify_all();
  progress.join();
}

}  // namespace

void add_check_command(CLI::App& app, Context& ctx) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("check", "Check OpenCL kernels against the references");
  cmd->add_option("op", opt->op, "the operator whose kernels to check");
  cmd->add_flag("--all", opt->all, "every operator that has a kernel");
  cmd->add_option("--problem", opt->problem, "one problem line instead of random problems");
  cmd->add_option("--batch", opt->batches, "a batch file's problems instead of random problems (repeatable; docs/problems.md)");
  cmd->add_option("--cases", opt->cases, "random problems per operator and device, shared among its variants")->check(CLI::PositiveNumber);
  cmd->add_option("--seed", opt->seed, "seed of the problems and values");
  cmd->add_option("--values", opt->values, "integers, uniform, normal, edge or sparse (default: cycle through the first four)")
      ->check(CLI::IsMember({"integers", "uniform", "normal", "edge", "sparse"}));
  cmd->add_option("--device", opt->device, "device selector (default: PLUMBLINE_DEVICE, else all)");
  add_kernel_flags(cmd, opt->source);
  cmd->add_option("--json", opt->json, "write every case's result to this JSON file");
  cmd->add_flag("--first-failure", opt->first_failure, "stop an operator at its first failing case, unshrunk (mutation runs)");
  cmd->add_option("--timeout", opt->timeout,
                  "seconds a kernel launch may run before it counts as hung (default: from the problem's work, at least 10)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--reference-budget", opt->reference_budget,
                  "FLOPs of the largest full double reference; a GEMM or convolution above it is checked on a sample of its outputs "
                  "(docs/verification.md)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--in-process", opt->in_process, "run every case in this process: faster, but a crashing kernel ends the run");
  cmd->add_flag("--no-stress{off},--stress{on}", opt->stress,
                "leave out (or, on a device that is no GPU, add) each variant's stress problem: one that fills the device four waves "
                "deep, checked at its size");
  cmd->add_flag("--no-replay{off},--replay{on}", opt->replay,
                "launch each case once (or, on a device that is no GPU, twice: on GPUs every case is launched twice and the outputs "
                "compared bit for bit)");
  cmd->add_flag("--sanitize", opt->sanitize,
                "the sanitizer pass: every variant on Oclgrind (data races, uninitialized values, divergent barriers, out-of-bounds "
                "accesses), one small problem per storage format that launches two work-groups along every growing dimension");
  cmd->add_option("--jobs", opt->jobs,
                  "check processes side by side: one an operator, or (from 8 jobs, 6 variants) one a part of about three of its variants (default: "
                  "the host's cores)")
      ->check(CLI::PositiveNumber);
  add_shard_option(cmd, opt->shard_text);
  cmd->add_option("--child-results", opt->child_results)->group("");  // internal: the isolated child's events
  cmd->add_option("--first-case", opt->first_case)->group("");
  cmd->add_option("--part", opt->part_text)->group("");  // internal: the child's part of the operator's variants
  cmd->callback([opt, &ctx] {
    const plans::KernelSource& source = opt->source;
    source.validate();
    opt->shard = parse_shard(opt->shard_text);
    opt->part = opt->part_text.empty() ? Shard{} : parse_shard(opt->part_text);
    if (opt->all && source.user() && source.plan_file.empty()) throw Error("--kernel-file checks one operator: name it instead of --all");
    if (!opt->batches.empty() && !opt->problem.empty()) throw Error("--batch and --problem: give one of them");
    Selection sel = opt->batches.empty() || !opt->op.empty() ? select(opt->op, opt->problem, opt->all, nullptr) : Selection{};
    opt->batch_problems.clear();
    for (const auto& b : opt->batches)
      for (const auto& e : bench::read_batch(b))
        if (opt->op.empty() || e.problem.op() == opt->op) opt->batch_problems.push_back(e.problem);
    if (!opt->batches.empty()) {  // the operators of the batch's problems, in their order
      if (opt->batch_problems.empty()) throw Error("the batch holds no problem of " + (opt->op.empty() ? std::string("any operator") : opt->op));
      sel.ops.clear();
      for (const auto& p : opt->batch_problems)
        if (std::find(sel.ops.begin(), sel.ops.end(), p.op()) == sel.ops.end()) sel.ops.push_back(p.op());
    }
    if (opt->sanitize && !opt->device.empty() && !ocl::names_oclgrind(opt->device))
      throw Error("--sanitize runs on the device simulator: leave --device out (or give oclgrind:0), not '" + opt->device + "'");
    if (opt->sanitize && opt->device.empty()) opt->device = "oclgrind:0";
    const auto devices = ocl::select_devices(opt->device.empty() ? ocl::default_selector() : opt->device);

    if (!opt->child_results.empty()) {  // the isolated child: one operator, one device
      ocl::Runtime rt(devices.at(0), ocl::Builds::ForChecks);
      KernelChecker checker(rt, source);
      checker.set_replay(opt->replay == "on" || (opt->replay.empty() && devices.at(0).is_gpu));
      checker.set_timeout(opt->timeout);
      checker.set_reference_budget(opt->reference_budget);
      std::ofstream events(opt->child_results, std::ios::app);
      const OpCases oc = cases_of(checker.variants(sel.ops.at(0)), sel.ops.at(0), sel, *opt, devices.at(0));
      OpResult out;
      run_in_process(checker, sel.ops.at(0), oc, *opt, opt->first_case, out, &events);
      ctx.exit_code = checker.faulted() ? 4 : out.failed ? 1 : 0;
      // Said before the driver is torn down: a child whose exit then hangs (seen once on an H200, after
      // its last case of a cold run) is ended by the parent with every result kept (run_child).
      std::cout.flush();
      events << nlohmann::json{{"event", "end"}, {"exit", ctx.exit_code}}.dump() << std::endl;
      if (const char* inject = std::getenv("PLUMBLINE_INJECT_LINGER"); inject && sel.ops.at(0) == inject)  // tests of isolation only
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
      return;
    }

    nlohmann::json cases = nlohmann::json::array(), failures = nlohmann::json::array();
    bool all_passed = true;
    std::set<std::string> checked;                        // operators with something checked on some device
    std::multimap<std::string, std::string> unavailable;  // operator -> why a device could run none of its variants
    std::vector<Task> tasks;
    const int jobs = opt->jobs > 0 ? opt->jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    for (const auto& device : devices) {
      std::unique_ptr<ocl::Runtime> rt;
      std::unique_ptr<KernelChecker> checker;
      if (opt->in_process) {
        rt = std::make_unique<ocl::Runtime>(device, ocl::Builds::ForChecks);
        checker = std::make_unique<KernelChecker>(*rt, source);
        checker->set_replay(opt->replay == "on" || (opt->replay.empty() && device.is_gpu));
        checker->set_timeout(opt->timeout);
        checker->set_reference_budget(opt->reference_budget);
      }
      for (const auto& op : sel.ops) {
        auto say = [&](const std::string& line) {  // a line in the run's order
          Task& t = tasks.emplace_back();
          t.device = &device, t.op = op, t.run = false, t.done = false;
          t.log << line << "\n";
        };
        if (source.ours() && plans::our_variants(op).empty()) {
          if (!opt->all) throw Error("operator '" + op + "' has no OpenCL kernel yet");
          char line[128];
          std::snprintf(line, sizeof line, "%-22s %-9s no kernel yet", op.c_str(), device.selector.c_str());
          say(line);
          continue;
        }
        if (opt->all && !source.plan_file.empty()) {
          // --plan with --all: the operators the plan file has variants of
          bool any = false;
          try {
            any = !plans::variants_for(source, op).empty();
          } catch (const Error&) {
          }
          if (!any) continue;
        }
        const KernelVariants kv = opt->in_process ? checker->kernels(op) : kernel_variants(source, op, device);
        if (kv.all.empty() && !kv.unavailable.empty()) {  // nothing of op builds here (a `needs` line): said, not failed
          char line[64];
          std::snprintf(line, sizeof line, "%-22s %-9s ", op.c_str(), device.selector.c_str());
          say(line + ("not checked: " + unavailable_message(op, kv, device)));
          unavailable.emplace(op, unavailable_message(op, kv, device));
          continue;
        }
        checked.insert(op);
        if (opt->in_process) {
          for (Task& t : tasks) std::cout << t.log.str();  // lines said before this operator
          tasks.clear();
          OpResult r;
          const OpCases oc = cases_of(checker->variants(op), op, sel, *opt, device);
          for (const auto& n : oc.notes) std::cout << "  " << n << "\n";
          run_in_process(*checker, op, oc, *opt, 0, r, nullptr);
          std::cout << summary_of(op, device.selector, r, kv) << std::flush;
          if (checker->faulted())
            throw Error("a kernel faulted on " + device.selector +
                        " and its context cannot be trusted: the run stops here (without --in-process each operator runs in a child process and the "
                        "run goes on)");
          for (auto& c : r.cases) cases.push_back(c);
          for (auto& f : r.failures) failures.push_back(f);
          all_passed = all_passed && r.failed == 0;
          continue;
        }
        // An operator of many variants in parts side by side, where the jobs allow: a part's child
        // builds and checks about three of them (a cold GPU's builds and stress problems are most of
        // a run's time).
        const int parts = std::clamp(static_cast<int>(kv.all.size()) / 3, 1, std::max(1, jobs / 4));
        auto plan = std::make_shared<OpPlan>();
        plan->kv = kv;
        for (int part = 0; part < parts; ++part) {
          Task& t = tasks.emplace_back();
          t.device = &device, t.op = op, t.part = Shard{part, parts}, t.plan = plan;
        }
      }
    }
    for (Task& t : tasks) t.done = !t.run;
    run_tasks(tasks, sel, *opt, jobs);
    for (Task& t : tasks) {
      if (!t.run) continue;
      ctx.exit_code = std::max(ctx.exit_code, t.exit_code);
      for (auto& c : t.result.cases) cases.push_back(c);
      for (auto& f : t.result.failures) failures.push_back(f);
      all_passed = all_passed && t.result.failed == 0;
    }
    if (ctx.exit_code >= 2) return;
    for (const auto& [op, why] : unavailable)  // asked for (--variant) and runnable on none of the devices
      if (!checked.count(op)) throw Error(why);
    if (!opt->json.empty()) {
      std::ofstream f(opt->json);
      if (!f) throw Error("cannot write " + opt->json);
      f << nlohmann::json{{"kind", "check"}, {"cases", cases}, {"failures", failures}, {"kernel", source.describe()}}.dump(1) << "\n";
    }
    ctx.exit_code = std::max(ctx.exit_code, all_passed ? 0 : 1);
  });
}

}  // namespace plumbline::apps
