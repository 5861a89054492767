#include "check/sampling.hpp"

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "check/error_models.hpp"
#include "core/error.hpp"
#include "core/parallel.hpp"
#include "core/registry.hpp"
#include "reference/reference.hpp"

namespace plumbline {

namespace {

const std::map<std::string, Slicer>& table() {
  static const std::map<std::string, Slicer> t = [] {
    std::map<std::string, Slicer> m;
    slicers::add_gemm(m);
    slicers::add_conv(m);
    return m;
  }();
  return t;
}

std::string index_str(const Shape& shape, int64_t flat) {
  std::vector<int64_t> idx(static_cast<size_t>(shape.rank()));
  for (int d = shape.rank() - 1; d >= 0; --d) {
    idx[static_cast<size_t>(d)] = flat % shape[d];
    flat /= shape[d];
  }
  std::string s = "[";
  for (size_t i = 0; i < idx.size(); ++i) s += (i ? "," : "") + std::to_string(idx[i]);
  return s + "]";
}

// The units of one kind to check: every corner of the grid, then random distinct units up to `count`.
std::vector<int64_t> choose_units(const std::vector<int64_t>& grid, int64_t count, Rng& rng) {
  int64_t total = 1;
  for (int64_t g : grid) total *= g;
  std::vector<int64_t> all;
  if (count + (int64_t{1} << grid.size()) >= total) {
    for (int64_t u = 0; u < total; ++u) all.push_back(u);
    return all;
  }
  std::set<int64_t> chosen;
  for (size_t corner = 0; corner < (size_t{1} << grid.size()); ++corner) {
    int64_t u = 0;
    for (size_t d = 0; d < grid.size(); ++d) u = u * grid[d] + ((corner >> d) & 1 ? grid[d] - 1 : 0);
    chosen.insert(u);
  }
  const size_t corners = chosen.size();
  std::uniform_int_distribution<int64_t> pick(0, total - 1);
  while (chosen.size() < corners + static_cast<size_t>(count)) chosen.insert(pick(rng));
  return {chosen.begin(), chosen.end()};
}

// How many random units of `kind` a sampled check takes: what the budget (shared among the plan's
// kinds) affords, within [kMinSampledUnits, kMaxSampledUnits]; the grid's corners come on top.
int64_t random_units_of(const SlicePlan& plan, const SliceKind& kind) {
  const double affordable = kSampleBudget / static_cast<double>(plan.kinds.size()) / std::max(kind.flops, 1.0);
  return std::clamp(static_cast<int64_t>(affordable), kMinSampledUnits, kMaxSampledUnits);
}

// Bytes of memory the host has available now (Linux's MemAvailable), 0 when unknown.
double available_bytes() {
  std::ifstream f("/proc/meminfo");
  std::string key, unit;
  double kb = 0;
  while (f >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return 0;
}

// One unit's comparisons, per compared output of its slice.
struct UnitResult {
  std::vector<Comparison> comparisons;
  std::vector<std::vector<int64_t>> at;
  std::vector<int> output;    // which output of the large problem each comparison is
  std::vector<int64_t> unit;  // the unit of each comparison's first mismatch
};

// The units one slice of a kind takes (cut_many): enough that the part they share is cut once for many.
constexpr size_t kUnitsPerSlice = 16;

UnitResult check_units(const SliceKind& kind, const std::vector<int64_t>& units, const std::vector<TensorF>& got, bool ints, NonfinitePolicy policy,
                       const NumericMode& mode) {
  const Slice s = units.size() == 1 ? kind.cut(units[0]) : kind.cut_many(units);
  const std::vector<TensorD> ref = run_reference(s.problem, s.inputs);
  const std::vector<ErrorModel> models = error_models(s.problem, s.inputs, ref, ints, policy, mode);
  const Signature sig = signature_of(s.problem);
  UnitResult r;
  for (size_t o = 0; o < ref.size(); ++o) {
    if (o >= s.at.size() || s.at[o].empty()) continue;
    if (static_cast<int64_t>(s.at[o].size()) != ref[o].numel()) throw Error("slice of " + kind.unit + " maps the wrong number of elements");
    TensorF mine(ref[o].shape);
    for (int64_t i = 0; i < mine.numel(); ++i) mine[i] = got[o].data[static_cast<size_t>(s.at[o][static_cast<size_t>(i)])];
    r.comparisons.push_back(compare(sig.outputs[o].name, mine, ref[o], models[o]));
    r.at.push_back(s.at[o]);
    r.output.push_back(static_cast<int>(o));
    const int64_t first = r.comparisons.back().first_index;
    r.unit.push_back(units.size() == 1 || first < 0 ? units[0] : kind.unit_of(o, s.at[o][static_cast<size_t>(first)]));
  }
  return r;
}

char* percent(char* buf, size_t n, double f) {
  std::snprintf(buf, n, "%.3g%%", 100 * f);
  return buf;
}

}  // namespace

bool has_slicer(const std::string& op) { return table().count(op) > 0; }

SlicePlan slice_plan(const Problem& p, const std::vector<TensorF>& inputs) {
  auto it = table().find(p.op());
  if (it == table().end()) throw Error("operator '" + p.op() + "' cannot be checked by sampling");
  return it->second(p, inputs);
}

SampledCost sampled_check_cost(const Problem& p) {
  const std::vector<TensorF> none(signature_of(p).inputs.size());  // the costs do not read the values
  const SlicePlan plan = slice_plan(p, none);
  SampledCost cost;
  for (const auto& kind : plan.kinds) {
    int64_t units = 1;
    for (int64_t g : kind.grid) units *= g;
    const int64_t checked = std::min(units, random_units_of(plan, kind) + (int64_t{1} << kind.grid.size()));
    cost.flops += static_cast<double>(checked) * kind.flops;
    cost.largest_slice_flops = std::max(cost.largest_slice_flops, kind.flops * static_cast<double>(kind.cut_many ? kUnitsPerSlice : 1));
  }
  return cost;
}

double slicers::largest_magnitude(const TensorF& t) {
  double m = 0;
  for (float v : t.data) m = std::max(m, static_cast<double>(std::abs(v)));
  return m;
}

double fraction_caught(int64_t s) { return s <= 0 ? 1.0 : 1.0 - std::pow(0.01, 1.0 / static_cast<double>(s)); }

SampledCheck check_sampled(const Problem& p, const std::vector<TensorF>& in, const std::vector<TensorF>& got, bool ints, uint64_t seed,
                           const std::function<void(int64_t, int64_t)>& progress, NonfinitePolicy policy, const NumericMode& mode) {
  const Signature sig = signature_of(p);
  const SlicePlan plan = slice_plan(p, in);
  SampledCheck out;
  // Whole tensors: with every input finite and the outputs bounded far inside float's range, no output
  // may be NaN or Inf.
  bool finite_inputs = true;
  for (const auto& t : in)
    for (float v : t.data) finite_inputs = finite_inputs && std::isfinite(v);
  if (finite_inputs && plan.output_bound < static_cast<double>(FLT_MAX) / 4) {
    for (size_t o = 0; o < got.size() && out.passed; ++o)
      for (int64_t i = 0; i < got[o].numel(); ++i)
        if (!std::isfinite(got[o][i])) {
          char buf[160];
          std::snprintf(buf, sizeof buf, "kernel %g where every input is finite and |%s| <= %.3g", static_cast<double>(got[o][i]),
                        sig.outputs[o].name.c_str(), plan.output_bound);
          out.passed = false;
          out.verdict = "non-finite";
          out.message = "output '" + sig.outputs[o].name + "' element " + index_str(sig.outputs[o].shape, i) + ": " + buf;
          ++out.mismatches;
          break;
        }
  }

  // The units: the budget shared among the kinds.
  Rng rng(seed ^ 0x5a5a5a5a5a5a5a5aull);
  struct Job {
    size_t kind;
    std::vector<int64_t> units;  // one, or up to kUnitsPerSlice where the kind cuts several at once
  };
  std::vector<Job> jobs;
  std::vector<int64_t> random_units(plan.kinds.size()), checked_units(plan.kinds.size());
  for (size_t k = 0; k < plan.kinds.size(); ++k) {
    const SliceKind& kind = plan.kinds[k];
    const int64_t count = random_units_of(plan, kind);
    const std::vector<int64_t> units = choose_units(kind.grid, count, rng);
    random_units[k] = std::min<int64_t>(count, static_cast<int64_t>(units.size()));
    checked_units[k] = static_cast<int64_t>(units.size());
    const size_t per = kind.cut_many ? kUnitsPerSlice : 1;
    auto apart = [&kind](int64_t u, int64_t v) { return kind.together > 0 && u / kind.together != v / kind.together; };
    for (int64_t u : units) {  // in order: neighbours of a group together
      if (jobs.empty() || jobs.back().kind != k || jobs.back().units.size() >= per || apart(jobs.back().units[0], u)) jobs.push_back({k, {}});
      jobs.back().units.push_back(u);
    }
  }

  // Slices are independent: they run on the host's cores (as many as their copies of the inputs fit).
  std::vector<UnitResult> results(jobs.size());
  double slice_bytes = 0;
  // Its inputs in double, its references and error models: a few times its tensors' bytes.
  for (const auto& kind : plan.kinds) slice_bytes = std::max(slice_bytes, 8.0 * kind.bytes * (kind.cut_many ? kUnitsPerSlice : 1));
  const double memory = available_bytes();
  size_t threads = std::max(1u, std::thread::hardware_concurrency());
  if (memory > 0) threads = std::min(threads, static_cast<size_t>(std::max(1.0, memory / 2 / std::max(slice_bytes, 1.0))));
  std::atomic<int64_t> done{0};
  int64_t units_total = 0;
  for (int64_t c : checked_units) units_total += c;
  std::mutex progress_mutex;
  parallel_for(
      static_cast<int64_t>(jobs.size()),
      [&](int64_t j) {  // the references and comparisons inside run serially (core/parallel.hpp)
        results[static_cast<size_t>(j)] = check_units(plan.kinds[jobs[j].kind], jobs[j].units, got, ints, policy, mode);
        const int64_t d = done += static_cast<int64_t>(jobs[j].units.size());
        if (progress) {
          std::lock_guard<std::mutex> lock(progress_mutex);
          progress(d, units_total);
        }
      },
      static_cast<int64_t>(threads));

  // In unit order, so the verdict and its message do not depend on the threads.
  int64_t zero_where_nonzero = 0, nonzero_refs = 0;
  for (size_t j = 0; j < jobs.size(); ++j) {
    const UnitResult& r = results[j];
    for (size_t c = 0; c < r.comparisons.size(); ++c) {
      const Comparison& cmp = r.comparisons[c];
      out.elements += cmp.elements;
      out.mismatches += cmp.mismatches;
      out.worst_ratio = std::max(out.worst_ratio, cmp.worst_ratio);
      out.max_error = std::max(out.max_error, cmp.max_error);
      zero_where_nonzero += cmp.zero_where_nonzero;
      nonzero_refs += cmp.nonzero_refs;
      if (cmp.mismatches > 0 && out.passed) {
        const auto& decl = sig.outputs[static_cast<size_t>(r.output[c])];
        const int64_t flat = r.at[c][static_cast<size_t>(cmp.first_index)];
        out.passed = false;
        out.verdict = verdict_of(cmp);
        out.message = "output '" + decl.name + "' element " + index_str(decl.shape, flat) + ": " + cmp.first_why + " (sampled unit " +
                      index_str(Shape(plan.kinds[jobs[j].kind].grid), r.unit[c]) + " of the " + plan.kinds[jobs[j].kind].unit + ")";
      }
    }
  }
  // More than half of the sampled outputs that should be nonzero are zero: as compare() judges a tensor.
  if (nonzero_refs >= 4 && zero_where_nonzero * 2 > nonzero_refs) {
    out.untrustworthy = true;
    if (out.passed) out.verdict = "untrustworthy";
    out.passed = false;
    out.message = std::to_string(zero_where_nonzero) + " of the " + std::to_string(nonzero_refs) +
                  " sampled elements where the reference is nonzero are zero: untrustworthy" + (out.message.empty() ? "" : "; " + out.message);
  }
  // What was checked, and what it catches.
  for (size_t k = 0; k < plan.kinds.size(); ++k) {
    const SliceKind& kind = plan.kinds[k];
    int64_t total = 1;
    for (int64_t g : kind.grid) total *= g;
    const int64_t checked = checked_units[k];
    char buf[64];
    out.summary += (k ? "; " : "") + std::to_string(checked) + " of " + std::to_string(total) + " " + kind.unit;
    out.summary += checked >= total ? " (all)"
                                    : std::string(" (a fault in ") + percent(buf, sizeof buf, fraction_caught(random_units[k])) +
                                          " of them is caught with probability 99%)";
  }
  out.summary = "sampled " + out.summary + ", " + std::to_string(out.elements) + " elements";
  return out;
}

}  // namespace plumbline
