#pragma once
// Sampled verification of problems too large for the full double reference (an 8192^3 matmul costs
// 1.1e12 FLOPs in double on the host). A sample of output elements is checked exactly as the full
// check would check them: each sampled unit (one element of a GEMM, one output plane of a convolution,
// one row of d_a, ...) is cut out of the large problem as a small problem of the same operator whose
// reference sums the same terms with the same reduction length, so the same reference and the same
// error model judge it. Units are drawn uniformly without replacement, plus every corner of the unit
// grid (first and last along each dimension: where edge tiles live).
//
// What it can miss: a fault that makes a fraction f of a kind's units wrong escapes S random units with
// probability (1 - f)^S; the summary states the f caught with 99% probability. Whole-tensor checks stay
// complete: poison (unwritten outputs), guards (out-of-bounds writes), inputs unmodified (KernelChecker),
// and here: no NaN or Inf where every input is finite and a bound on the outputs' size lies far inside
// float's range.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "check/compare.hpp"
#include "core/numeric_mode.hpp"
#include "core/problem.hpp"
#include "core/random.hpp"
#include "core/tensor.hpp"

namespace plumbline {

// A small problem whose reference computes some elements of a large problem's outputs.
struct Slice {
  Problem problem;
  std::vector<TensorD> inputs;
  // Per output of the small problem: for each of its elements, the flat index of the same element in the
  // large problem's output of the same position; empty: not compared (a partial sum of the large one's).
  std::vector<std::vector<int64_t>> at;
};

// One kind of unit a problem is sampled by ("elements of y", "rows of d_a").
struct SliceKind {
  std::string unit;           // plural
  std::vector<int64_t> grid;  // the units form this grid; unit u is its row-major flat index
  double flops = 0;           // reference cost of one unit's slice (FLOPs of its problem)
  double bytes = 0;           // the slice problem's tensors (the memory its check takes scales with it)
  std::function<Slice(int64_t unit)> cut;
  // Where units share a costly part of their slice (every row of d_a needs all of B), a slice of several
  // units at once (rows gathered into one problem's m), and the unit an element of the large problem's
  // output `output` (at flat index `flat`) belongs to, which names a mismatch. Empty: a unit a slice.
  std::function<Slice(const std::vector<int64_t>& units)> cut_many;
  std::function<int64_t(size_t output, int64_t flat)> unit_of;
  int64_t together = 0;  // > 0: units u and v share a slice only where u / together == v / together
};

// How a problem is sampled: its kinds of units, and a bound on |every output| when all inputs are
// finite (from the inputs' largest magnitudes; Inf when none is known).
struct SlicePlan {
  std::vector<SliceKind> kinds;
  double output_bound = INFINITY;
};

// Cuts slices out of a problem's inputs (the kernel's float inputs; the slices convert to double).
using Slicer = std::function<SlicePlan(const Problem&, const std::vector<TensorF>& inputs)>;
bool has_slicer(const std::string& op);
SlicePlan slice_plan(const Problem& p, const std::vector<TensorF>& inputs);
// What a sampled check of p costs on the host in reference FLOPs: in all, at least (each kind's units as
// the sampler picks them, kMinSampledUnits of them however costly: a convolution's unit is a whole
// plane), and its costliest slice, which one thread does alone.
struct SampledCost {
  double flops = 0, largest_slice_flops = 0;
};
SampledCost sampled_check_cost(const Problem& p);

namespace slicers {
void add_gemm(std::map<std::string, Slicer>& m);
void add_conv(std::map<std::string, Slicer>& m);
double largest_magnitude(const TensorF& t);  // max |x| over a tensor (0 when empty)
}  // namespace slicers

// The sampling budget: the FLOPs of all slices' references together (a few seconds on the host's
// cores), and the fewest random units per kind, whatever they cost.
inline constexpr double kSampleBudget = 4e9;
inline constexpr int64_t kMinSampledUnits = 16;
inline constexpr int64_t kMaxSampledUnits = 4096;

struct SampledCheck {
  bool passed = true;
  bool untrustworthy = false;
  std::string verdict = "pass";  // pass, wrong, non-finite, untrustworthy, or a rule's (verdict_of in check/compare.hpp)
  std::string message;           // the first problem, naming the large problem's element
  double worst_ratio = 0, max_error = 0;
  int64_t elements = 0, mismatches = 0;
  std::string summary;  // what was sampled and what it catches
};

// Checks the kernel's outputs `got` of p (inputs `in`) on a sample of units. integer_inputs: exact mode
// where the error model allows it. progress(done, total) is called as slices finish. policy: which
// edge answers pass (check/compare.hpp); mode: the arithmetic the kernel declares (a conv2d slice is a
// whole output plane, so a Winograd mode's tiles line up with the kernel's).
SampledCheck check_sampled(const Problem& p, const std::vector<TensorF>& in, const std::vector<TensorF>& got, bool integer_inputs, uint64_t seed,
                           const std::function<void(int64_t, int64_t)>& progress = {}, NonfinitePolicy policy = NonfinitePolicy::Limits,
                           const NumericMode& mode = {});

// The fraction of units a sample of `s` random units catches with probability 99%.
double fraction_caught(int64_t s);

}  // namespace plumbline
