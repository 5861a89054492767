#pragma once
// The CPU peer: the same problem through Eigen (float, multi-threaded with OpenMP where Eigen uses
// it), for the ratio ours/peer in the same run. GEMMs are Eigen matrix products; convolutions are
// im2col + an Eigen product per image and group (the classic CPU algorithm); everything else is the
// Eigen-based float reference (reference/).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/problem.hpp"
#include "core/tensor.hpp"

namespace plumbline::bench {

struct CpuPeer {
  std::string method;  // "eigen-gemm", "eigen-im2col-gemm", "eigen-reference"
  std::function<void(const std::vector<TensorF>& inputs, std::vector<TensorF>& outputs)> run;
};

CpuPeer cpu_peer(const Problem& p);

}  // namespace plumbline::bench
