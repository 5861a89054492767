#include "egraph/sexpr.hpp"

#include "core/error.hpp"

namespace plumbline::sexpr {

const std::string& Node::head() const {
  static const std::string empty;
  return is_list && !items.empty() && items[0].is_atom() ? items[0].atom : empty;
}

std::string Node::str() const {
  if (!is_list) return atom;
  std::string s = "(";
  for (size_t i = 0; i < items.size(); ++i) s += (i ? " " : "") + items[i].str();
  return s + ")";
}

std::vector<Node> parse(const std::string& text, const std::string& file) {
  std::vector<Node> top;
  std::vector<Node> open;  // lists not closed yet, innermost last
  int line = 1;
  auto emit = [&](Node n) { (open.empty() ? top : open.back().items).push_back(std::move(n)); };
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\n') {
      ++line, ++i;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
    } else if (c == ';') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '(') {
      Node n;
      n.is_list = true;
      n.line = line;
      open.push_back(std::move(n));
      ++i;
    } else if (c == ')') {
      if (open.empty()) throw Error(file + ":" + std::to_string(line) + ": unexpected ')'");
      Node n = std::move(open.back());
      open.pop_back();
      emit(std::move(n));
      ++i;
    } else {
      Node n;
      n.line = line;
      while (i < text.size() && std::string(" \t\r\n();").find(text[i]) == std::string::npos) n.atom += text[i++];
      emit(std::move(n));
    }
  }
  if (!open.empty()) throw Error(file + ":" + std::to_string(open.back().line) + ": '(' is never closed");
  return top;
}

}  // namespace plumbline::sexpr
