#include "mutants/systematic.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/error.hpp"
#include "plans/library.hpp"

namespace plumbline::mutants {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::stringstream ss(text);
  std::string l;
  while (std::getline(ss, l)) v.push_back(l);
  return v;
}

}  // namespace

std::string Mutation::id() const { return file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + from + " -> " + to; }

std::vector<Mutation> enumerate_mutations(const std::string& kernel_dir) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(kernel_dir)) {
    const std::string name = e.path().filename().string();
    if ((e.path().extension() == ".cl" || e.path().extension() == ".h") && name != "calibration.cl") files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  static const std::vector<std::tuple<std::string, std::string, std::string>> swaps{{" + ", " - ", "operator swap"},
                                                                                    {" - ", " + ", "operator swap"},
                                                                                    {" * ", " + ", "operator swap"},
                                                                                    {" && ", " || ", "operator swap"},
                                                                                    {" || ", " && ", "operator swap"},
                                                                                    {" == ", " != ", "operator swap"},
                                                                                    {" != ", " == ", "operator swap"},
                                                                                    {" < ", " <= ", "boundary"},
                                                                                    {" <= ", " < ", "boundary"},
                                                                                    {" > ", " >= ", "boundary"},
                                                                                    {" >= ", " > ", "boundary"},
                                                                                    {"get_global_id(0)", "get_global_id(1)", "swapped index"},
                                                                                    {"get_global_id(1)", "get_global_id(0)", "swapped index"},
                                                                                    {"get_local_id(0)", "get_local_id(1)", "swapped index"},
                                                                                    {"get_local_id(1)", "get_local_id(0)", "swapped index"},
                                                                                    {"get_group_id(0)", "get_group_id(1)", "swapped index"},
                                                                                    {"get_group_id(1)", "get_group_id(0)", "swapped index"}};
  static const std::regex int_literal(R"((^|[^\w.])(\d+)(?![\w.]))"), float_literal(R"((^|[^\w.])(\d+\.\d*)f)");
  std::vector<Mutation> out;
  for (const auto& file : files) {
    const auto lines = lines_of(read(kernel_dir + "/" + file));
    for (size_t li = 0; li < lines.size(); ++li) {
      std::string code = lines[li];
      const size_t comment = code.find("//");
      if (comment != std::string::npos) code.resize(comment);
      const size_t first = code.find_first_not_of(" \t");
      if (first == std::string::npos || code[first] == '#' || code.find("__attribute__") != std::string::npos) continue;
      auto add = [&](size_t col, const std::string& from, const std::string& to, const std::string& kind) {
        out.push_back({file, static_cast<int>(li + 1), col, from, to, kind});
      };
      for (const auto& [from, to, kind] : swaps)
        for (size_t at = code.find(from); at != std::string::npos; at = code.find(from, at + 1)) add(at, from, to, kind);
      for (auto it = std::sregex_iterator(code.begin(), code.end(), int_literal); it != std::sregex_iterator(); ++it) {
        const auto& m = *it;
        const std::string lit = m[2].str();
        add(static_cast<size_t>(m.position(2)), lit, std::to_string(std::stoll(lit) + 1), "constant");
      }
      for (auto it = std::sregex_iterator(code.begin(), code.end(), float_literal); it != std::sregex_iterator(); ++it) {
        const auto& m = *it;
        std::ostringstream twice;  // 2x, or 1 for a zero (2 * 0 would change nothing)
        const double v = std::stod(m[2].str());
        twice << (v == 0 ? 1.0 : 2 * v);
        std::string t = twice.str();
        if (t.find('.') == std::string::npos && t.find('e') == std::string::npos) t += ".0";
        add(static_cast<size_t>(m.position(2)), m[2].str() + "f", t + "f", "constant");
      }
    }
  }
  return out;
}

std::string apply(const std::string& source, const Mutation& m) {
  auto lines = lines_of(source);
  std::string& l = lines.at(static_cast<size_t>(m.line - 1));
  if (m.column > l.size() || l.compare(m.column, m.from.size(), m.from) != 0)  // the file changed since the mutants were listed
    throw Error("mutation " + m.id() + " does not match its source line");
  l.replace(m.column, m.from.size(), m.to);
  std::string out;
  for (const auto& x : lines) out += x + "\n";
  return out;
}

namespace {

// Whether `file` is `top` or reaches it through #include lines (followed transitively).
bool includes(const std::string& kernel_dir, const std::string& top, const std::string& file, int depth = 0) {
  if (top == file) return true;
  if (depth > 8) return false;
  static const std::regex include(R"re(^\s*#include "([^"]+)")re");
  std::stringstream ss(read(kernel_dir + "/" + top));
  for (std::string line; std::getline(ss, line);) {
    std::smatch m;
    if (std::regex_search(line, m, include) && includes(kernel_dir, m[1].str(), file, depth + 1)) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> ops_using(const std::string& kernel_dir, const std::string& file) {
  std::vector<std::string> ops;
  for (const auto& op : plans::ops_with_plans())
    for (const auto& v : plans::our_variants(op))
      if (includes(kernel_dir, v.file, file)) {
        ops.push_back(op);
        break;
      }
  return ops;
}

std::map<std::string, std::string> load_equivalent(const std::string& path) {
  std::map<std::string, std::string> eq;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t bar = line.find(" | ");
    if (bar == std::string::npos) throw Error(path + ": a line is 'ID | argument'");
    eq[line.substr(0, bar)] = line.substr(bar + 3);
  }
  return eq;
}

}  // namespace plumbline::mutants
