#pragma once
// The rule checker: proves each rewrite rule on random problems. Per rule it samples dimensions
// and attribute values that satisfy the rule's conditions (small values, every combination when few,
// then random medium ones; every choice of an enum attribute variable), draws tensors for its
// variables (small integers when the rule is exact, uniform, normal with large magnitudes, and an
// edge-value pass with +-0, subnormals, +-Inf, NaN unless the rule assumes otherwise), evaluates both
// sides with the reference interpreter (and, when given, on a device), and compares them by the
// rule's numerics tag (egraph/equivalence.hpp). A failure is shrunk to the smallest dimensions and
// attributes that still fail and printed with everything needed to see it again.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "egraph/interpret.hpp"
#include "egraph/rules.hpp"

namespace plumbline::egraph {

// Another evaluator of both sides (the OpenCL kernels): returns "" when both sides evaluate
// correctly there (each node within its own error bound) and, for an exact rule on integer inputs,
// give equal outputs bit for bit; otherwise what went wrong.
class SideEvaluator {
 public:
  virtual ~SideEvaluator() = default;
  virtual std::string name() const = 0;
  virtual std::string check(const graph::Graph& lhs, const graph::Graph& rhs, const graph::Bindings<float>& inputs, bool bitwise) = 0;
};

struct RuleCheckOptions {
  int instances = 40;  // problems per rule
  uint64_t seed = 1;
  int64_t max_dim = 12;             // medium dimensions are drawn from [1, max_dim]
  std::optional<std::string> at;    // check only this instance: "m=2 k=3 ?act=relu"
  std::optional<Values> values;     // only this value distribution
  SideEvaluator* device = nullptr;  // also evaluate on a device
  int device_instances = 8;         // of the instances, how many also run on the device
};

struct RuleInstance {
  Binding binding;
  graph::Graph lhs, rhs;  // each with inputs named after the rule's variables and one output "y"
  std::string rhs_error;  // the right side does not build for this valid left side: the rule is wrong
};

struct RuleVerdict {
  std::string rule;
  bool passed = true;
  int instances = 0, evaluations = 0, device_evaluations = 0, rejected = 0;
  double worst_ratio = 0;
  std::string covered;         // attribute values covered: "?act: none relu ..."
  std::string message;         // failure: what differs
  std::string counterexample;  // failure: the shrunk instance with its inputs and outputs
  std::string repro;           // failure: the command that shows it again
};

RuleVerdict check_rule(const Rule& rule, const RuleCheckOptions& options = {}, const std::string& rules_file = "");

// Both sides under a binding. nullopt (with *why) when the binding breaks a condition or the left
// side does not build; a right side that does not build for a valid left side is kept in rhs_error.
std::optional<RuleInstance> instantiate_rule(const Rule& rule, const Binding& b, std::string* why = nullptr);

// The problems check_rule draws (dimensions, shapes and attributes satisfying the conditions, with a
// left side that builds); counts the draws rejected and lists the attribute values covered.
std::vector<RuleInstance> sample_instances(const Rule& rule, const RuleCheckOptions& options, int* rejected = nullptr,
                                           std::string* covered = nullptr);

// "m=2 k=3 ?act=relu" for this rule (Error naming an unknown or missing symbol).
Binding parse_binding(const Rule& rule, const std::string& text);

}  // namespace plumbline::egraph
