#pragma once
// The reference interpreter: every node evaluated by its operator's reference (double, or float for
// a float evaluation) or, for graph-only operators, exactly on the host.
#include <map>
#include <string>
#include <vector>

#include "egraph/graph.hpp"

namespace plumbline::graph {

template <class T>
using Bindings = std::map<std::string, Tensor<T>>;

// The value of every live node (dead nodes stay empty). Error when an input is missing, unknown or
// of the wrong shape.
template <class T>
std::vector<Tensor<T>> interpret(const Graph& g, const Bindings<T>& inputs);

// The graph's outputs by name.
template <class T>
Bindings<T> run_graph(const Graph& g, const Bindings<T>& inputs);

// Checks the bindings against the graph's inputs (names and shapes); Error naming the first problem.
template <class T>
void check_bindings(const Graph& g, const Bindings<T>& inputs);

}  // namespace plumbline::graph
