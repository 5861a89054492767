#pragma once
// Adding an operator from another project, without touching plumbline's tree (docs/extending.md): one
// call registers every layer a check needs. Its kernels come as any user kernel does, through a plan
// file (plans::KernelSource{.plan_file = ...}: docs/kernel-abi.md).
#include <functional>

#include "check/error_models.hpp"
#include "check/generators.hpp"
#include "core/registry.hpp"
#include "reference/reference.hpp"

namespace plumbline {

struct OperatorExtension {
  OpSpec spec;                  // name, family, summary, attributes, and the signature function
  RefFn<double> reference;      // the reference, in double (as the defining formula: loops or Eigen)
  ErrorModelFn error_model;     // per output: how far a float evaluation may be (check/compare.hpp)
  ProblemGenFactory generator;  // random problems (check/generators/common.hpp has dim(), fit_budget())
};

// Registers every layer; call it before any check runs (e.g. at the start of main, or in a GoogleTest
// environment). Error naming the operator and the piece when one is missing or the name is taken.
void register_operator(OperatorExtension ext);

}  // namespace plumbline
