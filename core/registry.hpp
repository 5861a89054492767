#pragma once
// The operator registry: the one list of operators. Each operator declares its attributes and a
// signature function that infers every tensor's shape from a problem and rejects impossible problems.
// The other layers (reference, kernels, generators) register under the same names; a test walks this
// registry and fails when any layer lacks an operator.
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/problem.hpp"
#include "core/shape.hpp"

namespace plumbline {

enum class AttrKind { Int, Float, Enum };

struct AttrSpec {
  std::string name;
  AttrKind kind = AttrKind::Int;
  AttrValue def = int64_t{0};
  int64_t min = 0;                   // Int: smallest value allowed
  std::vector<std::string> choices;  // Enum: the values allowed
  std::string doc;
  bool omit_default = false;  // the canonical line leaves it out at its default (dtype=f32)
};

// What values a tensor may hold. Only Real tensors are differentiable.
enum class Domain {
  Real,             // any float
  ClassIndex,       // integers in [0, classes): class labels stored as floats
  Distribution,     // non-negative rows that sum to 1 (soft labels, softmax outputs)
  LogDistribution,  // the logarithms of such rows (log_softmax outputs; log 0 = -Inf)
  Logits,           // any float; edge tensors also get masked rows: a run of -Inf, the rest finite
};

struct TensorDecl {
  std::string name;
  Shape shape;
  Domain domain = Domain::Real;
  int64_t classes = 0;  // ClassIndex only
};

struct Signature {
  std::vector<TensorDecl> inputs;
  std::vector<TensorDecl> outputs;
  double flops = 0;  // floating-point operations of one evaluation, multiply and add counted apart

  DType dtype = DType::F32;  // the problem's storage format (core/dtype.hpp); signature_of sets it
  // The format tensor t is stored in: the problem's, except class indices, which stay float32 in
  // every format (indices up to 50257 are not f16 values, and bf16 holds integers only up to 256).
  DType storage_of(const TensorDecl& t) const { return t.domain == Domain::ClassIndex ? DType::F32 : dtype; }
  // Exact mode in f16/bf16 draws some integers at the format's precision edge, so that outputs fall
  // exactly halfway between two values of the format and the kernel's rounding rule is judged (round
  // half up is off by half an ulp: inside every bound). For operators whose outputs each round one sum
  // or product of two inputs (add, mul, bias_add); longer sums of such values would leave f16's range.
  bool exact_ties = false;
  double bytes() const;  // bytes read and written, each tensor once
  const TensorDecl& input(const std::string& name) const;
  const TensorDecl& output(const std::string& name) const;
};

struct OpSpec {
  std::string name;
  std::string family;   // gemm, conv, norms, softmax, elementwise, pooling, reductions
  std::string summary;  // one line for `plumbline ops` and docs
  std::string forward;  // for a backward operator: the forward it differentiates ("" otherwise)
  std::vector<AttrSpec> attrs;
  std::function<Signature(const Problem&)> signature;  // throws Error naming the problem
};

class Registry {
 public:
  static const Registry& get();
  const OpSpec& find(const std::string& name) const;  // Error listing the known names if absent
  const OpSpec* find_or_null(const std::string& name) const;
  const std::vector<OpSpec>& all() const { return ops_; }  // the built-in operators
  std::vector<std::string> names() const;                  // built-in and added ones
  bool is_builtin(const std::string& name) const;          // plumbline's own (the CLI knows it), not added
  // An operator of another project (check/extend.hpp registers every layer of it): before any check
  // runs; Error when the name is taken. Added operators stay where they are (find's references hold).
  static void add(OpSpec spec);

 private:
  Registry();
  std::vector<OpSpec> ops_;
  std::deque<OpSpec> added_;
  static Registry& instance();
};

Signature signature_of(const Problem& p);

// Throws Error("<problem line>: <message>") when cond is false. For signature functions.
void require(bool cond, const Problem& p, const std::string& message);

// The activation kinds shared by gemm_bias_act and act.
inline const std::vector<std::string>& activation_kinds() {
  static const std::vector<std::string> kinds{"none", "relu", "gelu_tanh", "gelu_erf", "silu", "sigmoid", "tanh"};
  return kinds;
}

// Name of the gradient of tensor `name` (the convention every backward operator follows).
inline std::string grad_name(const std::string& name) { return "d_" + name; }

}  // namespace plumbline
