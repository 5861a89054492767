#include "egraph/rules.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "core/error.hpp"

namespace plumbline::egraph {
namespace {

const std::set<std::string> kExprOps{"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "not", "shape"};

struct Parser {
  std::string file;
  Rule rule;
  std::set<std::string> dims;
  std::set<std::string> shape_syms;

  [[noreturn]] void fail(int line, const std::string& msg) const {
    throw Error(file + ":" + std::to_string(line) + ": " + (rule.name.empty() ? "" : "rule '" + rule.name + "': ") + msg);
  }

  Expr expr(const sexpr::Node& n) {
    Expr e;
    e.line = n.line;
    if (n.is_atom()) {
      const std::string& t = n.atom;
      if (t[0] == '?') {
        e.kind = Expr::Kind::AttrVar;
        e.name = t;
        return e;
      }
      if (dims.contains(t)) {
        e.kind = Expr::Kind::Dim;
        e.name = t;
        return e;
      }
      char* end = nullptr;
      const long long i = std::strtoll(t.c_str(), &end, 10);
      if (*end == '\0') {
        e.value = static_cast<int64_t>(i);
        return e;
      }
      const double d = std::strtod(t.c_str(), &end);
      if (*end == '\0') {
        e.value = d;
        return e;
      }
      e.value = t;  // a name: an enum value such as relu
      return e;
    }
    const std::string& op = n.head();
    if (!kExprOps.contains(op)) fail(n.line, "unknown expression operator '" + op + "' in " + n.str());
    e.kind = Expr::Kind::Call;
    e.name = op;
    for (size_t i = 1; i < n.items.size(); ++i) e.args.push_back(expr(n.items[i]));
    if (e.args.empty() || (op == "not" && e.args.size() != 1)) fail(n.line, "wrong number of operands in " + n.str());
    return e;
  }

  AttrValue coerce(const AttrSpec& spec, const AttrValue& v, int line, const std::string& op) {
    const std::string where = op + " :" + spec.name + " ";
    switch (spec.kind) {
      case AttrKind::Int:
        if (!std::holds_alternative<int64_t>(v)) fail(line, where + "takes an integer, got " + format_attr(v));
        return v;
      case AttrKind::Float:
        if (std::holds_alternative<int64_t>(v)) return static_cast<double>(std::get<int64_t>(v));
        if (!std::holds_alternative<double>(v)) fail(line, where + "takes a number, got " + format_attr(v));
        return v;
      case AttrKind::Enum:
        if (!std::holds_alternative<std::string>(v)) fail(line, where + "takes a name, got " + format_attr(v));
        if (!spec.choices.empty() && std::find(spec.choices.begin(), spec.choices.end(), std::get<std::string>(v)) == spec.choices.end())
          fail(line, where + "'" + std::get<std::string>(v) + "' is not one of its choices");
        return v;
    }
    return v;
  }

  void collect_attr_vars(const Expr& e, std::set<std::string>& out) {
    if (e.kind == Expr::Kind::AttrVar) out.insert(e.name);
    for (const auto& a : e.args) collect_attr_vars(a, out);
  }

  Pattern pattern(const sexpr::Node& n, bool lhs, std::set<std::string>& lhs_attr_vars) {
    Pattern p;
    p.line = n.line;
    if (n.is_atom()) {
      if (std::none_of(rule.vars.begin(), rule.vars.end(), [&](const VarDecl& v) { return v.name == n.atom; }))
        fail(n.line, "'" + n.atom + "' is not a declared variable (declare it in (vars ...))");
      p.is_var = true;
      p.var = n.atom;
      return p;
    }
    if (n.items.empty() || !n.items[0].is_atom()) fail(n.line, "a pattern is (operator :attr value ... arguments...)");
    p.op = graph::find_graph_op_or_null(n.head());
    if (!p.op) fail(n.line, "unknown operator '" + n.head() + "'");
    for (size_t i = 1; i < n.items.size(); ++i) {
      const sexpr::Node& it = n.items[i];
      if (it.is_atom() && it.atom.size() > 1 && it.atom[0] == ':') {
        const std::string name = it.atom.substr(1);
        auto spec = std::find_if(p.op->attrs.begin(), p.op->attrs.end(), [&](const AttrSpec& s) { return s.name == name; });
        if (spec == p.op->attrs.end()) fail(it.line, p.op->name + " has no attribute '" + name + "'");
        if (++i >= n.items.size()) fail(it.line, ":" + name + " has no value");
        Expr v = expr(n.items[i]);
        if (v.kind == Expr::Kind::Literal) v.value = coerce(*spec, v.value, it.line, p.op->name);
        if (lhs && v.kind == Expr::Kind::Call)
          fail(it.line, "a left side's attribute is a value, a dimension or an ?attribute-variable; put conditions in (where ...)");
        std::set<std::string> used;
        collect_attr_vars(v, used);
        for (const auto& u : used) {
          if (lhs)
            lhs_attr_vars.insert(u);
          else if (!lhs_attr_vars.contains(u))
            fail(it.line, "attribute variable " + u + " is not bound by the left side");
        }
        if (std::any_of(p.attrs.begin(), p.attrs.end(), [&](const auto& a) { return a.first == name; }))
          fail(it.line, ":" + name + " is given twice");
        p.attrs.emplace_back(name, std::move(v));
      } else {
        p.args.push_back(pattern(it, lhs, lhs_attr_vars));
      }
    }
    const int argc = static_cast<int>(p.args.size());
    if (argc < p.op->min_args || argc > p.op->max_args)
      fail(n.line, p.op->name + " takes " + std::to_string(p.op->min_args) +
                       (p.op->max_args != p.op->min_args ? " to " + std::to_string(p.op->max_args) : "") + " arguments, got " + std::to_string(argc));
    return p;
  }

  void vars(const sexpr::Node& n) {
    for (size_t i = 1; i < n.items.size(); ++i) {
      const sexpr::Node& d = n.items[i];
      if (!d.is_list || d.items.size() != 3 || !d.items[0].is_atom() || !d.items[1].is_atom())
        fail(d.line, "a variable is declared as (NAME TYPE (DIMS...)) or (NAME TYPE SHAPE), e.g. (x real (m n)); got " + d.str());
      VarDecl v;
      v.name = d.items[0].atom;
      const std::string& t = d.items[1].atom;
      if (t == "real")
        v.type = Domain::Real;
      else if (t == "dist")
        v.type = Domain::Distribution;
      else
        fail(d.line, "unknown type '" + t + "' (types: real, dist)");
      if (d.items[2].is_atom()) {
        v.shape_symbol = d.items[2].atom;
        if (dims.contains(v.shape_symbol)) fail(d.line, "'" + v.shape_symbol + "' is already a dimension symbol");
        shape_syms.insert(v.shape_symbol);
      }
      for (const auto& dim : d.items[2].items) {
        if (!dim.is_atom()) fail(dim.line, "a dimension is a symbol or a positive integer");
        Expr e;
        e.line = dim.line;
        char* end = nullptr;
        const long long lit = std::strtoll(dim.atom.c_str(), &end, 10);
        if (*end == '\0') {
          if (lit < 1) fail(dim.line, "dimension " + dim.atom + " is not positive");
          e.value = static_cast<int64_t>(lit);
        } else if (shape_syms.contains(dim.atom)) {
          fail(dim.line, "'" + dim.atom + "' is already a shape symbol");
        } else if (std::isalpha(static_cast<unsigned char>(dim.atom[0]))) {
          e.kind = Expr::Kind::Dim;
          e.name = dim.atom;
          dims.insert(dim.atom);
        } else {
          fail(dim.line, "'" + dim.atom + "' is not a dimension symbol");
        }
        v.shape.push_back(e);
      }
      if (std::any_of(rule.vars.begin(), rule.vars.end(), [&](const VarDecl& o) { return o.name == v.name; }))
        fail(d.line, "variable '" + v.name + "' is declared twice");
      rule.vars.push_back(std::move(v));
    }
  }

  void check_symbols(const Expr& e, const std::set<std::string>& attr_vars) {
    if (e.kind == Expr::Kind::AttrVar && !attr_vars.contains(e.name)) fail(e.line, "attribute variable " + e.name + " is not bound by the left side");
    if (e.kind == Expr::Kind::Literal && std::holds_alternative<std::string>(e.value)) {
      // A bare name in a condition must be some attribute's value (relu, row, ...): a typo of a
      // dimension would otherwise compare as a name.
      const std::string& name = std::get<std::string>(e.value);
      bool known = false;
      for (const auto& op : graph::graph_ops())
        for (const auto& a : op.attrs) known = known || std::find(a.choices.begin(), a.choices.end(), name) != a.choices.end();
      if (!known) fail(e.line, "'" + name + "' is neither a dimension symbol nor an attribute value");
    }
    for (const auto& a : e.args) check_symbols(a, attr_vars);
  }

  Rule parse(const sexpr::Node& form) {
    if (!form.is_list || form.head() != "rule" || form.items.size() < 2 || !form.items[1].is_atom())
      fail(form.line, "expected (rule NAME ...), got " + form.str().substr(0, 60));
    rule.name = form.items[1].atom;
    rule.file = file;
    rule.line = form.line;
    const sexpr::Node *lhs = nullptr, *rhs = nullptr, *where = nullptr, *assume = nullptr, *numerics = nullptr;
    for (size_t i = 2; i < form.items.size(); ++i) {
      const sexpr::Node& c = form.items[i];
      const std::string& h = c.head();
      const sexpr::Node** slot = h == "lhs"        ? &lhs
                                 : h == "rhs"      ? &rhs
                                 : h == "where"    ? &where
                                 : h == "assume"   ? &assume
                                 : h == "numerics" ? &numerics
                                                   : nullptr;
      if (h == "vars") {
        vars(c);
        continue;
      }
      if (!slot) fail(c.line, "unknown clause " + c.str().substr(0, 40) + " (clauses: vars where assume lhs rhs numerics)");
      if (*slot) fail(c.line, "clause (" + h + " ...) is given twice");
      *slot = &c;
    }
    if (!lhs || !rhs || !numerics) fail(form.line, "a rule needs (lhs ...), (rhs ...) and (numerics ...)");
    if (lhs->items.size() != 2 || rhs->items.size() != 2) fail(lhs->line, "(lhs P) and (rhs P) take one pattern each");
    std::set<std::string> attr_vars;
    rule.lhs = pattern(lhs->items[1], true, attr_vars);
    if (rule.lhs.is_var) fail(lhs->line, "a left side must be an operator, not a bare variable");
    rule.rhs = pattern(rhs->items[1], false, attr_vars);
    for (const auto& v : rule.vars) {
      std::function<bool(const Pattern&)> uses = [&](const Pattern& p) {
        return (p.is_var && p.var == v.name) || std::any_of(p.args.begin(), p.args.end(), uses);
      };
      if (!uses(rule.lhs)) fail(form.line, "variable '" + v.name + "' does not appear in the left side");
    }
    if (where)
      for (size_t i = 1; i < where->items.size(); ++i) {
        rule.where.push_back(expr(where->items[i]));
        check_symbols(rule.where.back(), attr_vars);
      }
    if (assume)
      for (size_t i = 1; i < assume->items.size(); ++i) {
        const sexpr::Node& a = assume->items[i];
        const bool finite = a.head() == "finite" && a.items.size() == 2;
        const bool bounded = a.head() == "bounded" && a.items.size() == 3 && a.items[2].is_atom();
        if ((!finite && !bounded) || !a.items[1].is_atom()) fail(a.line, "an assumption is (finite VAR) or (bounded VAR B)");
        auto v = std::find_if(rule.vars.begin(), rule.vars.end(), [&](const VarDecl& d) { return d.name == a.items[1].atom; });
        if (v == rule.vars.end()) fail(a.line, "'" + a.items[1].atom + "' is not a declared variable");
        v->finite = true;
        if (bounded) {
          char* end = nullptr;
          v->bound = std::strtod(a.items[2].atom.c_str(), &end);
          if (*end != '\0' || !(v->bound > 0)) fail(a.line, "bounded takes a positive bound, e.g. (bounded c 1e4)");
        }
      }
    const sexpr::Node& tag = numerics->items.size() == 2 ? numerics->items[1] : *numerics;
    if (tag.is_atom("exact"))
      rule.numerics = Numerics::Exact;
    else if (tag.is_atom("reassoc"))
      rule.numerics = Numerics::Reassoc;
    else if (tag.head() == "approx" && tag.items.size() == 2 && tag.items[1].is_atom()) {
      rule.numerics = Numerics::Approx;
      char* end = nullptr;
      rule.approx_bound = std::strtod(tag.items[1].atom.c_str(), &end);
      if (*end != '\0' || !(rule.approx_bound > 0)) fail(tag.line, "approx takes a positive bound, e.g. (approx 1e-3)");
    } else {
      fail(numerics->line, "numerics is exact, reassoc or (approx BOUND)");
    }
    return rule;
  }
};

template <class F>
AttrValue arith(const Expr& e, const std::vector<AttrValue>& v, F f) {
  bool any_float = false;
  for (const auto& x : v) {
    if (std::holds_alternative<std::string>(x)) throw Error("line " + std::to_string(e.line) + ": arithmetic on a name in " + e.str());
    any_float = any_float || std::holds_alternative<double>(x);
  }
  auto num = [](const AttrValue& x) { return std::holds_alternative<double>(x) ? std::get<double>(x) : static_cast<double>(std::get<int64_t>(x)); };
  if (any_float) {
    double acc = num(v[0]);
    for (size_t i = 1; i < v.size(); ++i) acc = f(acc, num(v[i]));
    return acc;
  }
  int64_t acc = std::get<int64_t>(v[0]);
  for (size_t i = 1; i < v.size(); ++i) acc = f(acc, std::get<int64_t>(v[i]));
  return acc;
}

bool truthy(const AttrValue& v) {
  if (std::holds_alternative<int64_t>(v)) return std::get<int64_t>(v) != 0;
  if (std::holds_alternative<double>(v)) return std::get<double>(v) != 0;
  return !std::get<std::string>(v).empty();
}

int compare_values(const AttrValue& a, const AttrValue& b, const Expr& e) {
  if (std::holds_alternative<std::string>(a) != std::holds_alternative<std::string>(b))
    throw Error("line " + std::to_string(e.line) + ": comparing a name with a number in " + e.str());
  if (std::holds_alternative<std::string>(a)) return std::get<std::string>(a).compare(std::get<std::string>(b));
  auto num = [](const AttrValue& x) { return std::holds_alternative<double>(x) ? std::get<double>(x) : static_cast<double>(std::get<int64_t>(x)); };
  return num(a) < num(b) ? -1 : num(a) > num(b) ? 1 : 0;
}

}  // namespace

std::string Expr::str() const {
  switch (kind) {
    case Kind::Literal:
      return format_attr(value);
    case Kind::Dim:
    case Kind::AttrVar:
      return name;
    case Kind::Call: {
      std::string s = "(" + name;
      for (const auto& a : args) s += " " + a.str();
      return s + ")";
    }
  }
  return "";
}

std::string Pattern::str() const {
  if (is_var) return var;
  std::string s = "(" + op->name;
  for (const auto& [n, v] : attrs) s += " :" + n + " " + v.str();
  for (const auto& a : args) s += " " + a.str();
  return s + ")";
}

std::string Rule::numerics_str() const {
  switch (numerics) {
    case Numerics::Exact:
      return "exact";
    case Numerics::Reassoc:
      return "reassoc";
    case Numerics::Approx: {
      std::ostringstream s;
      s << "approx " << approx_bound;
      return s.str();
    }
  }
  return "";
}

const VarDecl& Rule::var(const std::string& n) const {
  for (const auto& v : vars)
    if (v.name == n) return v;
  throw Error("rule '" + name + "' has no variable '" + n + "'");
}

std::vector<std::string> Rule::dims() const {
  std::vector<std::string> out;
  for (const auto& v : vars)
    for (const auto& d : v.shape)
      if (d.kind == Expr::Kind::Dim && std::find(out.begin(), out.end(), d.name) == out.end()) out.push_back(d.name);
  return out;
}

std::vector<std::string> Rule::shape_symbols() const {
  std::vector<std::string> out;
  for (const auto& v : vars)
    if (!v.shape_symbol.empty() && std::find(out.begin(), out.end(), v.shape_symbol) == out.end()) out.push_back(v.shape_symbol);
  return out;
}

std::vector<std::string> Rule::attr_vars() const {
  std::vector<std::string> out;
  std::function<void(const Pattern&)> walk = [&](const Pattern& p) {
    for (const auto& [n, e] : p.attrs)
      if (e.kind == Expr::Kind::AttrVar && std::find(out.begin(), out.end(), e.name) == out.end()) out.push_back(e.name);
    for (const auto& a : p.args) walk(a);
  };
  walk(lhs);
  return out;
}

const AttrSpec& Rule::attr_var_spec(const std::string& v) const {
  const AttrSpec* found = nullptr;
  std::function<void(const Pattern&)> walk = [&](const Pattern& p) {
    for (const auto& [n, e] : p.attrs)
      if (!found && e.kind == Expr::Kind::AttrVar && e.name == v)
        for (const auto& s : p.op->attrs)
          if (s.name == n) found = &s;
    for (const auto& a : p.args) walk(a);
  };
  walk(lhs);
  if (!found) throw Error("rule '" + name + "': attribute variable " + v + " is not bound by the left side");
  return *found;
}

std::string Binding::str() const {
  std::string s;
  for (const auto& [k, v] : dims) s += (s.empty() ? "" : " ") + k + "=" + std::to_string(v);
  for (const auto& [k, v] : shapes) s += (s.empty() ? "" : " ") + k + "=" + graph::shape_text(v);
  for (const auto& [k, v] : attrs) s += (s.empty() ? "" : " ") + k + "=" + format_attr(v);
  return s;
}

AttrValue eval_expr(const Expr& e, const Binding& b) {
  switch (e.kind) {
    case Expr::Kind::Literal:
      return e.value;
    case Expr::Kind::Dim: {
      auto it = b.dims.find(e.name);
      if (it == b.dims.end()) throw Error("line " + std::to_string(e.line) + ": dimension " + e.name + " is not bound");
      return it->second;
    }
    case Expr::Kind::AttrVar: {
      auto it = b.attrs.find(e.name);
      if (it == b.attrs.end()) throw Error("line " + std::to_string(e.line) + ": " + e.name + " is not bound");
      return it->second;
    }
    case Expr::Kind::Call:
      break;
  }
  const std::string& op = e.name;
  if (op == "and") return int64_t{std::all_of(e.args.begin(), e.args.end(), [&](const Expr& a) { return eval_condition(a, b); })};
  if (op == "or") return int64_t{std::any_of(e.args.begin(), e.args.end(), [&](const Expr& a) { return eval_condition(a, b); })};
  if (op == "not") return int64_t{!eval_condition(e.args[0], b)};
  std::vector<AttrValue> v;
  for (const auto& a : e.args) v.push_back(eval_expr(a, b));
  if (op == "shape") {  // dimensions as a shape attribute's text: (shape n (* c h w)) -> "2,12"
    std::string text;
    for (const auto& x : v) {
      if (!std::holds_alternative<int64_t>(x)) throw Error("line " + std::to_string(e.line) + ": (shape ...) takes integers: " + e.str());
      text += (text.empty() ? "" : ",") + std::to_string(std::get<int64_t>(x));
    }
    return text;
  }
  if (op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=") {
    if (v.size() != 2) throw Error("line " + std::to_string(e.line) + ": " + op + " takes two operands");
    const int c = compare_values(v[0], v[1], e);
    const bool r = op == "==" ? c == 0 : op == "!=" ? c != 0 : op == "<" ? c < 0 : op == "<=" ? c <= 0 : op == ">" ? c > 0 : c >= 0;
    return int64_t{r};
  }
  if (op == "-" && v.size() == 1) v.insert(v.begin(), AttrValue{int64_t{0}});
  if (op == "+") return arith(e, v, [](auto x, auto y) { return x + y; });
  if (op == "-") return arith(e, v, [](auto x, auto y) { return x - y; });
  if (op == "*") return arith(e, v, [](auto x, auto y) { return x * y; });
  if (op == "/" || op == "%") {
    for (size_t i = 1; i < v.size(); ++i)
      if (!truthy(v[i])) throw Error("line " + std::to_string(e.line) + ": division by zero in " + e.str());
    if (op == "/") return arith(e, v, [](auto x, auto y) { return x / y; });
    return arith(e, v, [](auto x, auto y) {
      if constexpr (std::is_same_v<decltype(x), double>)
        return std::fmod(x, y);
      else
        return x % y;
    });
  }
  throw Error("line " + std::to_string(e.line) + ": unknown operator " + op);
}

bool eval_condition(const Expr& e, const Binding& b) { return truthy(eval_expr(e, b)); }

std::vector<Rule> parse_rules(const std::string& text, const std::string& file) {
  std::vector<Rule> rules;
  for (const auto& form : sexpr::parse(text, file)) {
    Parser p{file, {}, {}, {}};
    rules.push_back(p.parse(form));
    for (size_t i = 0; i + 1 < rules.size(); ++i)
      if (rules[i].name == rules.back().name)
        throw Error(file + ":" + std::to_string(form.line) + ": rule '" + rules.back().name + "' is defined twice (first at line " +
                    std::to_string(rules[i].line) + ")");
  }
  return rules;
}

std::vector<Rule> load_rules(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot read rules file '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_rules(ss.str(), path);
}

std::string default_rules_path() { return PLUMBLINE_RULES_FILE; }

}  // namespace plumbline::egraph
