#pragma once
// Rewrite rules, read from one s-expression file (egraph/rules/training.rules) that the optimizer
// and the rule checker both use. The syntax (docs/egraph.md has the full description):
//
//   (rule gemm-bias-act-fusion
//     (vars (a real (m k)) (b real (k n)) (bias real (n)))
//     (where (> m 0))                          ; optional: conditions on dimensions and attributes
//     (assume (finite a))                      ; optional: conditions on values: (finite x), (bounded x B)
//     (lhs (act :act ?act (bias_add (matmul a b) bias)))
//     (rhs (gemm_bias_act :act ?act a b bias))
//     (numerics reassoc))                      ; exact | reassoc | (approx 1e-3)
//
// Pattern variables are typed (real, or dist: non-negative rows summing to 1) with symbolic shapes
// ((x real (m n)), or (x real S): any shape, shared by the variables declared with S); dimension symbols are bare
// names, attribute variables start with '?'. In a left side an attribute not written must have its
// default; in a right side it gets its default. Attribute values on the right may be expressions
// over dimensions and attribute variables: (- r 1 ?ph).
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "egraph/ops.hpp"
#include "egraph/sexpr.hpp"

namespace plumbline::egraph {

// An integer/float/name expression over dimension symbols and attribute variables.
struct Expr {
  enum class Kind { Literal, Dim, AttrVar, Call } kind = Kind::Literal;
  AttrValue value;   // Literal
  std::string name;  // Dim, AttrVar (with '?'), Call (the operator: + - * / % == != < <= > >= and or not)
  std::vector<Expr> args;
  int line = 0;
  std::string str() const;
};

struct Pattern {
  bool is_var = false;
  std::string var;  // a pattern variable
  const graph::GraphOp* op = nullptr;
  std::vector<std::pair<std::string, Expr>> attrs;  // as written
  std::vector<Pattern> args;
  int line = 0;
  std::string str() const;
};

struct VarDecl {
  std::string name;
  Domain type = Domain::Real;
  std::vector<Expr> shape;   // Dim symbols or integer literals
  std::string shape_symbol;  // (x real S): any shape, the same for every variable declared with S
  bool finite = false;       // (assume (finite x)): values are finite
  double bound = INFINITY;   // (assume (bounded x B)): |values| <= B (implies finite)
  bool assumed() const { return finite; }
};

enum class Numerics { Exact, Reassoc, Approx };

struct Rule {
  std::string name;
  std::string file;
  int line = 0;
  std::vector<VarDecl> vars;
  std::vector<Expr> where;
  Pattern lhs, rhs;
  Numerics numerics = Numerics::Exact;
  double approx_bound = 0;  // Approx: |lhs - rhs| <= bound * (1 + |rhs|)
  std::string numerics_str() const;
  const VarDecl& var(const std::string& name) const;
  std::vector<std::string> dims() const;  // dimension symbols, in order of appearance
  std::vector<std::string> shape_symbols() const;
  std::vector<std::string> attr_vars() const;  // attribute variables, in order of appearance
  // The attribute an attribute variable first binds in the left side (for its kind and choices).
  const AttrSpec& attr_var_spec(const std::string& name) const;
};

// Values of a rule's symbols once matched or sampled.
struct Binding {
  std::map<std::string, int64_t> dims;
  std::map<std::string, AttrValue> attrs;  // keys with '?'
  std::map<std::string, Shape> shapes;     // shape symbols
  std::string str() const;                 // "m=2 k=3 S=2,5 ?act=relu"
};

AttrValue eval_expr(const Expr& e, const Binding& b);  // Error naming the line on a type mismatch
bool eval_condition(const Expr& e, const Binding& b);

// Parses a rules file's text; Error("FILE:LINE: ...") on anything malformed: unknown operators,
// attributes, variables, symbols, or a numerics tag.
std::vector<Rule> parse_rules(const std::string& text, const std::string& file);
std::vector<Rule> load_rules(const std::string& path);  // Error if unreadable
std::string default_rules_path();                       // egraph/rules/training.rules of this source tree

}  // namespace plumbline::egraph
