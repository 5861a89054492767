#include "check/sanitizer.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <unistd.h>

#include "check/generators.hpp"
#include "check/launch_shape.hpp"
#include "core/registry.hpp"
#include "plans/library.hpp"

namespace plumbline {

namespace fs = std::filesystem;

namespace {

// The text of a source line that a report names: `name` as the program's `#line` directives gave it
// (the variant's file or a header beside it or among our kernels; Oclgrind keeps the base name).
std::string source_line(const plans::Variant& v, const std::string& name, int line) {
  const fs::path file = fs::path(v.file).is_absolute() || v.file.rfind("./", 0) == 0 || v.file.rfind("../", 0) == 0
                            ? fs::path(v.file)
                            : fs::path(plans::kernel_dir()) / v.file;
  for (const fs::path& candidate :
       {fs::path(name), file.parent_path() / fs::path(name).filename(), fs::path(plans::kernel_dir()) / fs::path(name).filename()}) {
    if (!candidate.has_filename() || !fs::is_regular_file(candidate)) continue;
    std::ifstream f(candidate);
    std::string text;
    for (int i = 0; i < line && std::getline(f, text); ++i) {
    }
    if (!f) continue;
    const size_t a = text.find_first_not_of(" \t"), b = text.find_last_not_of(" \t\r");
    text = a == std::string::npos ? "" : text.substr(a, b - a + 1);
    return text.size() > 90 ? text.substr(0, 87) + "..." : text;
  }
  return "";
}

// "576 races, 3 reads of uninitialized values"
std::string tally(const std::vector<ocl::SanitizerReport>& reports) {
  static const std::map<std::string, std::string> kinds = {{"race", " races"},
                                                           {"uninitialized", " uses of uninitialized values"},
                                                           {"barrier-divergence", " divergent barriers"},
                                                           {"out-of-bounds", " accesses out of bounds"},
                                                           {"sanitizer", " other reports"}};
  std::map<std::string, int> n;
  for (const auto& r : reports) ++n[r.verdict];
  std::string out;
  for (const auto& [verdict, count] : n) out += (out.empty() ? "" : ", ") + std::to_string(count) + kinds.at(verdict);
  return out;
}

}  // namespace

SanitizerVerdict judge_sanitizer_reports(ocl::Runtime& rt, const plans::Variant& v, const ocl::Buffers& buffers) {
  SanitizerVerdict out;
  const std::vector<ocl::SanitizerReport> reports = rt.sanitizer_reports();
  for (const auto& r : reports)
    if (r.verdict == "cannot-run") throw ocl::SimulatorCannotRun("Oclgrind cannot run " + v.id() + ": " + r.headline);
  // A global-memory race in a step with hand-offs: set aside where its address lies in a buffer that
  // step hands over. The buffers' addresses are asked of the simulator only then.
  std::map<std::string, std::pair<uint64_t, uint64_t>> extent;  // buffer -> [first, last) address
  auto address_range = [&](const std::string& name) {
    auto it = extent.find(name);
    if (it != extent.end()) return it->second;
    const ocl::GuardedBuffer* b = nullptr;
    if (auto t = buffers.tensors.find(name); t != buffers.tensors.end()) b = t->second;
    for (size_t i = 0; i < v.scratch.size() && i < buffers.scratch.size(); ++i)
      if (v.scratch[i].name == name) b = buffers.scratch[i];
    std::pair<uint64_t, uint64_t> range{0, 0};
    if (b) {
      const uint64_t first = rt.simulated_address(b->cl());
      range = {first, first + static_cast<uint64_t>(b->size()) * static_cast<uint64_t>(bytes_of(b->dtype()))};
    }
    return extent[name] = range;
  };
  std::vector<ocl::SanitizerReport> judged;
  std::map<std::string, int> set_aside;  // "N races on BUFFER in ENTRY (WHERE: WHY)" counts
  for (const auto& r : reports) {
    // A hand-off is between work-groups: a race within one is judged whatever the plan says.
    const bool between_groups = r.sites.size() == 2 && !r.sites[0].group.empty() && r.sites[0].group != r.sites[1].group;
    const plans::Handoff* covering = nullptr;
    if (r.verdict == "race" && r.memory == "global" && between_groups)
      for (const auto& st : v.steps)
        if (st.entry == r.kernel)
          for (const auto& h : st.handoffs) {
            const auto [first, last] = address_range(h.buffer);
            if (r.address >= first && r.address < last) covering = &h;
          }
    if (!covering) {
      judged.push_back(r);
      continue;
    }
    ++set_aside["on '" + covering->buffer + "' in " + r.kernel + ", declared a hand-off (" + covering->where.str() + ": " + covering->reason + ")"];
  }
  if (!extent.empty()) rt.sanitizer_reports();  // the address probes' own launches say nothing of the kernel
  for (const auto& [what, count] : set_aside)
    out.exempted += (out.exempted.empty() ? "" : "; ") + std::to_string(count) + " global-memory race" + (count == 1 ? " " : "s ") + what;
  if (judged.empty()) return out;
  out.verdict = judged.front().verdict;
  out.message = "Oclgrind: " + ocl::describe(judged.front(), [&](const std::string& name, int line) { return source_line(v, name, line); });
  if (judged.size() > 1) out.message += " (" + std::to_string(judged.size()) + " reports: " + tally(judged) + ")";
  return out;
}

namespace {

// What a simulator spends on p's launch, roughly, in units of about a microsecond of Oclgrind's time
// (measured: a GEMM, a group norm's planes, a convolution's implicit GEMM): a thousand a work-item
// (a row of 2048 mostly idle work-items is not free), one a FLOP.
double simulated_cost(const plans::Variant& v, const Problem& p) { return 1000 * work_items(v, p) + signature_of(p).flops; }

// p with each integer attribute that the launch's sizes do not follow (a loop's length inside the
// kernels: a GEMM's depth, a row's length) grown past the variant's largest tile size where the cost
// allows, else past the largest that fits: the loops over it then cross a tile's boundary, and a race
// between one tile's iterations and the next can show.
Problem grown_loops(const plans::Variant& v, Problem p) {
  // The longest loop only (growing every one multiplies the work: a convolution's taps and channels),
  // past a tile of at most 64 (a GEMM's depth slab is 8 to 32 wide; a work-group's 256 is no loop's).
  std::string longest;
  for (const std::string& name : loop_attributes(v, p))
    if (longest.empty() || p.i(name) > p.i(longest)) longest = name;
  if (longest.empty()) return p;
  const std::vector<int64_t> tiles = plans::tile_sizes(v);
  for (auto t = tiles.rbegin(); t != tiles.rend() && *t + 1 > p.i(longest); ++t) {
    if (*t > 64) continue;
    try {
      const std::optional<Problem> q = plans::steer(v, p.with(longest, *t + 1));
      if (q && crossing_of(v, *q).crossed >= crossing_of(v, p).crossed && simulated_cost(v, *q) <= kSanitizerCaseCost) return *q;
    } catch (const Error&) {
    }
  }
  return p;
}

}  // namespace

std::vector<KernelCase> sanitizer_cases(const std::vector<plans::Variant>& variants, const std::string& op, uint64_t seed,
                                        std::vector<std::string>* notes) {
  constexpr int kDraws = 48;
  std::lock_guard<std::recursive_mutex> drawing(generator_mutex());
  std::vector<KernelCase> crossing, small;
  for (size_t vi = 0; vi < variants.size(); ++vi) {
    const plans::Variant& v = variants[vi];
    const GenContext ctx(kSanitizerBudget, plans::tile_sizes(v));
    // One storage format a variant, in turn over the variants: their indexing is the same in each.
    const std::vector<std::string> dtypes = plans::dtypes_of(v);
    const std::string dtype = dtypes[vi % dtypes.size()];
    auto in_dtype = [&dtype](const Problem& p) { return p.has("dtype") ? p.with("dtype", dtype) : p; };
    // The problem that crosses the most dimensions within kSanitizerCaseCost, the cheapest of those,
    // drawn (from the small end of the generator's sizes) or grown from a draw; and the cheapest of all.
    std::optional<Problem> best, cheapest;
    double best_cost = 0, cheapest_cost = 0;
    int best_crossed = -1;
    for (int draw = 0; draw < kDraws; ++draw) {
      const Problem drawn = sample_problem(op, ctx, seed + 7919 * static_cast<uint64_t>(draw) + 104729 * vi, draw / 4, kDraws).value();
      const std::optional<Problem> q = plans::steer(v, in_dtype(drawn));
      if (!q) continue;
      try {
        const double plain = simulated_cost(v, *q);
        if (!cheapest || plain < cheapest_cost) cheapest = q, cheapest_cost = plain;
        const auto cost_of = [&](const Problem& g) { return simulated_cost(v, g); };
        for (std::optional<Problem> candidate : {q, crossing_of(v, *q).all() ? std::nullopt : grown_to_cross(v, *q, cost_of)}) {
          if (!candidate) continue;
          candidate = grown_loops(v, *candidate);
          const double cost = simulated_cost(v, *candidate);
          const int crossed = crossing_of(v, *candidate).crossed;
          if (cost > kSanitizerCaseCost && best) continue;
          if (best && (crossed < best_crossed || (crossed == best_crossed && cost >= best_cost)) &&
              !(best_cost > kSanitizerCaseCost && cost < best_cost))
            continue;
          best = candidate, best_cost = cost, best_crossed = crossed;
        }
      } catch (const Error&) {
        continue;  // a launch the plan refuses for this problem
      }
    }
    if (!best)
      throw Error("variant " + v.id() + " (" + v.where.str() + "): no problem drawn for " + op + " meets its condition '" + v.when.text() + "'");
    if (const Crossing c = crossing_of(v, *best); !c.all() && notes)
      notes->push_back(v.id() + ": within the sanitizer's budget, " + std::to_string(c.crossed) + " of the " + std::to_string(c.dims) +
                       " growing dimensions of its launch have two work-groups; not " + c.where);
    crossing.push_back({&v, shrinkable(*best), values_for_case(static_cast<int>(vi)), seed + vi, false});
    small.push_back({&v, shrinkable(*cheapest), values_for_case(static_cast<int>(vi + 1)), seed + vi, true});
  }
  // The crossing problems first, then the small ones: one switch of the simulator's detectors.
  for (auto& c : small) crossing.push_back(std::move(c));
  return crossing;
}

namespace {

std::string verdict_path(const std::string& key) {
  const std::string dir = ocl::cache_dir();
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(ocl::fnv1a(key)));
  return dir.empty() || key.empty() ? "" : dir + "/sanitizer/" + hex;
}

}  // namespace

