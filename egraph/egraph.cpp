#include "egraph/egraph.hpp"

#include <algorithm>
#include <deque>
#include <set>

#include "core/error.hpp"

namespace plumbline::egraph {

size_t ENodeHash::operator()(const ENode& n) const {
  size_t h = std::hash<uint64_t>()((uint64_t{n.op} << 32) ^ n.attrs);
  for (Id c : n.children) h = h * 1000003u ^ std::hash<uint32_t>()(c);
  return h;
}

uint32_t EGraph::intern(const graph::Attrs& a) {
  const std::string key = graph::attrs_str(a);
  auto it = attrs_index_.find(key);
  if (it != attrs_index_.end()) return it->second;
  attrs_.push_back(a);
  attrs_index_[key] = static_cast<uint32_t>(attrs_.size() - 1);
  return static_cast<uint32_t>(attrs_.size() - 1);
}

Id EGraph::find(Id id) const {
  while (parent_.at(id) != id) id = parent_[id];
  return id;
}

ENode EGraph::canonical(ENode n) const {
  for (Id& c : n.children) c = find(c);
  return n;
}

Id EGraph::add(ENode n) {
  n = canonical(std::move(n));
  if (auto it = memo_.find(n); it != memo_.end()) return find(it->second);
  const graph::GraphOp& o = op(n);
  std::vector<Shape> in;
  for (Id c : n.children) in.push_back(classes_.at(c).shape);
  EClass cls;
  cls.id = static_cast<Id>(parent_.size());
  cls.shape = graph::infer_shape(o, in, attrs(n.attrs));  // Error naming the operator and the shapes
  cls.nodes.push_back(n);
  parent_.push_back(cls.id);
  origin_.push_back(n);
  proof_.emplace_back();
  for (Id c : n.children) classes_.at(c).parents.emplace_back(n, cls.id);
  memo_[n] = cls.id;
  if (by_op_.size() <= n.op) by_op_.resize(n.op + 1u);
  by_op_[n.op].push_back(cls.id);
  const Id id = cls.id;
  classes_[id] = std::move(cls);
  return id;
}

Id EGraph::add(const std::string& op_name, const graph::Attrs& a, std::vector<Id> children) {
  const graph::GraphOp& o = graph::find_graph_op(op_name);
  ENode n;
  n.op = static_cast<uint16_t>(graph::graph_op_index(o));
  n.attrs = intern(graph::complete_attrs(o, a));
  n.children = std::move(children);
  return add(std::move(n));
}

std::vector<Id> EGraph::add_graph(const graph::Graph& g) {
  std::vector<Id> ids;
  for (const auto& node : g.nodes()) {
    std::vector<Id> children;
    for (int a : node.args) children.push_back(ids[static_cast<size_t>(a)]);
    ids.push_back(add(node.op->name, node.attrs, children));
  }
  return ids;
}

bool EGraph::merge(Id a, Id b, const std::string& reason) {
  Id ra = find(a), rb = find(b);
  if (ra == rb) return false;
  if (!(classes_.at(ra).shape == classes_.at(rb).shape))
    throw Error("rule '" + reason + "' merges " + term_str(a, 3) + " of shape " + classes_.at(ra).shape.str() + " with " + term_str(b, 3) +
                " of shape " + classes_.at(rb).shape.str());
  proof_[a].push_back({b, reason});
  proof_[b].push_back({a, reason});
  // The larger class absorbs the smaller (ties: the older id): few moves, deterministic.
  if (classes_.at(ra).nodes.size() + classes_.at(ra).parents.size() < classes_.at(rb).nodes.size() + classes_.at(rb).parents.size() ||
      (classes_.at(ra).nodes.size() + classes_.at(ra).parents.size() == classes_.at(rb).nodes.size() + classes_.at(rb).parents.size() && rb < ra))
    std::swap(ra, rb);
  EClass from = std::move(classes_.at(rb));
  classes_.erase(rb);
  parent_[rb] = ra;
  EClass& to = classes_.at(ra);
  to.nodes.insert(to.nodes.end(), from.nodes.begin(), from.nodes.end());
  to.parents.insert(to.parents.end(), from.parents.begin(), from.parents.end());
  pending_.push_back(ra);
  return true;
}

// egg's repair: re-canonicalize the class's parents in the memo, and merge parents that became
// congruent (the same e-node after canonicalization).
void EGraph::repair(Id id) {
  EClass& cls = classes_.at(find(id));
  std::vector<std::pair<ENode, Id>> parents = std::move(cls.parents);
  for (auto& [node, pid] : parents) {
    memo_.erase(node);
    node = canonical(node);
    memo_[node] = find(pid);
  }
  std::vector<std::pair<ENode, Id>> unique;
  std::unordered_map<ENode, size_t, ENodeHash> seen;
  for (auto& [node, pid] : parents) {
    auto [it, fresh] = seen.emplace(node, unique.size());
    if (fresh) {
      unique.emplace_back(node, pid);
    } else {
      merge(unique[it->second].second, pid, "congruence");
    }
  }
  EClass& after = classes_.at(find(id));  // merges above may have moved it
  after.parents.insert(after.parents.end(), unique.begin(), unique.end());
}

void EGraph::rebuild() {
  while (!pending_.empty()) {
    std::vector<Id> todo;
    todo.swap(pending_);
    for (Id& t : todo) t = find(t);
    std::sort(todo.begin(), todo.end());
    todo.erase(std::unique(todo.begin(), todo.end()), todo.end());
    for (Id t : todo) repair(t);
  }
  // Canonical, deduplicated e-node lists, the memo rebuilt from them (repair re-keys the parents it
  // visits, but an e-node reached through two children can keep an intermediate key), and the
  // operator index.
  memo_.clear();
  for (auto& v : by_op_) v.clear();
  for (auto& [id, cls] : classes_) {
    for (ENode& n : cls.nodes) n = canonical(n);
    std::sort(cls.nodes.begin(), cls.nodes.end(),
              [](const ENode& a, const ENode& b) { return std::tie(a.op, a.attrs, a.children) < std::tie(b.op, b.attrs, b.children); });
    cls.nodes.erase(std::unique(cls.nodes.begin(), cls.nodes.end()), cls.nodes.end());
    for (const ENode& n : cls.nodes) memo_[n] = id;
    for (const ENode& n : cls.nodes)
      if (by_op_[n.op].empty() || by_op_[n.op].back() != id) by_op_[n.op].push_back(id);
  }
  for (auto& v : by_op_) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
#ifndef NDEBUG
  check_invariants();
#endif
}

std::vector<Id> EGraph::class_ids() const {
  std::vector<Id> ids;
  for (const auto& [id, cls] : classes_) ids.push_back(id);
  return ids;
}

const std::vector<Id>& EGraph::classes_with_op(int op) const {
  static const std::vector<Id> none;
  return static_cast<size_t>(op) < by_op_.size() ? by_op_[static_cast<size_t>(op)] : none;
}

void EGraph::check_invariants() const {
  if (!pending_.empty()) throw Error("e-graph invariant: check_invariants() before rebuild()");
  std::set<std::pair<std::vector<Id>, std::pair<uint32_t, uint32_t>>> seen_nodes;
  for (const auto& entry : classes_) {
    const auto& [id_binding, cls] = entry;
    const Id id = id_binding;  // a plain variable: clang 14 cannot capture a structured binding
    if (find(id) != id || cls.id != id) throw Error("e-graph invariant 5: class " + std::to_string(id) + " is not canonical");
    for (const ENode& n : cls.nodes) {
      const ENode c = canonical(n);
      auto it = memo_.find(c);
      if (it == memo_.end() || find(it->second) != id)
        throw Error("e-graph invariant 1: an e-node of class " + std::to_string(id) + " is not hash-consed to it");
      if (!seen_nodes.insert({c.children, {c.op, c.attrs}}).second)
        throw Error("e-graph invariant 2: two classes hold the same e-node (congruence not restored)");
      std::vector<Shape> in;
      for (Id ch : c.children) in.push_back(eclass(ch).shape);
      if (!(graph::infer_shape(op(c), in, attrs(c.attrs)) == cls.shape))
        throw Error("e-graph invariant 3: an e-node of class " + std::to_string(id) + " does not have its shape " + cls.shape.str());
      for (Id ch : c.children) {
        const auto& ps = eclass(ch).parents;
        if (std::none_of(ps.begin(), ps.end(), [&](const auto& p) { return canonical(p.first) == c && find(p.second) == id; }))
          throw Error("e-graph invariant 4: class " + std::to_string(ch) + " does not list a parent of class " + std::to_string(id));
      }
    }
  }
  for (const auto& [node, id] : memo_)
    if (!(canonical(node) == node)) throw Error("e-graph invariant 1: the memo holds a non-canonical e-node");
}

std::string EGraph::term_str(Id id, int depth) const {
  const ENode& n = origin_.at(id);
  const graph::GraphOp& o = op(n);
  const graph::Attrs& a = attrs(n.attrs);
  if (o.name == "var") return graph::attr_s(a, "name");
  if (depth <= 0) return "...";
  std::string s = "(" + o.name;
  for (const auto& [name, v] : a) {
    // Only attributes away from their defaults, as the rules file writes them.
    for (const auto& spec : o.attrs)
      if (spec.name == name && !(spec.def == v)) s += " :" + name + " " + format_attr(v);
  }
  for (Id c : n.children) s += " " + term_str(c, depth - 1);
  return s + ")";
}

std::string EGraph::explain(Id a, Id b) const {
  if (find(a) != find(b)) return term_str(a) + " and " + term_str(b) + " are not known to be equal";
  // Breadth-first over the merge edges (every merge left one between the ids it was given).
  std::map<Id, std::pair<Id, std::string>> came_from;
  std::deque<Id> queue{a};
  came_from[a] = {a, ""};
  while (!queue.empty() && !came_from.contains(b)) {
    const Id x = queue.front();
    queue.pop_front();
    for (const Edge& e : proof_[x])
      if (!came_from.contains(e.to)) {
        came_from[e.to] = {x, e.reason};
        queue.push_back(e.to);
      }
  }
  std::vector<std::pair<Id, std::string>> path;
  for (Id x = b; x != a; x = came_from.at(x).first) path.emplace_back(x, came_from.at(x).second);
  std::string s = term_str(a) + "\n";
  for (auto it = path.rbegin(); it != path.rend(); ++it)
    s += "  = " + term_str(it->first) + "    [" + (it->second == "congruence" ? "congruence: equal arguments" : "by " + it->second) + "]\n";
  return s;
}

}  // namespace plumbline::egraph
