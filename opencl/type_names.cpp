#include "opencl/type_names.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>
#include <vector>

#include "core/error.hpp"
#include "plans/expr.hpp"

namespace plumbline::ocl {

namespace {

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// An #if condition with `defined` and the macros replaced, the C way: an unknown name is 0.
bool holds(std::string cond, const std::map<std::string, std::string>& macros) {
  static const std::regex defined(R"(defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+))");
  std::string out;
  auto begin = std::sregex_iterator(cond.begin(), cond.end(), defined);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1].matched ? (*it)[1].str() : (*it)[2].str();
    out += cond.substr(last, static_cast<size_t>(it->position()) - last) + (macros.count(name) ? " 1 " : " 0 ");
    last = static_cast<size_t>(it->position() + it->length());
  }
  cond = out + cond.substr(last);
  for (int depth = 0; depth < 16; ++depth) {  // macros that name macros
    std::string next;
    int replaced = 0;
    for (size_t i = 0; i < cond.size();) {
      if (!identifier_char(cond[i]) || std::isdigit(static_cast<unsigned char>(cond[i]))) {
        // a number with its suffix (1U, 32L) stays one token
        if (std::isdigit(static_cast<unsigned char>(cond[i]))) {
          size_t j = i;
          while (j < cond.size() && identifier_char(cond[j])) ++j;
          std::string number = cond.substr(i, j - i);
          while (!number.empty() && (number.back() == 'u' || number.back() == 'U' || number.back() == 'l' || number.back() == 'L')) number.pop_back();
          next += number;
          i = j;
          continue;
        }
        next += cond[i++];
        continue;
      }
      size_t j = i;
      while (j < cond.size() && identifier_char(cond[j])) ++j;
      const std::string name = cond.substr(i, j - i);
      const auto m = macros.find(name);
      next += m != macros.end() ? " (" + (m->second.empty() ? std::string("1") : m->second) + ") " : " 0 ";
      ++replaced;
      i = j;
    }
    cond = next;
    if (replaced == 0) break;
  }
  try {
    return plans::Expr::parse(cond).eval_int(plans::Env{}) != 0;
  } catch (const Error&) {
    return false;  // a condition this reading cannot evaluate (floats, casts): its branch is not read
  }
}

// `unsigned short` -> `ushort`, as OpenCL spells the built-in types.
std::string builtin_spelling(std::string t) {
  t = trim(t);
  for (const char* u : {"unsigned char", "unsigned short", "unsigned int", "unsigned long"})
    if (t.rfind(u, 0) == 0) t = "u" + t.substr(9);
  t.erase(std::remove_if(t.begin(), t.end(), [](char c) { return c == ' ' || c == '\t'; }), t.end());
  return t;
}

}  // namespace

TypeNames::TypeNames(const std::string& source, const std::string& options) {
  std::map<std::string, std::string> macros;
  {  // -DNAME=VALUE and -DNAME from the build options
    std::istringstream in(options);
    for (std::string word; in >> word;) {
      if (word.rfind("-D", 0) != 0) continue;
      if (word.size() == 2 && !(in >> word)) break;  // "-D NAME"
      const std::string def = word.rfind("-D", 0) == 0 ? word.substr(2) : word;
      const size_t eq = def.find('=');
      macros[def.substr(0, eq)] = eq == std::string::npos ? "1" : def.substr(eq + 1);
    }
  }
  struct Branch {
    bool outer, active, taken;  // the enclosing region's state; this branch's; whether one was taken
  };
  std::vector<Branch> stack;
  auto active = [&] { return stack.empty() || stack.back().active; };
  static const std::regex typedef_re(R"(typedef\s+([A-Za-z_][\w\s]*?)\s+([A-Za-z_]\w*)\s*;)");
  std::istringstream in(source);
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && line.back() == '\\') {  // continued lines
      std::string more;
      if (!std::getline(in, more)) break;
      line.pop_back();
      line += more;
    }
    const std::string t = trim(line.substr(0, line.find("//")));
    if (!t.empty() && t[0] == '#') {
      std::string d = trim(t.substr(1));
      const size_t sp = d.find_first_of(" \t");
      const std::string key = d.substr(0, sp), rest = sp == std::string::npos ? "" : trim(d.substr(sp));
      if (key == "if" || key == "ifdef" || key == "ifndef") {
        const bool outer = active();
        const bool h = key == "if" ? holds(rest, macros) : (macros.count(trim(rest)) > 0) == (key == "ifdef");
        stack.push_back({outer, outer && h, h});
      } else if (key == "elif" && !stack.empty()) {
        Branch& b = stack.back();
        const bool h = !b.taken && holds(rest, macros);
        b.active = b.outer && h;
        b.taken = b.taken || h;
      } else if (key == "else" && !stack.empty()) {
        Branch& b = stack.back();
        b.active = b.outer && !b.taken;
        b.taken = true;
      } else if (key == "endif" && !stack.empty()) {
        stack.pop_back();
      } else if (key == "define" && active()) {
        size_t n = 0;
        while (n < rest.size() && identifier_char(rest[n])) ++n;
        if (n > 0 && (n == rest.size() || rest[n] != '(')) {  // object-like only
          macros[rest.substr(0, n)] = trim(rest.substr(n));
          names_[rest.substr(0, n)] = builtin_spelling(rest.substr(n));
        }
      } else if (key == "undef" && active()) {
        macros.erase(trim(rest));
        names_.erase(trim(rest));
      }
      continue;
    }
    if (!active() || t.find("typedef") == std::string::npos || t.find('{') != std::string::npos) continue;
    for (auto it = std::sregex_iterator(t.begin(), t.end(), typedef_re); it != std::sregex_iterator(); ++it)
      names_[(*it)[2].str()] = builtin_spelling((*it)[1].str());
  }
}

void TypeNames::declare(const std::map<std::string, std::string>& declared) {
  for (const auto& [name, type] : declared) names_[name] = builtin_spelling(type);
}

std::string TypeNames::resolve(const std::string& type) const {
  std::string base = type, stars;
  while (!base.empty() && base.back() == '*') stars += '*', base.pop_back();
  for (int depth = 0; depth < 16; ++depth) {
    const auto it = names_.find(base);
    if (it == names_.end() || it->second == base) break;
    base = it->second;
    while (!base.empty() && base.back() == '*') stars += '*', base.pop_back();
  }
  return base + stars;
}

}  // namespace plumbline::ocl
