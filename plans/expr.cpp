#include "plans/expr.hpp"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>

#include "core/error.hpp"
#include "core/text.hpp"

namespace plumbline::plans {

// A parsed expression: a number, a name, a function call, or an operator over its operands.
struct Node {
  enum class Kind { Int, Float, Name, Call, Unary, Binary, Ternary } kind;
  std::string text;  // the operator, the name or the function
  int64_t i = 0;
  double f = 0;
  std::vector<std::shared_ptr<const Node>> args;
};

namespace {

using NodeP = std::shared_ptr<const Node>;

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  NodeP parse() {
    NodeP n = ternary();
    skip();
    if (pos_ != s_.size()) fail("unexpected '" + s_.substr(pos_) + "'");
    return n;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw Error("expression '" + s_ + "': " + why); }

  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(const std::string& tok) {
    skip();
    if (s_.compare(pos_, tok.size(), tok) != 0) return false;
    // "<" must not take the first half of "<=", nor "=" of "==" and so on.
    if ((tok == "<" || tok == ">" || tok == "!") && pos_ + 1 < s_.size() && s_[pos_ + 1] == '=') return false;
    pos_ += tok.size();
    return true;
  }
  static NodeP make(Node::Kind k, std::string text, std::vector<NodeP> args = {}) {
    auto n = std::make_shared<Node>();
    n->kind = k;
    n->text = std::move(text);
    n->args = std::move(args);
    return n;
  }

  NodeP ternary() {
    NodeP c = binary(0);
    if (!eat("?")) return c;
    NodeP a = ternary();
    if (!eat(":")) fail("'?' without its ':'");
    NodeP b = ternary();
    return make(Node::Kind::Ternary, "?:", {c, a, b});
  }

  // Precedence climbing over C's levels: || && (== !=) (< <= > >=) (+ -) (* / %).
  NodeP binary(int level) {
    static const std::vector<std::vector<std::string>> levels{{"||"}, {"&&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"+", "-"}, {"*", "/", "%"}};
    if (level == static_cast<int>(levels.size())) return unary();
    NodeP left = binary(level + 1);
    for (;;) {
      std::string op;
      for (const auto& o : levels[static_cast<size_t>(level)])
        if (eat(o)) {
          op = o;
          break;
        }
      if (op.empty()) return left;
      left = make(Node::Kind::Binary, op, {left, binary(level + 1)});
    }
  }

  NodeP unary() {
    if (eat("-")) return make(Node::Kind::Unary, "-", {unary()});
    if (eat("!")) return make(Node::Kind::Unary, "!", {unary()});
    if (eat("+")) return unary();
    return primary();
  }

  NodeP primary() {
    skip();
    if (pos_ >= s_.size()) fail("ends where a value was expected");
    if (eat("(")) {
      NodeP n = ternary();
      if (!eat(")")) fail("missing ')'");
      return n;
    }
    const char c = s_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      size_t end = pos_;
      while (end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '.')) ++end;
      const std::string tok = s_.substr(pos_, end - pos_);
      pos_ = end;
      auto n = std::make_shared<Node>();
      if (tok.find_first_of(".eE") == std::string::npos) {
        n->kind = Node::Kind::Int;
        auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), n->i);
        if (ec != std::errc() || p != tok.data() + tok.size()) fail("'" + tok + "' is not an integer (or too large)");
      } else {
        std::string t = tok;
        if (!t.empty() && (t.back() == 'f' || t.back() == 'F')) t.pop_back();
        n->kind = Node::Kind::Float;
        auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), n->f);
        if (ec != std::errc() || p != t.data() + t.size()) fail("'" + tok + "' is not a number");
      }
      n->text = tok;
      return n;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t end = pos_;
      while (end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_')) ++end;
      const std::string name = s_.substr(pos_, end - pos_);
      pos_ = end;
      if (!eat("(")) return make(Node::Kind::Name, name);
      std::vector<NodeP> args;
      if (!eat(")")) {
        do args.push_back(ternary());
        while (eat(","));
        if (!eat(")")) fail("missing ')' after the arguments of " + name);
      }
      check_call(name, args);
      return make(Node::Kind::Call, name, std::move(args));
    }
    fail("unexpected '" + std::string(1, c) + "'");
  }

  void check_call(const std::string& f, const std::vector<NodeP>& args) const {
    auto want = [&](size_t n) {
      if (args.size() != n) fail(f + "() takes " + std::to_string(n) + " arguments, got " + std::to_string(args.size()));
    };
    if (f == "cdiv" || f == "roundup") {
      want(2);
    } else if (f == "min" || f == "max") {
      if (args.size() < 2) fail(f + "() takes at least 2 arguments");
    } else if (f == "numel" || f == "dim") {
      want(f == "numel" ? 1 : 2);
      if (args[0]->kind != Node::Kind::Name) fail(f + "() takes a tensor's name first");
    } else {
      fail("unknown function '" + f + "' (known: cdiv, roundup, min, max, numel, dim)");
    }
  }

  std::string s_;
  size_t pos_ = 0;
};

