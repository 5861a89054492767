#include "check/stress.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>

#include "check/generators.hpp"
#include "check/launch_shape.hpp"
#include "check/sampling.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"

namespace plumbline {

namespace {

constexpr double kWaves = 4;
constexpr int64_t kLoopIterations = 32;
// A stress problem's tensors together: enough to fill a GPU with work-groups of a race-prone tiled
// kernel (a GEMM of 32x32 tiles four waves deep on 132 multiprocessors, 2048 x 1024 x 2048, is 32 MB),
// small enough that the host draws and checks it in about a second (GPU check --all runs one a variant).
constexpr double kStressBytes = 64.0 * 1024 * 1024;

// Whether the device and the check can take p: its tensors within kStressBytes and a quarter of the
// device's memory (each within half its largest allocation); its reference checked on a sample of
// the outputs where the operator can be sampled (the sample within a few times its budget), else in
// full within a second or so of the host.
bool fits(const Problem& p, const ocl::DeviceInfo& device) {
  const Signature sig = signature_of(p);
  if (sig.bytes() > std::min(kStressBytes, static_cast<double>(device.global_mem_bytes) / 4)) return false;
  for (const auto* list : {&sig.inputs, &sig.outputs})
    for (const auto& t : *list)
      if (bytes_of(sig.storage_of(t)) * static_cast<double>(t.shape.numel()) > static_cast<double>(device.max_alloc_bytes) / 2) return false;
  // A sampled check takes kMinSampledUnits units however large: a convolution whose 17 output planes
  // cost 8e10 FLOPs each kept conv2d's check on an H100 busy for minutes of host time. And a slice runs
  // on one thread: a single plane of 1.5e10 FLOPs took 38 s of an H200's host.
  if (!has_slicer(p.op())) return sig.flops <= 1e9;
  const SampledCost cost = sampled_check_cost(p);
  return sig.flops <= 1e13 && cost.flops <= 4 * kSampleBudget && cost.largest_slice_flops <= kStressSliceFlops;
}

}  // namespace

double waves(const plans::Variant& v, const Problem& p, const ocl::DeviceInfo& device) {
  double most = 0;
  for (const auto& st : v.steps) {
    if (!plans::step_applies(v, st, p)) continue;
    const plans::Dispatch d = plans::dispatch(v, st, p);
    double groups = 1, items = 1;
    for (size_t i = 0; i < d.global.size(); ++i) {
      const double local = i < d.local.size() ? static_cast<double>(d.local[i]) : (i == 0 ? 256.0 : 1.0);
      groups *= static_cast<double>(d.global[i]) / local;
      items *= local;
    }
    // Work-groups a compute unit can hold at once: as many as 2048 work-items allow (an upper bound:
    // local memory and registers often allow fewer, and then the device runs more waves, not fewer).
    const double resident = std::max(1.0, std::floor(2048.0 / items));
    most = std::max(most, groups / (std::max<double>(device.compute_units, 1) * resident));
  }
  return most;
}

std::vector<KernelCase> stress_cases(const std::vector<plans::Variant>& variants, const std::string& op, const ocl::DeviceInfo& device, uint64_t seed,
                                     std::vector<std::string>* notes) {
  std::lock_guard<std::recursive_mutex> drawing(generator_mutex());
  std::vector<KernelCase> out;
  for (size_t vi = 0; vi < variants.size(); ++vi) {
    const plans::Variant& v = variants[vi];
    const std::string dtype = plans::dtypes_of(v).front();
    auto in_dtype = [&dtype](const Problem& p) { return p.has("dtype") ? p.with("dtype", dtype) : p; };
    std::optional<Problem> p;
    for (int draw = 0; draw < 40 && !p; ++draw) {
      try {
        const Problem drawn =
            sample_problem(op, GenContext(kKernelCaseBudget, plans::tile_sizes(v)), seed + 7919 * draw + 104729 * vi, draw % 8, 32).value();
        if (const auto q = plans::steer(v, in_dtype(drawn)); q && fits(*q, device)) p = q;
      } catch (const Error&) {
      }
    }
    if (!p) continue;  // nothing drawn serves it: its random cases say so
    // The longest loop first (a problem cheaper per wave after it): its attribute doubled until 32
    // iterations (of the largest tile, where the plan declares tiles), or a limit.
    const std::vector<std::string> loops = loop_attributes(v, *p);
    const std::vector<int64_t> tiles = plans::tile_sizes(v);
    const int64_t target = kLoopIterations * (tiles.empty() ? 1 : tiles.back());
    // Among the loops, those that add work when doubled (a depth, a row's length; not a stride).
    std::string longest;
    for (const auto& name : loops) {
      try {
        const auto q = plans::steer(v, p->with(name, 2 * p->i(name)));
        if (!q || signature_of(*q).flops < 1.5 * signature_of(*p).flops) continue;
      } catch (const Error&) {
        continue;
      }
      if (longest.empty() || p->i(name) > p->i(longest)) longest = name;
    }
    while (!longest.empty() && p->i(longest) < target) {
      std::optional<Problem> q;
      try {
        q = plans::steer(v, p->with(longest, std::min(target, 2 * p->i(longest))));
      } catch (const Error&) {
      }
      if (!q || !fits(*q, device)) break;
      p = q;
    }
    // Waves: double the attribute the launch follows that adds most work-groups per byte, a batch (an
    // attribute that scales every tensor) last: more tiles of one matrix, not more small matrices.
    for (int round = 0; round < 40 && waves(v, *p, device) < kWaves; ++round) {
      std::optional<Problem> best;
      const double now = waves(v, *p, device), bytes = signature_of(*p).bytes();
      double best_gain = 0;
      bool best_batch = true;
      for (const auto& [name, value] : p->attrs()) {
        if (!std::holds_alternative<int64_t>(value) || std::find(loops.begin(), loops.end(), name) != loops.end()) continue;
        // Doubled until the launch grows (a dimension below one tile adds no work-group at first).
        for (int64_t factor = 2; factor <= 1024; factor *= 2) {
          try {
            const auto q = plans::steer(v, p->with(name, std::max<int64_t>(2, factor * std::get<int64_t>(value))));
            if (!q || !fits(*q, device)) break;
            if (waves(v, *q, device) <= now) continue;
            const double grown = signature_of(*q).bytes();
            const double gain = (waves(v, *q, device) - now) / std::max(1.0, grown - bytes);
            const bool batch = grown >= 0.99 * static_cast<double>(factor) * bytes;
            if (!best || (best_batch && !batch) || (batch == best_batch && gain > best_gain)) best = q, best_gain = gain, best_batch = batch;
          } catch (const Error&) {
          }
          break;
        }
      }
      if (!best) break;
      p = best;
    }
    const double w = waves(v, *p, device);
    if (notes && (w < kWaves || (!longest.empty() && p->i(longest) < target))) {
      std::string note = v.id() + ": its stress problem " + p->line();
      char buf[160];
      if (w < kWaves) {
        std::snprintf(buf, sizeof buf, " fills %.3g of the %.0f waves asked", w, kWaves);
        note += buf;
      }
      if (!longest.empty() && p->i(longest) < target)
        note += std::string(w < kWaves ? " and" : "") + " runs its loop over " + longest + " to " + std::to_string(p->i(longest)) + " of " +
                std::to_string(target);
      notes->push_back(note + ": no larger problem fits the device's memory, the check's budget and the variant's condition");
    }
    // Checked on a sample of its outputs where the operator can be sampled, however small.
    out.push_back({&v, shrinkable(*p), Values::Normal, seed + 1000003 + vi, std::nullopt, true});
  }
  return out;
}

}  // namespace plumbline
