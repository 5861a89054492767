#include "reference/reference.hpp"

#include <algorithm>
#include <deque>

#include "core/error.hpp"
#include "core/registry.hpp"
#include "reference/families.hpp"

namespace plumbline {

const std::vector<ReferenceOp>& reference_ops() {
  static const std::vector<ReferenceOp> ops = [] {
    std::vector<ReferenceOp> v;
    add_gemm_refs(v);
    add_conv_refs(v);
    add_norm_refs(v);
    add_softmax_refs(v);
    add_elementwise_refs(v);
    add_pooling_refs(v);
    add_reduction_refs(v);
    return v;
  }();
  return ops;
}

namespace {

std::deque<ReferenceOp>& added_references() {
  static std::deque<ReferenceOp> added;
  return added;
}

}  // namespace

const ReferenceOp* find_reference(const std::string& op) {
  const auto& ops = reference_ops();
  auto it = std::find_if(ops.begin(), ops.end(), [&](const ReferenceOp& r) { return r.name == op; });
  if (it != ops.end()) return &*it;
  auto& added = added_references();
  auto a = std::find_if(added.begin(), added.end(), [&](const ReferenceOp& r) { return r.name == op; });
  return a == added.end() ? nullptr : &*a;
}

void add_reference(ReferenceOp op) {
  if (find_reference(op.name)) throw Error("operator '" + op.name + "' has a reference already");
  if (!op.f64) throw Error("the reference of '" + op.name + "' needs its double evaluation");
  if (!op.f32) {  // in float: the double evaluation, rounded
    op.f32 = [f = op.f64](const Problem& p, const std::vector<TensorF>& in) {
      std::vector<TensorD> d;
      for (const auto& t : in) d.push_back(t.convert<double>());
      std::vector<TensorF> out;
      for (const auto& t : f(p, d)) out.push_back(t.convert<float>());
      return out;
    };
  }
  added_references().push_back(std::move(op));
}

namespace {

template <class T>
std::vector<Tensor<T>> run(const Problem& p, const std::vector<Tensor<T>>& inputs, RefFn<T> ReferenceOp::*which) {
  const Signature sig = signature_of(p);
  if (inputs.size() != sig.inputs.size())
    throw Error(p.line() + ": expected " + std::to_string(sig.inputs.size()) + " inputs, got " + std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].shape != sig.inputs[i].shape)
      throw Error(p.line() + ": input '" + sig.inputs[i].name + "' must have shape " + sig.inputs[i].shape.str() + ", got " + inputs[i].shape.str());
  const ReferenceOp* ref = find_reference(p.op());
  if (!ref) throw Error("operator '" + p.op() + "' has no reference implementation");
  std::vector<Tensor<T>> out = (ref->*which)(p, inputs);
  if (out.size() != sig.outputs.size()) throw Error("reference of " + p.op() + " returned the wrong number of outputs");
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i].shape != sig.outputs[i].shape)
      throw Error("reference of " + p.op() + " returned output '" + sig.outputs[i].name + "' of shape " + out[i].shape.str() + ", expected " +
                  sig.outputs[i].shape.str());
  return out;
}

}  // namespace

std::vector<TensorD> run_reference(const Problem& p, const std::vector<TensorD>& inputs) { return run<double>(p, inputs, &ReferenceOp::f64); }
std::vector<TensorF> run_reference_f32(const Problem& p, const std::vector<TensorF>& inputs) { return run<float>(p, inputs, &ReferenceOp::f32); }

}  // namespace plumbline