class Evaluator {
 public:
  Evaluator(const Env& env, const std::string& text) : env_(env), text_(text) {}

  Value eval(const Node& n) const {
    switch (n.kind) {
      case Node::Kind::Int:
        return {n.i};
      case Node::Kind::Float:
        return {n.f};
      case Node::Kind::Name: {
        std::optional<Value> v = env_.value ? env_.value(n.text) : std::nullopt;
        if (!v) fail("unknown name '" + n.text + "'");
        return *v;
      }
      case Node::Kind::Unary: {
        const int64_t a = integer(*n.args[0]);
        if (n.text == "!") return {int64_t{a == 0}};
        if (a == INT64_MIN) fail("overflow in -" + std::to_string(a));
        return {-a};
      }
      case Node::Kind::Ternary:
        return integer(*n.args[0]) ? eval(*n.args[1]) : eval(*n.args[2]);
      case Node::Kind::Binary:
        return {binary(n)};
      case Node::Kind::Call:
        return {call(n)};
    }
    fail("bad node");
  }

  int64_t integer(const Node& n) const {
    const Value v = eval(n);
    if (!v.is_int()) fail("'" + (n.kind == Node::Kind::Name ? n.text : v.str()) + "' is a float: only integers take part in arithmetic");
    return v.i();
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw Error("expression '" + text_ + "': " + why); }

  int64_t binary(const Node& n) const {
    const std::string& op = n.text;
    // && and || evaluate their right side only when needed, as in C (a guard before a division).
    if (op == "&&") return integer(*n.args[0]) && integer(*n.args[1]);
    if (op == "||") return integer(*n.args[0]) || integer(*n.args[1]);
    const int64_t a = integer(*n.args[0]), b = integer(*n.args[1]);
    int64_t r = 0;
    if (op == "+" && !__builtin_add_overflow(a, b, &r)) return r;
    if (op == "-" && !__builtin_sub_overflow(a, b, &r)) return r;
    if (op == "*" && !__builtin_mul_overflow(a, b, &r)) return r;
    if (op == "/" || op == "%") {
      if (b == 0) fail("division by zero (" + std::to_string(a) + " " + op + " 0)");
      if (a == INT64_MIN && b == -1) fail("overflow");
      return op == "/" ? a / b : a % b;
    }
    if (op == "==") return a == b;
    if (op == "!=") return a != b;
    if (op == "<") return a < b;
    if (op == "<=") return a <= b;
    if (op == ">") return a > b;
    if (op == ">=") return a >= b;
    fail("overflow in " + std::to_string(a) + " " + op + " " + std::to_string(b));
  }

  int64_t call(const Node& n) const {
    const std::string& f = n.text;
    if (f == "numel" || f == "dim") {
      const std::string& t = n.args[0]->text;
      const std::optional<Shape> s = env_.tensor ? env_.tensor(t) : std::nullopt;
      if (!s) fail("unknown tensor '" + t + "'");
      if (f == "numel") return s->numel();
      const int64_t i = integer(*n.args[1]);
      if (i < 0 || i >= s->rank())
        fail("dim(" + t + ", " + std::to_string(i) + "): " + t + " has rank " + std::to_string(s->rank()) + " " + s->str());
      return (*s)[static_cast<int>(i)];
    }
    std::vector<int64_t> v;
    for (const auto& a : n.args) v.push_back(integer(*a));
    if (f == "min" || f == "max") {
      int64_t r = v[0];
      for (int64_t x : v) r = f == "min" ? std::min(r, x) : std::max(r, x);
      return r;
    }
    // cdiv and roundup: of a non-negative count by a positive divisor.
    if (v[1] <= 0) fail(f + "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + "): the divisor must be positive");
    if (v[0] < 0) fail(f + "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + "): the count must not be negative");
    const int64_t q = v[0] / v[1] + (v[0] % v[1] != 0);
    int64_t r = q;
    if (f == "roundup" && __builtin_mul_overflow(q, v[1], &r)) fail("overflow in roundup");
    return r;
  }

