#pragma once
// E-matching: a rule's left side compiled once into a small program (egg's pattern machine) that
// runs over e-classes: Bind(reg, operator, attributes) enumerates a class's e-nodes of that operator
// and loads their children into registers; Compare(reg, reg) checks a repeated variable. A match then
// binds the variables' dimension symbols from the classes' shapes and must satisfy the rule's
// conditions.
#include <map>
#include <string>
#include <vector>

#include "egraph/egraph.hpp"
#include "egraph/rules.hpp"

namespace plumbline::egraph {

struct Match {
  Id root = 0;
  std::map<std::string, Id> vars;
  Binding binding;
};

class CompiledPattern {
 public:
  explicit CompiledPattern(const Rule& rule);
  // Matches rooted at any class whose e-nodes include the pattern's root operator, in class order;
  // stops after `limit` matches.
  std::vector<Match> search(const EGraph& eg, size_t limit = SIZE_MAX) const;
  std::vector<Match> search_class(const EGraph& eg, Id cls) const;
  size_t program_size() const { return program_.size(); }

 private:
  struct Instr {
    enum class Kind { Bind, Compare } kind;
    int reg = 0;
    int other = 0;  // Compare: the other register; Bind: first output register
    const Pattern* pat = nullptr;
  };
  void compile(const Pattern& p, int reg, std::map<std::string, int>& seen);
  void run(const EGraph& eg, size_t pc, std::vector<Id>& regs, std::map<std::string, AttrValue>& attrs, std::vector<Match>& out, size_t limit) const;
  bool finish(const EGraph& eg, const std::vector<Id>& regs, const std::map<std::string, AttrValue>& attrs, Match& m) const;

  const Rule* rule_;
  std::vector<Instr> program_;
  std::map<std::string, int> var_reg_;
  int registers_ = 1;
};

// Adds the rule's right side under a match; returns its class. Errors name the rule.
Id instantiate(EGraph& eg, const Rule& rule, const Match& m);

// A pattern's attributes as a node's (evaluated under `b`, defaults filled).
graph::Attrs pattern_attrs(const Pattern& p, const Binding& b);

}  // namespace plumbline::egraph