std::string sanitizer_verdict_key(ocl::Runtime& rt, const plans::Variant& v, const Problem& p, Values values, uint64_t seed) {
  std::ostringstream d;
  d << "plumbline sanitizer verdict v1\n"
    << p.line() << "\n"
    << to_string(values) << " " << seed << "\n"
    << (rt.detecting_uninitialized() ? "uninitialized on" : "uninitialized off") << "\n"
    << v.id() << " " << v.nondeterministic << " " << v.nonfinite << " " << v.math << "\n";
  const DType dtype = signature_of(p).dtype;
  d << std::hex << rt.program_identity(v.file, ocl::program_options(v, dtype), v.prelude) << std::dec << "\n";
  for (const auto& l : v.lets) d << "let " << l.name << " = " << l.value.text() << "\n";
  for (const auto& sc : v.scratch) d << "scratch " << sc.name << " " << sc.floats.text() << " " << sc.counters << sc.stored << "\n";
  for (const auto& st : v.steps) {
    d << "step " << st.entry << " when " << st.when.text() << "\n";
    for (const auto& a : st.args) d << " arg " << static_cast<int>(a.kind) << " " << a.name << " " << a.text << "\n";
    for (const auto& e : st.global) d << " global " << e.text() << "\n";
    for (const auto& e : st.local) d << " local " << e.text() << "\n";
    for (const auto& h : st.handoffs) d << " handoff " << h.buffer << "\n";
    if (!st.defines.empty()) d << std::hex << rt.program_identity(v.file, ocl::program_options(v.for_step(st), dtype), v.prelude) << std::dec << "\n";
  }
  return d.str();
}

std::optional<CleanVerdict> cached_clean_verdict(const std::string& key) {
  const std::string path = verdict_path(key);
  if (path.empty()) return std::nullopt;
  std::ifstream f(path);
  std::string first;
  CleanVerdict v;
  if (!f || !std::getline(f, first) || first != "clean" || !std::getline(f, v.exempted) || !(f >> v.worst_ratio >> v.max_error >> v.seconds))
    return std::nullopt;
  std::string rest((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (rest != "\n" + key) return std::nullopt;  // another case's key under the same hash: not trusted
  return v;
}

void store_clean_verdict(const std::string& key, const CleanVerdict& verdict) {
  const std::string path = verdict_path(key);
  if (path.empty()) return;
  try {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    const std::string tmp = path + ".tmp" + std::to_string(::getpid());
    {
      std::ofstream f(tmp);
      f.precision(17);
      f << "clean\n" << verdict.exempted << "\n" << verdict.worst_ratio << " " << verdict.max_error << " " << verdict.seconds << "\n" << key;
    }
    std::filesystem::rename(tmp, path);  // atomic: a concurrent reader sees no half-written verdict
  } catch (const std::exception&) {
    // A cache that cannot be written costs a simulation next time, nothing else.
  }
}

}  // namespace plumbline
