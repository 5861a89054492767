#pragma once
// Finite-difference gradient checker. The function differentiated is the reference forward in double;
// what is checked is a backward operator (by default the reference backward; any other implementation
// can be passed in). Two modes:
//   full: the whole Jacobian, column by column from central differences, against the analytic Jacobian
//         built row by row from the backward with one-hot cotangents (small problems);
//   fast: random projections v^T J u (PyTorch's fast gradcheck), one per direction and per
//         differentiated input, whose cost does not grow with the tensor size beyond a few evaluations.
// Every numeric derivative is taken at two step sizes h and h/2; their difference estimates the
// finite-difference error, which is reported beside each mismatch and allowed for in the comparison.
// At a kink (relu at 0, max_pool ties) within the step the analytic value must match a one-sided
// derivative instead, or the difference again with a step inside the kink.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/problem.hpp"
#include "core/tensor.hpp"

namespace plumbline {

using BackwardFn = std::function<std::vector<TensorD>(const Problem&, const std::vector<TensorD>&)>;

struct GradcheckOptions {
  enum class Mode { Auto, Full, Fast };
  Mode mode = Mode::Auto;
  double full_budget = 2e8;  // Auto picks full while (4 * inputs + outputs) * flops stays under this
  int projections = 3;       // fast mode: random (u, v) pairs per differentiated input
  double rtol = 1e-6;        // relative to the numeric derivative
  double atol = 1e-8;        // relative to the largest numeric derivative of the same tensor
  BackwardFn backward;       // empty: the reference backward
  // For a backward evaluated in float (a kernel): the absolute error bound of each of its outputs
  // at these inputs (check/error_models), added to the allowance: its own rounding is not a wrong
  // derivative. Empty: exact double evaluation.
  std::function<std::vector<TensorD>(const Problem&, const std::vector<TensorD>& inputs)> backward_error;
  // The point to differentiate at, the forward's inputs in order; empty: gradcheck_inputs(forward, seed).
  std::vector<TensorD> inputs;
};

struct GradcheckResult {
  bool passed = true;
  std::string mode;        // "full" or "fast"
  int64_t checks = 0;      // derivatives (full) or projections (fast) compared
  int64_t kinks = 0;       // checks at a kink within the step, matched one-sided or with a step inside it
  double worst_ratio = 0;  // max over checks of |analytic - numeric| / allowed; passes when <= 1
  // The worst check:
  std::string where;  // e.g. "d_w[3]  (w index 3, output y[17])" or "d_gamma . u (projection 2)"
  double analytic = 0, numeric = 0, fd_error = 0;
  std::string summary() const;
};

// Checks the backward operator `bwd` (its spec's `forward` names the function differentiated).
GradcheckResult gradcheck(const Problem& bwd, uint64_t seed, const GradcheckOptions& options = {});

// The inputs a gradient check evaluates at: distinct values off a grid, at least 2/numel apart and
// 1/numel from 0, so that no point sits on a kink (relu at 0, ties in max_pool) and a step seldom
// crosses one; class indices and soft labels follow their domains.
std::vector<TensorD> gradcheck_inputs(const Problem& forward, uint64_t seed);

}  // namespace plumbline
