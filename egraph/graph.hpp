#pragma once
// The graph IR: a DAG of operator nodes (egraph/ops.hpp) in topological order, with named inputs
// (var nodes) and named outputs. Every node's shape is inferred when it is added, so a malformed graph
// fails where it is built, naming the operator.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "egraph/ops.hpp"

namespace plumbline::graph {

struct Node {
  const GraphOp* op = nullptr;
  Attrs attrs;
  std::vector<int> args;
  Shape shape;
};

class Graph {
 public:
  int input(const std::string& name, const Shape& shape);  // a var node
  int fill(const Shape& shape, double value);
  int add(const std::string& op, std::vector<int> args, const Attrs& attrs = {});
  void set_output(const std::string& name, int id);

  int size() const { return static_cast<int>(nodes_.size()); }
  const Node& node(int id) const { return nodes_.at(static_cast<size_t>(id)); }
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<std::pair<std::string, int>>& outputs() const { return outputs_; }
  std::vector<std::pair<std::string, int>> inputs() const;  // var nodes, in order of creation
  int output(const std::string& name) const;                // Error if absent
  // Nodes that reach an output (the rest is dead code).
  std::vector<bool> live() const;
  std::string str() const;  // one node per line: "%3 = matmul :ta 0 :tb 0 %1 %2   [4,5]"

 private:
  std::vector<Node> nodes_;
  std::vector<std::pair<std::string, int>> outputs_;
};

}  // namespace plumbline::graph
