#include "egraph/extract.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <unordered_map>

#include "core/error.hpp"

namespace plumbline::egraph {

static double work_cost(const CostModel& m, const graph::Work& w) {
  return w.flops / m.flops_per_us + w.bytes / m.bytes_per_us + w.launches * m.launch_us + m.node_us;
}

double CostModel::cost(const EGraph& eg, const ENode& n) const {
  std::vector<Shape> in;
  for (Id c : n.children) in.push_back(eg.eclass(c).shape);
  const graph::GraphOp& op = eg.op(n);
  const graph::Attrs& a = eg.attrs(n.attrs);
  return work_cost(*this, graph::work_of(op, in, a, graph::infer_shape(op, in, a)));
}

double graph_cost(const graph::Graph& g, const CostModel& model) {
  const auto live = g.live();
  double total = 0;
  for (int i = 0; i < g.size(); ++i) {
    if (!live[static_cast<size_t>(i)]) continue;
    const auto& n = g.node(i);
    std::vector<Shape> in;
    for (int a : n.args) in.push_back(g.node(a).shape);
    total += work_cost(model, graph::work_of(*n.op, in, n.attrs, n.shape));
  }
  return total;
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The classes reachable from the roots under `choice`, or empty if the choice has a cycle.
bool reachable(const EGraph& eg, const std::map<Id, ENode>& choice, const std::vector<Id>& roots, std::vector<Id>& order) {
  std::map<Id, int> state;  // 1: on the stack, 2: done
  order.clear();
  std::vector<std::pair<Id, size_t>> stack;
  for (Id r0 : roots) {
    const Id r = eg.find(r0);
    if (state[r] == 2) continue;
    stack.push_back({r, 0});
    state[r] = 1;
    while (!stack.empty()) {
      auto& [c, i] = stack.back();
      const ENode& n = choice.at(c);
      if (i < n.children.size()) {
        const Id ch = eg.find(n.children[i++]);
        if (state[ch] == 1) return false;  // a cycle
        if (state[ch] == 0) {
          state[ch] = 1;
          stack.push_back({ch, 0});
        }
      } else {
        state[c] = 2;
        order.push_back(c);  // children before parents
        stack.pop_back();
      }
    }
  }
  return true;
}

}  // namespace

Extraction extract(const EGraph& eg, const std::vector<Id>& roots, const CostModel& model) {
  if (!eg.clean()) throw Error("extract: rebuild() the e-graph first");
  // Tree-cost fixpoint (Bellman-Ford style): best[c] = min over e-nodes of cost + children's best.
  std::map<Id, double> best;
  std::map<Id, ENode> choice;
  std::unordered_map<ENode, double, ENodeHash> own;  // cost of each e-node, computed once
  auto cost_of = [&](const ENode& n) {
    auto it = own.find(n);
    return it != own.end() ? it->second : (own[n] = model.cost(eg, n));
  };
  for (Id c : eg.class_ids()) best[c] = kInf;
  for (bool changed = true; changed;) {
    changed = false;
    for (Id c : eg.class_ids()) {
      const auto& nodes = eg.eclass(c).nodes;
      for (size_t i = 0; i < nodes.size(); ++i) {
        double total = 0;
        for (Id ch : nodes[i].children) total += best[eg.find(ch)];
        if (total == kInf) continue;
        total += cost_of(nodes[i]);
        if (total < best[c]) {
          best[c] = total;
          choice[c] = nodes[i];
          changed = true;
        }
      }
    }
  }
  for (Id r : roots)
    if (!choice.contains(eg.find(r))) throw Error("extract: class " + std::to_string(r) + " has no finite term");

  // DAG pass: revisit each reachable class's alternatives with the whole graph's cost.
  auto dag_cost = [&](const std::vector<Id>& order, const std::map<Id, ENode>& ch) {
    double total = 0;
    for (Id c : order) total += cost_of(ch.at(c));
    return total;
  };
  std::vector<Id> order;
  if (!reachable(eg, choice, roots, order)) throw Error("extract: internal error: the tree-cost choice has a cycle");
  double current = dag_cost(order, choice);
  for (int pass = 0; pass < 4; ++pass) {
    bool improved = false;
    const std::vector<Id> classes = order;
    for (Id c : classes) {
      for (const ENode& alt : eg.eclass(c).nodes) {
        if (alt == choice[c]) continue;
        bool finite = true;
        for (Id ch : alt.children) finite = finite && best[eg.find(ch)] < kInf;
        if (!finite) continue;
        const ENode before = choice[c];
        choice[c] = alt;  // tried in place, undone unless the whole graph gets cheaper
        std::vector<Id> trial_order;
        const bool acyclic = reachable(eg, choice, roots, trial_order);
        const double cost = acyclic ? dag_cost(trial_order, choice) : kInf;
        if (cost < current * (1 - 1e-12)) {
          current = cost;
          order = std::move(trial_order);
          improved = true;
        } else {
          choice[c] = before;
        }
      }
    }
    if (!improved) break;
  }
  Extraction x;
  for (Id c : order) x.choice[c] = choice.at(c);
  x.cost = current;
  return x;
}

graph::Graph to_graph(const EGraph& eg, const Extraction& x, const std::vector<std::pair<std::string, Id>>& outputs) {
  graph::Graph g;
  std::map<Id, int> node_of;
  std::vector<Id> roots;
  for (const auto& [name, id] : outputs) roots.push_back(id);
  std::vector<Id> order;
  if (!reachable(eg, x.choice, roots, order)) throw Error("to_graph: the extraction has a cycle");
  for (Id c : order) {
    const ENode& n = x.choice.at(c);
    const graph::GraphOp& op = eg.op(n);
    const graph::Attrs& a = eg.attrs(n.attrs);
    std::vector<int> args;
    for (Id ch : n.children) args.push_back(node_of.at(eg.find(ch)));
    node_of[c] = op.name == "var" ? g.input(graph::attr_s(a, "name"), eg.eclass(c).shape) : g.add(op.name, args, a);
  }
  for (const auto& [name, id] : outputs) g.set_output(name, node_of.at(eg.find(id)));
  return g;
}

}  // namespace plumbline::egraph
