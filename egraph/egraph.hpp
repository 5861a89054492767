#pragma once
// The e-graph (egg's design, https://egraphs-good.github.io): a union-find over e-class ids,
// hash-consed e-nodes whose identity includes their attributes, e-classes with parent lists, and a
// deferred rebuild that restores the invariants after a batch of merges.
//
// Invariants (check_invariants() verifies them; debug builds check after every rebuild):
//  1. hash-consing: every e-node of every class, canonicalized, maps in the memo to that class;
//  2. congruence: no two classes hold the same canonical e-node;
//  3. analysis: every e-node of a class infers the class's shape (merging two shapes is an Error
//     that names the rule responsible);
//  4. parents: an e-node with child c is in c's parent list;
//  5. union-find: find is idempotent and class ids are canonical.
// Explanations: every merge records an edge between the two ids it was given and why (a rule's
// name, or congruence); explain(a, b) walks those edges.
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "egraph/graph.hpp"

namespace plumbline::egraph {

using Id = uint32_t;

struct ENode {
  uint16_t op = 0;     // index into graph::graph_ops()
  uint32_t attrs = 0;  // interned attributes (EGraph::attrs)
  std::vector<Id> children;
  bool operator==(const ENode&) const = default;
};

struct ENodeHash {
  size_t operator()(const ENode& n) const;
};

struct EClass {
  Id id = 0;
  std::vector<ENode> nodes;
  std::vector<std::pair<ENode, Id>> parents;
  Shape shape;  // the analysis
};

class EGraph {
 public:
  Id add(ENode n);
  Id add(const std::string& op, const graph::Attrs& attrs, std::vector<Id> children);
  // Adds every node of a graph; returns the class of each node.
  std::vector<Id> add_graph(const graph::Graph& g);

  Id find(Id id) const;
  // Merges the classes of a and b; `reason` names the rule (for errors and explanations).
  // Returns false when they were already one class.
  bool merge(Id a, Id b, const std::string& reason);
  void rebuild();
  bool clean() const { return pending_.empty(); }

  const EClass& eclass(Id id) const { return classes_.at(find(id)); }
  std::vector<Id> class_ids() const;  // canonical, ascending
  // Canonical classes holding an e-node of operator `op` (valid after rebuild()).
  const std::vector<Id>& classes_with_op(int op) const;
  size_t num_nodes() const { return memo_.size(); }
  size_t num_classes() const { return classes_.size(); }

  uint32_t intern(const graph::Attrs& a);
  const graph::Attrs& attrs(uint32_t id) const { return attrs_[id]; }
  const graph::GraphOp& op(const ENode& n) const { return graph::graph_ops()[n.op]; }

  void check_invariants() const;  // Error naming the violated invariant
  // Why two terms are equal: the chain of merges between the ids, one step per line.
  std::string explain(Id a, Id b) const;
  // A term as an s-expression, from the e-node that created the id (depth-limited).
  std::string term_str(Id id, int depth = 4) const;

 private:
  ENode canonical(ENode n) const;
  void repair(Id id);

  std::vector<Id> parent_;        // union-find
  std::map<Id, EClass> classes_;  // canonical id -> class (ordered: deterministic)
  std::unordered_map<ENode, Id, ENodeHash> memo_;
  std::vector<Id> pending_;
  std::vector<graph::Attrs> attrs_;
  std::map<std::string, uint32_t> attrs_index_;
  std::vector<std::vector<Id>> by_op_;
  // Explanations: the e-node each id was created with, and the merges made between ids.
  std::vector<ENode> origin_;
  struct Edge {
    Id to;
    std::string reason;
  };
  std::vector<std::vector<Edge>> proof_;
};

}  // namespace plumbline::egraph
