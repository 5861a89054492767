#include "bench/batch.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace plumbline::bench {

namespace {

namespace fs = std::filesystem;

// The modifiers in effect: each problem after them is expanded into one per operator and format.
struct Modifiers {
  std::vector<std::string> ops;     // `ops A,B`: the problem's attributes as each of these operators
  std::vector<std::string> dtypes;  // `dtype f16,bf16`: the problem in each format (lines naming none)
};

std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

// The attributes part of a problem line ("" when it names none).
std::string attributes_of(const std::string& line) {
  const size_t colon = line.find(':');
  return colon == std::string::npos ? "" : line.substr(colon + 1);
}

void expand(const std::string& line, const Modifiers& m, const std::string& where, std::vector<BatchEntry>& out, const std::string& file, int n,
            const std::string& name) {
  const std::vector<std::string> ops = m.ops.empty() ? std::vector<std::string>{line.substr(0, line.find(':'))} : m.ops;
  for (const auto& op : ops) {
    const std::string attrs = attributes_of(line);
    const std::string base = op + (attrs.empty() ? "" : ":" + attrs);
    const bool names_dtype = (":" + attrs).find(",dtype=") != std::string::npos || (":" + attrs).find(":dtype=") != std::string::npos;
    const std::vector<std::string> dtypes = m.dtypes.empty() || names_dtype ? std::vector<std::string>{""} : m.dtypes;
    for (const auto& d : dtypes) {
      const std::string text = d.empty() || d == "f32" ? base : base + (attrs.empty() ? ":" : ",") + "dtype=" + d;
      try {
        out.push_back({Problem::parse(text), file, n, name});
      } catch (const Error& e) {
        throw Error(where + ": " + e.what() + (text == line ? "" : " (the line '" + line + "' as '" + text + "')"));
      }
    }
  }
}

void read_into(const std::string& path, std::vector<BatchEntry>& out, std::vector<std::string>& open) {
  const std::string canonical = fs::weakly_canonical(path).string();
  if (std::find(open.begin(), open.end(), canonical) != open.end()) throw Error("batch file '" + path + "' includes itself");
  std::ifstream in(path);
  if (!in) throw Error("cannot read batch file '" + path + "'");
  open.push_back(canonical);
  Modifiers m;
  std::string text;
  for (int n = 1; std::getline(in, text); ++n) {
    const size_t hash = text.find('#');
    if (hash != std::string::npos) text.resize(hash);
    text.erase(0, text.find_first_not_of(" \t\r"));
    text.erase(text.find_last_not_of(" \t\r") + 1);
    if (text.empty()) continue;
    const std::string where = path + ":" + std::to_string(n);
    const size_t space = text.find_first_of(" \t");
    const std::string word = text.substr(0, space), rest = space == std::string::npos ? "" : text.substr(text.find_first_not_of(" \t", space));
    if (word == "include") {
      if (rest.empty()) throw Error(where + ": 'include' needs a batch file");
      const fs::path included = fs::path(rest).is_absolute() ? fs::path(rest) : fs::path(path).parent_path() / rest;
      std::vector<BatchEntry> inner;
      read_into(included.string(), inner, open);
      for (const auto& e : inner) expand(e.problem.line(), m, where, out, e.file, e.line, e.name);
    } else if (word == "ops") {
      m.ops = comma_list(rest);  // none: every line's own operator again
    } else if (word == "dtype") {
      m.dtypes = comma_list(rest);
      for (const auto& d : m.dtypes)
        if (d != "f32" && d != "f16" && d != "bf16") throw Error(where + ": storage format '" + d + "': the formats are f32, f16 and bf16");
    } else if (const size_t eq = text.find('='); eq != std::string::npos && text.find(':') > eq) {  // NAME = LINE
      std::string name = text.substr(0, eq), line = text.substr(eq + 1);
      name.erase(name.find_last_not_of(" \t") + 1);
      line.erase(0, line.find_first_not_of(" \t"));
      const bool word_chars = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
      });
      if (!word_chars) throw Error(where + ": '" + name + "' is no problem's name (letters, digits, _ . -)");
      if (line.empty() || line.find_first_of(" \t") != std::string::npos) throw Error(where + ": '" + name + " =' needs one problem line after it");
      expand(line, m, where, out, path, n, name);
    } else if (text.find(':') != std::string::npos || space == std::string::npos) {
      expand(text, m, where, out, path, n, "");
    } else {
      throw Error(where + ": '" + word + "' is neither a problem line (NAME = LINE, or LINE) nor a batch keyword (include, ops, dtype)");
    }
  }
  open.pop_back();
}

}  // namespace

std::vector<BatchEntry> read_batch(const std::string& path) {
  std::vector<BatchEntry> out;
  std::vector<std::string> open;
  read_into(path, out, open);
  return out;
}

std::string batch_dir() { return PLUMBLINE_BATCH_DIR; }

std::vector<std::string> real_layer_batches() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(batch_dir()))
    if (e.path().extension() == ".batch" && e.path().filename() != "smoke.batch") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string smoke_batch() { return batch_dir() + "/smoke.batch"; }

}  // namespace plumbline::bench