  const Env& env_;
  const std::string& text_;
};

void collect(const Node& n, bool tensors, std::set<std::string>& out) {
  if (n.kind == Node::Kind::Name && !tensors) out.insert(n.text);
  if (n.kind == Node::Kind::Call && (n.text == "numel" || n.text == "dim")) {
    if (tensors) out.insert(n.args[0]->text);
    for (size_t i = 1; i < n.args.size(); ++i) collect(*n.args[i], tensors, out);
    return;
  }
  for (const auto& a : n.args) collect(*a, tensors, out);
}

// The text of a subtree, for the expressions conjuncts() and relation() hand out (re-parsable).
std::string render(const Node& n) {
  switch (n.kind) {
    case Node::Kind::Int:
    case Node::Kind::Float:
    case Node::Kind::Name:
      return n.text;
    case Node::Kind::Unary:
      return n.text + "(" + render(*n.args[0]) + ")";
    case Node::Kind::Ternary:
      return "(" + render(*n.args[0]) + " ? " + render(*n.args[1]) + " : " + render(*n.args[2]) + ")";
    case Node::Kind::Binary:
      return "(" + render(*n.args[0]) + " " + n.text + " " + render(*n.args[1]) + ")";
    case Node::Kind::Call: {
      std::string s = n.text + "(";
      for (size_t i = 0; i < n.args.size(); ++i) s += (i ? ", " : "") + render(*n.args[i]);
      return s + ")";
    }
  }
  return "";
}

}  // namespace

std::string Value::str() const {
  if (is_int()) return std::to_string(i());
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", f());
  return buf;
}

Expr Expr::parse(const std::string& text) {
  const std::string t = trim(text);
  if (t.empty()) throw Error("an empty expression");
  return Expr(Parser(t).parse(), t);
}

Value Expr::eval(const Env& env) const {
  if (!root_) throw Error("evaluating an empty expression");
  return Evaluator(env, text_).eval(*root_);
}

int64_t Expr::eval_int(const Env& env) const {
  if (!root_) throw Error("evaluating an empty expression");
  return Evaluator(env, text_).integer(*root_);
}

std::set<std::string> Expr::names() const {
  std::set<std::string> s;
  if (root_) collect(*root_, false, s);
  return s;
}

std::set<std::string> Expr::tensors() const {
  std::set<std::string> s;
  if (root_) collect(*root_, true, s);
  return s;
}

std::vector<Expr> Expr::conjuncts() const {
  std::vector<Expr> out;
  std::function<void(const NodeP&)> walk = [&](const NodeP& n) {
    if (n->kind == Node::Kind::Binary && n->text == "&&") {
      walk(n->args[0]);
      walk(n->args[1]);
    } else {
      out.push_back(Expr(n, render(*n)));
    }
  };
  if (root_) walk(root_);
  return out;
}

std::optional<Relation> Expr::relation() const {
  if (!root_ || root_->kind != Node::Kind::Binary) return std::nullopt;
  static const std::set<std::string> cmp{"==", "!=", "<", "<=", ">", ">="};
  const std::string& op = root_->text;
  if (!cmp.count(op)) return std::nullopt;
  const NodeP &l = root_->args[0], &r = root_->args[1];
  // NAME % M == 0
  if (op == "==" && l->kind == Node::Kind::Binary && l->text == "%" && l->args[0]->kind == Node::Kind::Name && r->kind == Node::Kind::Int &&
      r->i == 0)
    return Relation{l->args[0]->text, "%0", Expr(l->args[1], render(*l->args[1]))};
  if (l->kind == Node::Kind::Name) return Relation{l->text, op, Expr(r, render(*r))};
  if (r->kind == Node::Kind::Name) {
    static const std::map<std::string, std::string> flip{{"==", "=="}, {"!=", "!="}, {"<", ">"}, {"<=", ">="}, {">", "<"}, {">=", "<="}};
    return Relation{r->text, flip.at(op), Expr(l, render(*l))};
  }
  return std::nullopt;
}

std::vector<std::string> split_top_level(const std::string& text, char sep) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == sep && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  out.push_back(trim(cur));
  return out;
}

}  // namespace plumbline::plans
