#pragma once
// One function per operator family; each appends its references. Adding an operator touches only its
// family's file.
#include <vector>

#include "reference/reference.hpp"

namespace plumbline {

void add_gemm_refs(std::vector<ReferenceOp>& ops);
void add_conv_refs(std::vector<ReferenceOp>& ops);
void add_norm_refs(std::vector<ReferenceOp>& ops);
void add_softmax_refs(std::vector<ReferenceOp>& ops);
void add_elementwise_refs(std::vector<ReferenceOp>& ops);
void add_pooling_refs(std::vector<ReferenceOp>& ops);
void add_reduction_refs(std::vector<ReferenceOp>& ops);

}  // namespace plumbline
