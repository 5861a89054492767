#pragma once
// One function per operator family; each appends that family's operators to the registry.
// Adding an operator touches only its family's file.
#include <vector>

#include "core/registry.hpp"

namespace plumbline {

void add_gemm_ops(std::vector<OpSpec>& ops);
void add_conv_ops(std::vector<OpSpec>& ops);
void add_norm_ops(std::vector<OpSpec>& ops);
void add_softmax_ops(std::vector<OpSpec>& ops);
void add_elementwise_ops(std::vector<OpSpec>& ops);
void add_pooling_ops(std::vector<OpSpec>& ops);
void add_reduction_ops(std::vector<OpSpec>& ops);

// Attribute builders shared by the family files.
inline AttrSpec int_attr(const char* name, int64_t def, int64_t min, const char* doc) { return AttrSpec{name, AttrKind::Int, def, min, {}, doc}; }
inline AttrSpec flag_attr(const char* name, int64_t def, const char* doc) {
  return AttrSpec{name, AttrKind::Int, def, 0, {}, doc};  // 0 or 1, checked by require()
}
inline AttrSpec float_attr(const char* name, double def, const char* doc) { return AttrSpec{name, AttrKind::Float, def, 0, {}, doc}; }
inline AttrSpec enum_attr(const char* name, const char* def, std::vector<std::string> choices, const char* doc) {
  return AttrSpec{name, AttrKind::Enum, std::string(def), 0, std::move(choices), doc};
}

// The storage format of every tensor (core/dtype.hpp); left out of the canonical line at f32.
inline AttrSpec dtype_attr() {
  AttrSpec a{"dtype", AttrKind::Enum, std::string("f32"), 0, {"f32", "f16", "bf16"}, "storage format of every tensor (f32 accumulation)"};
  a.omit_default = true;
  return a;
}

inline std::vector<AttrSpec> with_dtype(std::vector<AttrSpec> attrs) {
  attrs.push_back(dtype_attr());
  return attrs;
}

// Rough FLOPs per element of one activation (forward), for throughput counters.
double activation_flops(const std::string& kind);

inline void require_flag(const Problem& p, const char* name) {
  require(p.i(name) == 0 || p.i(name) == 1, p, std::string("attribute '") + name + "' must be 0 or 1");
}

}  // namespace plumbline
