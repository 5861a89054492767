#pragma once
// Training-step graphs: a forward pass written the way a framework's user writes it (unfused:
// matmul then bias_add then the activation; x * sigmoid(x) for silu; weights stored [out, in] and
// transposed), a scalar loss, and the backward built by autodiff. The optimizer's job is to find
// what is fusable in both.
#include <map>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "egraph/autodiff.hpp"

namespace plumbline::egraph {

struct TrainingGraph {
  std::string name;
  graph::Graph graph;                        // outputs: "loss" and "d_<param>" for each parameter
  std::vector<std::string> params;           // the differentiated inputs
  std::map<std::string, TensorDecl> inputs;  // every input, with its domain (class labels, ...)
};

// MLP: x[B,D] -> linear -> gelu_tanh -> linear -> cross_entropy with class labels.
TrainingGraph mlp_gelu(int64_t batch, int64_t in, int64_t hidden, int64_t classes);
// conv3x3 (+bias) -> group_norm -> x * sigmoid(x), loss = sum(y * t).
TrainingGraph conv_block(int64_t n, int64_t c, int64_t hw, int64_t k, int64_t groups);
// layer_norm -> x W1^T + b1 -> gelu_erf -> h W2^T + b2 -> + x, loss = sum(y * t); W stored [out, in].
TrainingGraph transformer_mlp(int64_t tokens, int64_t dim, int64_t hidden);

// The three at sizes small enough for finite differences.
std::vector<TrainingGraph> small_training_graphs();

// Random inputs for a training graph (class labels in range, the rest from `values`).
graph::Bindings<float> training_inputs(const TrainingGraph& t, Values values, uint64_t seed);

// `layers` copies of the transformer MLP block in sequence, for the saturation benchmark
// (about 90 nodes per layer with the backward).
TrainingGraph transformer_stack(int layers, int64_t tokens, int64_t dim, int64_t hidden);

}  // namespace plumbline::egraph
