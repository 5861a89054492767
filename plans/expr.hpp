#pragma once
// The expressions of launch plans (docs/kernel-abi.md): integers, names (attributes, defines),
// + - * / % with C's integer meaning, comparisons, && || !, c ? a : b, and the functions cdiv(a,b),
// roundup(a,b), min(...), max(...), numel(TENSOR) and dim(TENSOR, i). Values are 64-bit integers;
// a float attribute (eps) or literal may stand alone as a kernel argument but takes no part in
// arithmetic. Overflow and division by zero are errors that quote the expression.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "core/shape.hpp"

namespace plumbline::plans {

// An integer, or a float for a float attribute or literal.
struct Value {
  std::variant<int64_t, double> v;
  bool is_int() const { return std::holds_alternative<int64_t>(v); }
  int64_t i() const { return std::get<int64_t>(v); }
  double f() const { return is_int() ? static_cast<double>(i()) : std::get<double>(v); }
  std::string str() const;
};

// What names mean while an expression is evaluated: values, and tensors for numel() and dim().
struct Env {
  std::function<std::optional<Value>(const std::string&)> value;
  std::function<std::optional<Shape>(const std::string&)> tensor;
};

struct Node;

class Expr {
 public:
  Expr() = default;
  // Parses `text`; throws Error("expression 'TEXT': ...") on a syntax error.
  static Expr parse(const std::string& text);

  Value eval(const Env& env) const;        // Error quoting the expression on an unknown name, overflow, x/0
  int64_t eval_int(const Env& env) const;  // and a float result is an error
  bool empty() const { return !root_; }
  const std::string& text() const { return text_; }

  // The names the expression reads as values, and those it reads as tensors (numel, dim).
  std::set<std::string> names() const;
  std::set<std::string> tensors() const;

  // The top-level operands of && (the whole expression when it is no conjunction); for steering.
  std::vector<Expr> conjuncts() const;
  // When the expression is NAME OP RHS or RHS OP NAME with OP a comparison (or NAME % M == 0),
  // its parts with NAME on the left.
  std::optional<struct Relation> relation() const;

 private:
  Expr(std::shared_ptr<const Node> root, std::string text) : root_(std::move(root)), text_(std::move(text)) {}
  std::shared_ptr<const Node> root_;
  std::string text_;
};

// NAME OP RHS, op one of == != < <= > >= and %0 (NAME % RHS == 0).
struct Relation {
  std::string name, op;
  Expr rhs;
};

// Splits "a, f(b, c), d" at its top-level commas (not inside parentheses), trimming each part.
std::vector<std::string> split_top_level(const std::string& text, char sep = ',');

}  // namespace plumbline::plans
