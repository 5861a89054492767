#pragma once
// S-expressions with line numbers: the syntax of the rules file. Atoms are any run of characters other
// than whitespace, parentheses and ';' (which starts a comment to the end of the line).
#include <string>
#include <vector>

namespace plumbline::sexpr {

struct Node {
  bool is_list = false;
  std::string atom;         // atoms only
  std::vector<Node> items;  // lists only
  int line = 0;             // where it starts (1-based)

  bool is_atom() const { return !is_list; }
  bool is_atom(const std::string& text) const { return !is_list && atom == text; }
  // The list's first atom ("" when empty or not an atom).
  const std::string& head() const;
  std::string str() const;  // printed back, on one line
};

// Parses every top-level form of `text`. Throws Error("FILE:LINE: ...") on unbalanced parentheses.
std::vector<Node> parse(const std::string& text, const std::string& file);

}  // namespace plumbline::sexpr
