#pragma once
// A problem: one operator with all of its attributes. Printed and parsed as one line,
//   conv2d_bwd_data:n=2,c=3,h=7,w=7,k=4,r=3,s=3,sh=2,sw=2,ph=1,pw=1,dh=1,dw=1,g=1,bias=0
// The canonical line lists every attribute in the operator's order; parsing accepts any order and
// fills omitted attributes with their defaults. See docs/problems.md.
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace plumbline {

using AttrValue = std::variant<int64_t, double, std::string>;

class Problem {
 public:
  Problem() = default;

  // Parses and validates (attribute kinds, ranges, shape inference). Throws Error naming what is wrong.
  static Problem parse(const std::string& line);
  // A problem of `op` with every attribute at its default, then `overrides` applied (validated).
  static Problem make(const std::string& op, const std::vector<std::pair<std::string, AttrValue>>& overrides = {});

  const std::string& op() const { return op_; }
  std::string line() const;  // canonical form: parse(line()).line() == line()

  int64_t i(const std::string& name) const;
  double f(const std::string& name) const;
  const std::string& s(const std::string& name) const;
  bool has(const std::string& name) const;

  // The same attributes under another operator of the same attribute set (forward <-> backward).
  Problem as(const std::string& op) const;
  // Replaces one attribute and re-validates.
  Problem with(const std::string& name, AttrValue value) const;

  const std::vector<std::pair<std::string, AttrValue>>& attrs() const { return attrs_; }
  bool operator==(const Problem&) const = default;

 private:
  void validate() const;
  const AttrValue& get(const std::string& name) const;

  std::string op_;
  std::vector<std::pair<std::string, AttrValue>> attrs_;  // in the operator's attribute order
};

std::string format_attr(const AttrValue& v);  // shortest text that parses back to the same value

}  // namespace plumbline
