#include "core/registry.hpp"

#include <algorithm>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/ops/families.hpp"

namespace plumbline {

double Signature::bytes() const {
  double b = 0;
  for (const auto& t : inputs) b += bytes_of(storage_of(t)) * static_cast<double>(t.shape.numel());
  for (const auto& t : outputs) b += bytes_of(storage_of(t)) * static_cast<double>(t.shape.numel());
  return b;
}

static const TensorDecl& find_decl(const std::vector<TensorDecl>& v, const std::string& name, const char* what) {
  for (const auto& t : v)
    if (t.name == name) return t;
  throw Error(std::string("no ") + what + " tensor named '" + name + "'");
}

const TensorDecl& Signature::input(const std::string& name) const { return find_decl(inputs, name, "input"); }
const TensorDecl& Signature::output(const std::string& name) const { return find_decl(outputs, name, "output"); }

Registry::Registry() {
  add_gemm_ops(ops_);
  add_conv_ops(ops_);
  add_norm_ops(ops_);
  add_softmax_ops(ops_);
  add_elementwise_ops(ops_);
  add_pooling_ops(ops_);
  add_reduction_ops(ops_);
}

Registry& Registry::instance() {
  static Registry registry;
  return registry;
}

const Registry& Registry::get() { return instance(); }

void Registry::add(OpSpec spec) {
  Registry& r = instance();
  if (spec.name.empty() || !spec.signature) throw Error("an added operator needs a name and a signature function");
  if (r.find_or_null(spec.name)) throw Error("operator '" + spec.name + "' exists already");
  r.added_.push_back(std::move(spec));
}

const OpSpec* Registry::find_or_null(const std::string& name) const {
  auto it = std::find_if(ops_.begin(), ops_.end(), [&](const OpSpec& s) { return s.name == name; });
  if (it != ops_.end()) return &*it;
  auto added = std::find_if(added_.begin(), added_.end(), [&](const OpSpec& s) { return s.name == name; });
  return added == added_.end() ? nullptr : &*added;
}

const OpSpec& Registry::find(const std::string& name) const {
  if (const OpSpec* s = find_or_null(name)) return *s;
  std::string known;
  for (const auto& s : names()) known += (known.empty() ? "" : " ") + s;
  throw Error("unknown operator '" + name + "'; known operators: " + known);
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> v;
  for (const auto& s : ops_) v.push_back(s.name);
  for (const auto& s : added_) v.push_back(s.name);
  return v;
}

bool Registry::is_builtin(const std::string& name) const {
  return std::any_of(ops_.begin(), ops_.end(), [&](const OpSpec& s) { return s.name == name; });
}

Signature signature_of(const Problem& p) {
  Signature s = Registry::get().find(p.op()).signature(p);
  s.dtype = dtype_of(p);
  return s;
}

void require(bool cond, const Problem& p, const std::string& message) {
  if (!cond) throw Error(p.line() + ": " + message);
}

}  // namespace plumbline
