#pragma once
// Reference implementations: the mathematical definitions of DESIGN.md, templated on the scalar and
// evaluated in double for verification. Inputs and outputs follow the order of the operator's
// signature (core/ops/*.cpp); docs/operators.md documents each formula.
#include <functional>
#include <string>
#include <vector>

#include "core/problem.hpp"
#include "core/tensor.hpp"

namespace plumbline {

template <class T>
using RefFn = std::function<std::vector<Tensor<T>>(const Problem&, const std::vector<Tensor<T>>&)>;

struct ReferenceOp {
  std::string name;
  RefFn<double> f64;
  RefFn<float> f32;
};

const std::vector<ReferenceOp>& reference_ops();  // the built-in operators
const ReferenceOp* find_reference(const std::string& op);
// The reference of an added operator (check/extend.hpp); Error when the operator has one already.
void add_reference(ReferenceOp op);

// Runs the reference of p.op() after checking that the inputs match the signature's count and shapes.
std::vector<TensorD> run_reference(const Problem& p, const std::vector<TensorD>& inputs);
std::vector<TensorF> run_reference_f32(const Problem& p, const std::vector<TensorF>& inputs);

}  // namespace plumbline
