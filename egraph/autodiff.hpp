#pragma once
// Reverse-mode automatic differentiation on the graph IR: appends the backward of a scalar loss to
// the graph, built from the operators' gradients (egraph/ops/<family>.cpp: the registry's backward
// operators), and a finite-difference check of the result on the reference interpreter.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "egraph/interpret.hpp"

namespace plumbline::graph {

// Adds the gradient of output `loss` (a scalar) with respect to each input named in `wrt`, as graph
// outputs named "d_<input>". Error when an operator on the way has no gradient.
std::map<std::string, int> add_backward(Graph& g, const std::string& loss, const std::vector<std::string>& wrt);

struct GradientCheck {
  bool passed = true;
  int64_t checks = 0;
  double worst_ratio = 0;  // |analytic - numeric| / allowed, worst over all elements
  std::string where;       // the worst element, e.g. "d_w1[5]: analytic 0.12, numeric 0.13"
};

// Central differences of output `loss` at two steps (Richardson), for every element of every input
// in `wrt`, against the graph's "d_<input>" outputs; allowed: rtol * |numeric| + atol * max |numeric|
// over all the tensors + the finite-difference error estimate (the two steps' difference, and the loss's
// rounding (64 ulps of it, from the forward's sums) over the step).
GradientCheck check_gradients(const Graph& g, const std::string& loss, const std::vector<std::string>& wrt, const Bindings<double>& at,
                              double rtol = 1e-6, double atol = 1e-8);

}  // namespace plumbline::graph
