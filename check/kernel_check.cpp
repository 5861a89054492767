#include "check/kernel_check.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "check/error_models.hpp"
#include "check/sanitizer.hpp"
#include "check/sampling.hpp"
#include "check/shrink.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"
#include "plans/library.hpp"
#include "plans/tuning.hpp"
#include "reference/reference.hpp"

namespace plumbline {

KernelChecker::KernelChecker(ocl::Runtime& runtime, plans::KernelSource source)
    : rt_(runtime), source_(std::move(source)), reference_budget_(kReferenceBudget), replay_(runtime.device().is_gpu) {
  source_.validate();
}

bool KernelChecker::sampled(const Problem& p) const { return signature_of(p).flops > reference_budget_ && has_slicer(p.op()); }

KernelVariants kernel_variants(const plans::KernelSource& source_in, const std::string& op, const ocl::DeviceInfo& dev) {
  // --variant NAME@CLASS asks for one tuned instance of NAME.
  plans::KernelSource source = source_in;
  const size_t at = source.variant.find('@');
  if (at != std::string::npos) source.variant.resize(at);
  KernelVariants k;
  static const std::vector<plans::TuningEntry> none;
  const std::vector<plans::TuningEntry> own = source.tuning_dir.empty() ? none : plans::read_tuning(source.tuning_dir);
  const std::vector<plans::TuningEntry>& db = !source.tuning_dir.empty() ? own : source.ours() ? plans::tuning_database() : none;
  for (auto& v : plans::variants_for(source, op)) {
    std::string lacks;  // a `needs` line's features this device lacks: the program would not build here
    for (const auto& f : v.needs)
      if (std::find(dev.features.begin(), dev.features.end(), f) == dev.features.end()) lacks += (lacks.empty() ? "" : " ") + f;
    if (!lacks.empty()) {
      k.unavailable[v.name] = lacks;
      continue;
    }
    k.base.push_back(k.all.size());
    k.all.push_back(v);
    if (!v.devices.empty() && std::find(v.devices.begin(), v.devices.end(), dev.type) == v.devices.end()) k.other_devices.insert(v.name);
    if (!source.defines.empty()) continue;  // --define asks for other defines than the tuned ones
    std::vector<std::string> classes;
    for (const auto& c : v.classes) classes.push_back(c.name);
    if (classes.empty()) classes.push_back("all");
    for (const auto& cls : classes) {
      const plans::TuningEntry* e = plans::find_tuning(db, dev.name, dev.driver_version, dev.architecture, op, v.name, cls);
      if (!e) continue;
      const std::string instance = v.name + "@" + cls;
      if (e->device != dev.name) k.borrowed[instance] = e->device;
      if (e->off) {
        k.off.insert(instance);
        continue;
      }
      plans::Variant tuned;
      try {
        tuned = v.with_defines(e->defines);
      } catch (const Error& err) {
        throw Error(e->where.str() + ": " + err.what());
      }
      if (const std::string unmet = tuned.unmet_requirement(); !unmet.empty()) throw Error(e->where.str() + ": " + unmet);
      tuned.name = instance;
      k.tuned[tuned.name] = k.all.size();
      k.all.push_back(std::move(tuned));
    }
  }
  if (at != std::string::npos) {
    auto t = k.tuned.find(source_in.variant);
    if (t == k.tuned.end() && !k.unavailable.empty()) throw Error(unavailable_message(op, k, dev));
    if (t == k.tuned.end())
      throw Error(op + " has no tuned instance '" + source_in.variant + "' on " + dev.selector + " (" + dev.name + "): plumbline tune makes them");
    KernelVariants only;
    only.all.push_back(k.all[t->second]);
    only.base.push_back(0);
    k = std::move(only);
  }
  return k;
}

std::string unavailable_message(const std::string& op, const KernelVariants& k, const ocl::DeviceInfo& dev) {
  std::string out;
  for (const auto& [name, lacks] : k.unavailable) out += (out.empty() ? "" : "; ") + op + "/" + name + " needs " + lacks;
  return out + ", which " + dev.selector + " (" + dev.name + ") lacks (plumbline devices lists each device's features)";
}

const KernelVariants& KernelChecker::kernels(const std::string& op) {
  auto it = kernels_.find(op);
  if (it == kernels_.end()) it = kernels_.emplace(op, kernel_variants(source_, op, rt_.device())).first;
  return it->second;
}

const std::vector<plans::Variant>& KernelChecker::variants(const std::string& op) { return kernels(op).all; }

const plans::Variant& KernelChecker::select(const Problem& p) {
  const KernelVariants& k = kernels(p.op());
  // A variant that is `off` on this device, or shaped for another type of device, is passed over for
  // the next that serves p; when none other does (or it was asked for by name: --variant), it runs.
  // A tuned entry is a preference: where its defines break the variant's condition for p (a class
  // wider than the shapes it was tuned on), the variant runs with the plan's own defines.
  // Those that prefer p first (a variant's `prefer`: a condition of speed), then any that serves it;
  // a variant in a numeric mode other than exact only where no exact one serves p.
  for (const bool exact : {true, false})
    for (const bool honour_off : {true, false})
      for (const bool must_prefer : {true, false})
        for (size_t i : k.base) {
          const plans::Variant& v = k.all[i];
          if (plans::computes_exactly(v) != exact || !(must_prefer ? plans::preferred(v, p) : plans::applies(v, p))) continue;
          const std::string key = v.name + "@" + plans::class_of(v, p);
          if (honour_off && (k.off.count(key) || k.other_devices.count(v.name))) continue;
          auto t = k.tuned.find(key);
          return t != k.tuned.end() && plans::applies(k.all[t->second], p) ? k.all[t->second] : v;
        }
  if (k.base.empty() && !k.unavailable.empty()) throw Error(unavailable_message(p.op(), k, rt_.device()));
  std::vector<plans::Variant> base;
  for (size_t i : k.base) base.push_back(k.all[i]);
  plans::select_variant(base, p);  // no variant serves p: the error that names every condition
  throw Error("no variant of " + p.op() + " serves " + p.line());
}

const cl::Program& KernelChecker::program_for(const plans::Variant& v, DType dtype) {
  return rt_.program(v.file, ocl::program_options(v, dtype), v.prelude);
}

namespace {

// Bytes of memory the host has available now (Linux's MemAvailable), 0 when unknown.
double host_available_bytes() {
  std::ifstream f("/proc/meminfo");
  std::string key;
  double kb = 0;
  std::string unit;
  while (f >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return 0;
}

std::string gib(double bytes) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.0f bytes (%.2f GiB)", bytes, bytes / (1024.0 * 1024 * 1024));
  return buf;
}

}  // namespace

void KernelChecker::check_fits(const Problem& p, const plans::Variant& v) {
  const ocl::DeviceInfo& dev = rt_.device();
  const Signature sig = signature_of(p);
  rt_.set_problem_flops(sig.flops);  // its programs are built (and their launch checked) for its size
  double device_total = 0, host_elements = 0;
  auto tensor = [&](const std::string& name, int64_t numel, const char* what, DType d) {
    const double bytes = bytes_of(d) * static_cast<double>(numel);
    device_total += bytes;
    if (bytes > static_cast<double>(dev.max_alloc_bytes))
      throw Error(p.line() + ": " + what + " '" + name + "' needs " + gib(bytes) + ", more than the largest allocation of " + dev.selector + " (" +
                  dev.name + "), " + gib(static_cast<double>(dev.max_alloc_bytes)));
  };
  for (const auto& t : sig.inputs) tensor(t.name, t.shape.numel(), "input", sig.storage_of(t)), host_elements += static_cast<double>(t.shape.numel());
  for (const auto& t : sig.outputs)
    tensor(t.name, t.shape.numel(), "output", sig.storage_of(t)), host_elements += static_cast<double>(t.shape.numel());
  const std::vector<int64_t> scratch = plans::scratch_floats(v, p);
  for (size_t i = 0; i < scratch.size(); ++i) tensor(v.scratch[i].name, scratch[i], "scratch buffer", DType::F32);
  if (device_total > static_cast<double>(dev.global_mem_bytes))
    throw Error(p.line() + ": its tensors need " + gib(device_total) + " together, more than the global memory of " + dev.selector + " (" + dev.name +
                "), " + gib(static_cast<double>(dev.global_mem_bytes)));
  // The host holds every tensor as float and as double, and the reference's outputs in double; a
  // sampled check only the floats (and its slices, which check_sampled fits to the memory left).
  const bool sample = sampled(p);
  const double host = (sample ? 4.0 : 20.0) * host_elements, available = host_available_bytes();
  if (available > 0 && host > available)
    throw Error(p.line() + ": checking it needs about " + gib(host) + " of host memory for the inputs, outputs" +
                (sample ? "" : " and double reference") + "; " + gib(available) + " are available");
  if (!sample && sig.flops > kReferenceBudget) {
    char buf[256];
    std::snprintf(buf, sizeof buf, ": its double reference costs %.3g FLOPs, more than the %.0e plumbline check runs in full, and %s", sig.flops,
                  kReferenceBudget, p.op().c_str());
    throw Error(p.line() + buf + " cannot be checked by sampling (check/sampling.hpp: the GEMM and convolution families can)");
  }
  ocl::check_launch(rt_, p, v, program_for(v, dtype_of(p)));
}

Execution KernelChecker::execute(const Problem& p, const std::vector<TensorF>& inputs, const plans::Variant* v) {
  const plans::Variant& variant = v ? *v : select(p);
  if (!plans::applies(variant, p))
    throw Error("variant " + variant.id() + " (" + variant.where.str() + ") does not apply to " + p.line() + ": its condition is '" +
                variant.when.text() + "'");
  const Signature sig = signature_of(p);
  rt_.set_problem_flops(sig.flops);
  ocl::check_launch(rt_, p, variant, program_for(variant, sig.dtype));
  if (inputs.size() != sig.inputs.size()) throw Error(p.op() + " takes " + std::to_string(sig.inputs.size()) + " inputs");
  std::vector<ocl::GuardedBuffer> in_b, out_b, scratch_b;
  for (size_t i = 0; i < sig.inputs.size(); ++i) {
    if (inputs[i].shape != sig.inputs[i].shape)
      throw Error(p.line() + ": input '" + sig.inputs[i].name + "' must have shape " + sig.inputs[i].shape.str());
    in_b.push_back(rt_.buffer(sig.inputs[i].name, sig.inputs[i].shape.numel(), sig.storage_of(sig.inputs[i])));
    in_b.back().upload(inputs[i].data);
  }
  for (const auto& decl : sig.outputs) {
    out_b.push_back(rt_.buffer(decl.name, decl.shape.numel(), sig.storage_of(decl)));
    out_b.back().poison();
  }
  // Scratch starts poisoned too: a step that reads scratch another step never wrote sees NaN.
  // Counters start at zero, as the plan format promises (the words of 0.0f are zeros).
  const std::vector<int64_t> scratch = plans::scratch_floats(variant, p);
  for (size_t i = 0; i < scratch.size(); ++i) {
    scratch_b.push_back(rt_.buffer(variant.scratch[i].name, scratch[i]));
    if (variant.scratch[i].counters)
      scratch_b.back().upload(std::vector<float>(static_cast<size_t>(scratch[i]), 0.0f));
    else
      scratch_b.back().poison();
  }
  ocl::Buffers buffers;
  for (auto& b : in_b) buffers.tensors[b.name()] = &b;
  for (auto& b : out_b) buffers.tensors[b.name()] = &b;
  for (auto& b : scratch_b) buffers.scratch.push_back(&b);
  Execution ex;
  ex.seconds = ocl::launch(rt_, p, variant, program_for(variant, sig.dtype), buffers);
  auto note = [&](const std::string& verdict, const std::string& problem) {
    if (ex.problem.empty()) ex.verdict = verdict, ex.problem = problem;
  };
  // A simulator's reports first (a race, a read of what nothing wrote), then memory: a write out of
  // bounds or into an input makes every number suspect.
  if (rt_.simulated()) {
    const SanitizerVerdict s = judge_sanitizer_reports(rt_, variant, buffers);
    if (!s.verdict.empty()) note(s.verdict, s.message);
    ex.exempted = s.exempted;
  }
  for (auto* b : {&in_b, &scratch_b})
    for (auto& buf : *b)
      for (const auto& problem : buf.inspect(false)) note("out-of-bounds", problem);
  for (size_t i = 0; i < in_b.size(); ++i)
    if (!in_b[i].holds(inputs[i].data)) note("input-modified", "the kernel wrote into input '" + in_b[i].name() + "'");
  // The next launch finds counters where this one left them: at zero, or its last work-group is wrong.
  for (size_t i = 0; i < scratch_b.size(); ++i)
    if (variant.scratch[i].counters && !scratch_b[i].holds(std::vector<float>(static_cast<size_t>(scratch_b[i].size()), 0.0f)))
      note("counters-left", "counters '" + scratch_b[i].name() + "' (" + variant.scratch[i].where.str() +
                                ") are not all zero after the launch: the steps must leave them at zero for the next one");
  for (size_t i = 0; i < out_b.size(); ++i) {
    ex.outputs.emplace_back(sig.outputs[i].shape);
    for (const auto& problem : out_b[i].inspect(true, &ex.outputs.back().data))
      note(problem.find("unwritten") != std::string::npos ? "unwritten" : "out-of-bounds", problem);
  }
  return ex;
}

NonfinitePolicy KernelChecker::nonfinite_policy(const plans::Variant& v) const {
  const std::string& word = source_.nonfinite.empty() ? v.nonfinite : source_.nonfinite;
  return word.empty() ? NonfinitePolicy::Limits : nonfinite_policy_from(word, source_.nonfinite.empty() ? "nonfinite" : "--nonfinite");
}

CaseResult KernelChecker::run(const Problem& p, Values values, uint64_t seed, const plans::Variant* v) {
  const plans::Variant& variant = v ? *v : select(p);
  CaseResult r{p, rt_.device().selector, variant.name, values, seed};
  r.nonfinite = nonfinite_policy(variant);
  r.math = variant.math.empty() ? "exact" : variant.math;
  // On a simulator, a clean verdict of an identical earlier case stands (check/sanitizer.hpp): not
  // even its programs are built again.
  const std::string verdict_key = rt_.simulated() ? sanitizer_verdict_key(rt_, variant, p, values, seed) : "";
  if (!verdict_key.empty())
    if (const auto clean = cached_clean_verdict(verdict_key)) {
      r.passed = true, r.verdict = "pass", r.cached = true;
      r.exempted = clean->exempted, r.worst_ratio = clean->worst_ratio, r.max_error = clean->max_error, r.seconds = clean->seconds;
      return r;
    }
  try {
    check_fits(p, variant);
  } catch (const Error& e) {
    if (!rt_.simulated()) throw;
    // A simulator's compiler is not the kernel author's target: what it refuses to build, or to make a
    // kernel of (a fatal error in its log), is skipped, and said.
    std::string why;
    for (const auto& report : rt_.sanitizer_reports())
      if (report.verdict == "cannot-run" && why.empty()) why = report.headline;
    const std::string log = e.what();
    if (why.empty() && dynamic_cast<const ocl::BuildFailure*>(&e)) why = log.substr(0, log.find('\n', log.find("build log:") + 11));
    if (why.empty()) throw;
    r.skipped = true, r.verdict = "skipped", r.message = "Oclgrind cannot run " + variant.id() + ": " + why;
    return r;
  }
  const Signature sig = signature_of(p);
  rt_.set_watchdog(timeout_ > 0 ? timeout_ : rt_.watchdog_for(sig.flops, sig.bytes()));
  rt_.set_problem_flops(sig.flops);
  if (sampled(p)) return run_sampled(p, values, seed, variant, std::move(r));
  const CaseInputs in = draw_inputs(sig, values, seed);
  const std::vector<TensorD> ref = run_reference(p, in.d);
  const std::vector<ErrorModel> models = error_models(p, in.d, ref, values == Values::Integers, r.nonfinite, NumericMode::parse(r.math));
  const std::optional<Execution> ex = execute_case(p, in.f, variant, r);
  if (ex && replayed(p, in.f, variant, *ex, r)) judge_case(r, p, sig, in, ex->outputs, ref, models, values == Values::Integers);
  if (!verdict_key.empty() && r.passed) store_clean_verdict(verdict_key, {r.exempted, r.worst_ratio, r.max_error, r.seconds});
  return r;
}

namespace {

// Where two runs' outputs differ in their bits: the first element and how many, in words; "" where
// they do not.
std::string bits_differ(const Signature& sig, const std::vector<TensorF>& a, const std::vector<TensorF>& b) {
  for (size_t o = 0; o < a.size() && o < b.size(); ++o) {
    int64_t first = -1, count = 0;
    for (int64_t i = 0; i < a[o].numel(); ++i) {
      uint32_t x, y;
      std::memcpy(&x, &a[o].data[static_cast<size_t>(i)], 4);
      std::memcpy(&y, &b[o].data[static_cast<size_t>(i)], 4);
      if (x == y) continue;
      if (first < 0) first = i;
      ++count;
    }
    if (count == 0) continue;
    char buf[256];
    std::snprintf(buf, sizeof buf, "output '%s' element %lld: %.9g, then %.9g (%lld of %lld elements differ)", sig.outputs[o].name.c_str(),
                  static_cast<long long>(first), a[o].data[static_cast<size_t>(first)], b[o].data[static_cast<size_t>(first)],
                  static_cast<long long>(count), static_cast<long long>(a[o].numel()));
    return buf;
  }
  return "";
}

}  // namespace

bool KernelChecker::replayed(const Problem& p, const std::vector<TensorF>& inputs, const plans::Variant& variant, const Execution& first,
                             CaseResult& r) {
  // A simulator runs a work-group's work-items in one order every time: a second run there shows nothing.
  if (!replay_ || !variant.nondeterministic.empty() || rt_.simulated()) return true;
  double bytes = 0;
  for (const auto& t : first.outputs) bytes += 4.0 * static_cast<double>(t.numel());
  if (bytes > double(1 << 30)) return true;  // the outputs of a huge problem are not held twice
  const std::optional<Execution> again = execute_case(p, inputs, variant, r);
  if (!again) return false;  // the second launch faulted or wrote out of bounds: r says so
  const std::string diff = bits_differ(signature_of(p), first.outputs, again->outputs);
  if (diff.empty()) return true;
  r.verdict = "nondeterministic";
  r.message = "a second launch on the same inputs gave other bits: " + diff + " (" + variant.id() +
              " is not declared `nondeterministic` in its plan: a race, or a read of memory nothing wrote)";
  return false;
}

std::optional<Execution> KernelChecker::execute_case(const Problem& p, const std::vector<TensorF>& inputs, const plans::Variant& variant,
                                                     CaseResult& r) {
  Execution ex;
  try {
    ex = execute(p, inputs, &variant);
  } catch (const ocl::SimulatorCannotRun& e) {
    r.skipped = true, r.verdict = "skipped", r.message = e.what();
    return std::nullopt;
  } catch (const ocl::KernelFault& f) {
    faulted_ = true;
    r.verdict = f.hung() ? "hung" : "crashed";
    r.message = f.what();
    return std::nullopt;
  }
  r.seconds = ex.seconds;
  r.exempted = ex.exempted;
  if (!ex.problem.empty()) {
    r.verdict = ex.verdict;
    r.message = ex.problem;
    return std::nullopt;
  }
  return ex;
}

CaseResult KernelChecker::run_sampled(const Problem& p, Values values, uint64_t seed, const plans::Variant& variant, CaseResult r) {
  // Progress on stderr for a check that takes more than a few seconds.
  const auto start = std::chrono::steady_clock::now();
  auto last = start;
  auto say = [&](const std::string& what, bool always = false) {
    const auto now = std::chrono::steady_clock::now();
    if (!always && (now - start < std::chrono::seconds(3) || now - last < std::chrono::seconds(1))) return;
    last = now;
    std::fprintf(stderr, "  %s: %s (%.0f s)\n", p.line().c_str(), what.c_str(), std::chrono::duration<double>(now - start).count());
  };
  const Signature sig = signature_of(p);
  // Announced where drawing the inputs alone takes a while (tens of millions of elements).
  double elements = 0;
  for (const auto& t : sig.inputs) elements += static_cast<double>(t.shape.numel());
  const bool large = elements > 3e7;
  char buf[160];
  std::snprintf(buf, sizeof buf, "the full reference costs %.3g FLOPs: checking a sample of the outputs", sig.flops);
  say(buf, large);
  std::vector<TensorF> in_f;
  for (size_t i = 0; i < sig.inputs.size(); ++i)
    in_f.push_back(make_input_parallel(sig.inputs[i], values, seed + 1000003 * i, sig.storage_of(sig.inputs[i]), sig.exact_ties));
  say("inputs drawn, running the kernel", large);
  const std::optional<Execution> ex = execute_case(p, in_f, variant, r);
  if (!ex || !replayed(p, in_f, variant, *ex, r)) return r;
  const SampledCheck s = check_sampled(
      p, in_f, ex->outputs, values == Values::Integers, seed,
      [&](int64_t done, int64_t total) { say("checked " + std::to_string(done) + " of " + std::to_string(total) + " sampled units"); }, r.nonfinite,
      NumericMode::parse(r.math));
  r.passed = s.passed;
  r.verdict = s.verdict;
  r.message = s.passed ? "" : s.message + " (" + std::to_string(s.mismatches) + " of " + std::to_string(s.elements) + " sampled elements off)";
  r.worst_ratio = s.worst_ratio;
  r.max_error = s.max_error;
  r.sampled = s.summary;
  return r;
}

CasePlan::CasePlan(const std::vector<plans::Variant>& variants, const std::string& op, int count, uint64_t seed, double budget)
    : variants_(variants), op_(op), count_(count), seed_(seed), budget_(budget) {
  if (variants_.empty()) throw Error("operator '" + op + "' has no variant to check");
}

KernelCase CasePlan::at(int i) const {
  const int nv = static_cast<int>(variants_.size());
  const plans::Variant& v = variants_[static_cast<size_t>(i % nv)];
  const int j = i / nv, n = (count_ - i % nv + nv - 1) / nv;  // this variant's case j of n
  const GenContext ctx(budget_, plans::tile_sizes(v));
  // The variant's storage formats in turn, four cases each (one per value distribution).
  const std::vector<std::string> dtypes = plans::dtypes_of(v);
  const std::string dtype = dtypes[static_cast<size_t>(j / 4) % dtypes.size()];
  auto in_dtype = [dtype](const Problem& p) { return p.has("dtype") ? p.with("dtype", dtype) : p; };
  // Draws until a problem can be steered into the variant's condition.
  constexpr int kTries = 200;
  for (int attempt = 0; attempt < kTries; ++attempt) {
    auto drawn = sample_problem(op_, ctx, seed_ + static_cast<uint64_t>(attempt) * 7919, j, n);
    if (!plans::steer(v, in_dtype(drawn.value()))) continue;
    auto steered = rc::shrinkable::map(std::move(drawn), [vc = v, in_dtype](const Problem& p) {
      const Problem q = in_dtype(p);
      return plans::steer(vc, q).value_or(q);
    });
    return {&v, std::move(steered), values_for_case(j), seed_ + static_cast<uint64_t>(i)};
  }
  throw Error("variant " + v.id() + " (" + v.where.str() + "): none of " + std::to_string(kTries) + " problems drawn for " + op_ +
              " meets its condition '" + v.when.text() +
              "', even steered: write the condition as attribute comparisons joined by && "
              "(docs/kernel-abi.md)");
}

CaseResult shrink_case(KernelChecker& kc, const KernelCase& c, const CaseResult& failed) {
  // Two minutes at most: its process makes no progress the parent sees while it shrinks.
  constexpr double kShrinkSeconds = 120;
  const Problem small = shrink_failure(
      c.problem, [&](const Problem& q) { return plans::applies(*c.variant, q) && !kc.run(q, c.values, c.seed, c.variant).passed; }, 500,
      kShrinkSeconds);
  if (small == failed.problem) return failed;
  CaseResult rs = kc.run(small, c.values, c.seed, c.variant);
  return rs.passed ? failed : rs;  // a failure that does not show again on its own is reported as it came
}

std::string check_repro(const CaseResult& r, const plans::KernelSource& source) {
  plans::KernelSource s = source;
  if (r.variant != "user") s.variant = r.variant;
  const std::string flags = s.flags();
  return "plumbline check " + r.problem.op() + " --problem '" + r.problem.line() + "' --values " + to_string(r.values) + " --seed " +
         std::to_string(r.seed) + " --device " + r.device + (flags.empty() ? "" : " " + flags);
}

}  // namespace plumbline
