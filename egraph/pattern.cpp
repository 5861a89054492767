#include "egraph/pattern.hpp"

#include "core/error.hpp"

namespace plumbline::egraph {

CompiledPattern::CompiledPattern(const Rule& rule) : rule_(&rule) {
  std::map<std::string, int> seen;
  compile(rule.lhs, 0, seen);
  var_reg_ = seen;
}

void CompiledPattern::compile(const Pattern& p, int reg, std::map<std::string, int>& seen) {
  const int out = registers_;
  registers_ += static_cast<int>(p.args.size());
  program_.push_back({Instr::Kind::Bind, reg, out, &p});
  for (size_t i = 0; i < p.args.size(); ++i) {
    const Pattern& a = p.args[i];
    const int r = out + static_cast<int>(i);
    if (a.is_var) {
      if (auto it = seen.find(a.var); it != seen.end())
        program_.push_back({Instr::Kind::Compare, r, it->second, nullptr});
      else
        seen[a.var] = r;
    } else {
      compile(a, r, seen);
    }
  }
}

// Does e-node attribute `value` (spec `s`) fit the pattern's entry? Binds attribute variables.
static bool attr_fits(const Pattern& p, const AttrSpec& s, const AttrValue& value, std::map<std::string, AttrValue>& bound) {
  for (const auto& [name, e] : p.attrs) {
    if (name != s.name) continue;
    if (e.kind == Expr::Kind::Literal) return e.value == value;
    // An attribute variable binds here; a dimension is checked once shapes bind it (finish()).
    auto [it, fresh] = bound.emplace(e.kind == Expr::Kind::Dim ? "#" + e.name : e.name, value);
    return fresh || it->second == value;
  }
  return value == s.def;  // not written: the default
}

void CompiledPattern::run(const EGraph& eg, size_t pc, std::vector<Id>& regs, std::map<std::string, AttrValue>& attrs, std::vector<Match>& out,
                          size_t limit) const {
  if (out.size() >= limit) return;
  if (pc == program_.size()) {
    Match m;
    if (finish(eg, regs, attrs, m)) out.push_back(std::move(m));
    return;
  }
  const Instr& in = program_[pc];
  if (in.kind == Instr::Kind::Compare) {
    if (eg.find(regs[static_cast<size_t>(in.reg)]) == eg.find(regs[static_cast<size_t>(in.other)])) run(eg, pc + 1, regs, attrs, out, limit);
    return;
  }
  const Pattern& p = *in.pat;
  const auto op_index = static_cast<uint16_t>(graph::graph_op_index(*p.op));
  for (const ENode& n : eg.eclass(regs[static_cast<size_t>(in.reg)]).nodes) {
    if (n.op != op_index || n.children.size() != p.args.size()) continue;
    std::map<std::string, AttrValue> bound = attrs;
    const graph::Attrs& na = eg.attrs(n.attrs);
    bool fits = true;
    for (size_t i = 0; i < na.size() && fits; ++i) fits = attr_fits(p, p.op->attrs[i], na[i].second, bound);
    if (!fits) continue;
    for (size_t i = 0; i < n.children.size(); ++i) regs[static_cast<size_t>(in.other) + i] = n.children[i];
    run(eg, pc + 1, regs, bound, out, limit);
  }
}

bool CompiledPattern::finish(const EGraph& eg, const std::vector<Id>& regs, const std::map<std::string, AttrValue>& attrs, Match& m) const {
  m.root = eg.find(regs[0]);
  m.binding.attrs = attrs;
  for (const auto& [name, reg] : var_reg_) m.vars[name] = eg.find(regs[static_cast<size_t>(reg)]);
  // Symbolic shapes: every variable's class must have the declared rank, and each symbol one value.
  for (const VarDecl& v : rule_->vars) {
    const Shape& s = eg.eclass(m.vars.at(v.name)).shape;
    if (!v.shape_symbol.empty()) {
      auto [it, fresh] = m.binding.shapes.emplace(v.shape_symbol, s);
      if (!fresh && !(it->second == s)) return false;
      continue;
    }
    if (s.rank() != static_cast<int>(v.shape.size())) return false;
    for (size_t i = 0; i < v.shape.size(); ++i) {
      const Expr& d = v.shape[i];
      if (d.kind == Expr::Kind::Literal) {
        if (std::get<int64_t>(d.value) != s[static_cast<int>(i)]) return false;
        continue;
      }
      auto [it, fresh] = m.binding.dims.emplace(d.name, s[static_cast<int>(i)]);
      if (!fresh && it->second != s[static_cast<int>(i)]) return false;
    }
  }
  for (auto it = m.binding.attrs.begin(); it != m.binding.attrs.end();) {
    if (it->first[0] != '#') {
      ++it;
      continue;
    }
    auto d = m.binding.dims.find(it->first.substr(1));
    if (d == m.binding.dims.end() || !(AttrValue{d->second} == it->second)) return false;
    it = m.binding.attrs.erase(it);
  }
  for (const Expr& c : rule_->where)
    if (!eval_condition(c, m.binding)) return false;
  return true;
}

std::vector<Match> CompiledPattern::search_class(const EGraph& eg, Id cls) const {
  std::vector<Match> out;
  std::vector<Id> regs(static_cast<size_t>(registers_));
  regs[0] = eg.find(cls);
  std::map<std::string, AttrValue> attrs;
  run(eg, 0, regs, attrs, out, SIZE_MAX);
  return out;
}

std::vector<Match> CompiledPattern::search(const EGraph& eg, size_t limit) const {
  std::vector<Match> out;
  std::vector<Id> regs(static_cast<size_t>(registers_));
  for (Id cls : eg.classes_with_op(graph::graph_op_index(*rule_->lhs.op))) {
    regs[0] = cls;
    std::map<std::string, AttrValue> attrs;
    run(eg, 0, regs, attrs, out, limit);
    if (out.size() >= limit) break;
  }
  return out;
}

graph::Attrs pattern_attrs(const Pattern& p, const Binding& b) {
  graph::Attrs given;
  for (const auto& [name, e] : p.attrs) given.emplace_back(name, eval_expr(e, b));
  return graph::complete_attrs(*p.op, given);
}

static Id build(EGraph& eg, const Rule& rule, const Pattern& p, const Match& m) {
  if (p.is_var) return m.vars.at(p.var);
  std::vector<Id> children;
  for (const auto& a : p.args) children.push_back(build(eg, rule, a, m));
  return eg.add(p.op->name, pattern_attrs(p, m.binding), children);
}

Id instantiate(EGraph& eg, const Rule& rule, const Match& m) {
  try {
    return build(eg, rule, rule.rhs, m);
  } catch (const Error& e) {
    throw Error(rule.file + ":" + std::to_string(rule.line) + ": rule '" + rule.name + "' at " + m.binding.str() +
                ": its right side does not build: " + e.what());
  }
}

}  // namespace plumbline::egraph
