#pragma once
// Per-operator error models: for each output, the ErrorModel that check/compare.hpp applies. Each
// family's file derives its bounds (comments there); docs/verification.md summarizes them.
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "check/compare.hpp"
#include "core/numeric_mode.hpp"
#include "core/problem.hpp"
#include "reference/activation.hpp"

namespace plumbline {

// inputs: the values the kernel received (as double); ref: the reference outputs; integer_inputs:
// inputs are small integers (exact mode applies to linear operators).
using ErrorModelFn =
    std::function<std::vector<ErrorModel>(const Problem&, const std::vector<TensorD>& inputs, const std::vector<TensorD>& ref, bool integer_inputs)>;

// policy: which edge answers pass (check/compare.hpp), set on every model. mode: the arithmetic the
// kernel declares (core/numeric_mode.hpp): its bound replaces the default's; Error where it does not
// apply to the operator or fit the problem.
std::vector<ErrorModel> error_models(const Problem& p, const std::vector<TensorD>& inputs, const std::vector<TensorD>& ref, bool integer_inputs,
                                     NonfinitePolicy policy = NonfinitePolicy::Limits, const NumericMode& mode = {});
bool has_error_model(const std::string& op);
// The error model of an added operator (check/extend.hpp); Error when the operator has one already.
void add_error_model(const std::string& op, ErrorModelFn fn);

namespace models {

// Linear operators: mag = the reference on |inputs|; k per output; exact on integer inputs if allowed.
std::vector<ErrorModel> linear(const Problem& p, const std::vector<TensorD>& inputs, const std::vector<double>& k, bool exact, double ulps = 0);

// An infinite cotangent times act'(x) where the derivative is below float's smallest normal at a finite
// x (tanh'(1e38) = e^(-2e38): positive, but 0 in double and float alike): the true product is +-Inf,
// an evaluation gives Inf * 0 = NaN or, with a slope off by an ulp, Inf. Not judgeable either way. relu
// and none have exact derivatives (relu'(x < 0) = 0 makes Inf * 0 = NaN the right answer).
inline bool inf_times_vanishing_slope(Act a, double d_y, double x) {
  return std::isinf(d_y) && std::isfinite(x) && a != Act::Relu && a != Act::None && std::abs(act_derivative(a, x)) < 1.1754943508222875e-38;
}

// Where IEEE evaluation of act's formula at x departs from the reference (compare.hpp), recorded at
// element i of m's n: gelu and silu at -Inf are -Inf x 0 = NaN (their limit is -0); silu's exp(-x)
// overflows float below -88.72, where x / (1 + exp(-x)) is -0 (the true value reaches -2e-37). dx: how
// far a float evaluation's x may be off (error_models/elementwise.cpp).
void act_departure(ErrorModel& m, int64_t n, int64_t i, Act a, double x, double dx = 0);
// The same for act'(x) (act_bwd's d_x = d_y act'(x)): NaN at +-Inf for gelu and silu, and where
// gelu_tanh's derivative squares an x beyond 1.8e19.
void slope_departure(ErrorModel& m, int64_t n, int64_t i, Act a, double x);

// Averages (a sum of terms, then one division) whose float sum may overflow before the division,
// where the result does not: the classes IEEE evaluation may give there (an Inf of a sign whose terms
// reach the threshold, NaN where both signs, or an infinite term and the other sign, do), for an
// operator of one input x that averages (its reference is linear in x). divisor: each output's.
// `sum` names the sum in the messages ("the window's sum").
void overflowing_averages(ErrorModel& m, const Problem& p, const TensorD& x, const TensorD& divisor, double terms, const std::string& sum);

// Rounding of act(x) and of act'(x) in float, in units of u (error_models/elementwise.cpp).
double act_magnitude(Act a, double x);
double slope_magnitude(Act a, double x);

// conv2d computed as Winograd's F(m x m, 3 x 3) (m = 2 or 4): its model (error_models/conv.cpp).
std::vector<ErrorModel> winograd(const Problem& p, const std::vector<TensorD>& inputs, int m);

void add_elementwise(std::map<std::string, ErrorModelFn>& m);
void add_reductions(std::map<std::string, ErrorModelFn>& m);
void add_gemm(std::map<std::string, ErrorModelFn>& m);
void add_pooling(std::map<std::string, ErrorModelFn>& m);
void add_softmax(std::map<std::string, ErrorModelFn>& m);
void add_norms(std::map<std::string, ErrorModelFn>& m);
void add_conv(std::map<std::string, ErrorModelFn>& m);

}  // namespace models

}  // namespace plumbline
