#include "core/problem.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

#include "core/error.hpp"
#include "core/text.hpp"
#include "core/registry.hpp"

namespace plumbline {

namespace {

constexpr int64_t kMaxIntAttr = int64_t{1} << 40;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t pos = s.find(sep, start);
    out.push_back(s.substr(start, pos - start));
    if (pos == std::string::npos) return out;
    start = pos + 1;
  }
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

AttrValue parse_value(const AttrSpec& spec, const std::string& text, const std::string& line) {
  auto fail = [&](const std::string& why) -> AttrValue { throw Error("problem line '" + line + "': attribute '" + spec.name + "' " + why); };
  if (text.empty()) return fail("has no value");
  switch (spec.kind) {
    case AttrKind::Int: {
      int64_t v = 0;
      auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || ptr != text.data() + text.size()) return fail("must be an integer, got '" + text + "'");
      if (v < spec.min) return fail("must be >= " + std::to_string(spec.min) + ", got " + text);
      // No tensor has a side of 2^40: the bound keeps the shape arithmetic of every operator in range
      // (found by fuzzing the parser: a padding of 7.8e18 overflowed conv2d's output size).
      if (v > kMaxIntAttr) return fail("must be at most " + std::to_string(kMaxIntAttr) + " (2^40), got " + text);
      return v;
    }
    case AttrKind::Float: {
      double v = 0;
      auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v)) return fail("must be a finite number, got '" + text + "'");
      return v;
    }
    case AttrKind::Enum:
      if (std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end())
        return fail("must be one of {" + join(spec.choices) + "}, got '" + text + "'");
      return text;
  }
  return fail("has an unknown kind");
}

bool kind_matches(const AttrSpec& spec, const AttrValue& v) {
  switch (spec.kind) {
    case AttrKind::Int:
      return std::holds_alternative<int64_t>(v);
    case AttrKind::Float:
      return std::holds_alternative<double>(v);
    case AttrKind::Enum:
      return std::holds_alternative<std::string>(v);
  }
  return false;
}

}  // namespace

std::string format_attr(const AttrValue& v) {
  if (auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (auto* s = std::get_if<std::string>(&v)) return *s;
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, std::get<double>(v));  // shortest round-trip form
  return std::string(buf, ptr);
}

Problem Problem::parse(const std::string& raw) {
  const std::string line = trim(raw);
  if (line.empty()) throw Error("empty problem line: expected OP or OP:attr=value,...");
  const size_t colon = line.find(':');
  const std::string op = trim(line.substr(0, colon));
  const OpSpec& spec = Registry::get().find(op);

  Problem p;
  p.op_ = op;
  for (const auto& a : spec.attrs) p.attrs_.emplace_back(a.name, a.def);
  if (colon == std::string::npos || trim(line.substr(colon + 1)).empty()) {
    p.validate();
    return p;
  }

  std::set<std::string> seen;
  for (const std::string& field_raw : split(line.substr(colon + 1), ',')) {
    const std::string field = trim(field_raw);
    const size_t eq = field.find('=');
    if (field.empty()) throw Error("problem line '" + line + "': empty field (two commas in a row, or a trailing comma)");
    if (eq == std::string::npos) throw Error("problem line '" + line + "': field '" + field + "' is not of the form name=value");
    const std::string name = trim(field.substr(0, eq)), value = trim(field.substr(eq + 1));
    auto it = std::find_if(spec.attrs.begin(), spec.attrs.end(), [&](const AttrSpec& a) { return a.name == name; });
    if (it == spec.attrs.end()) {
      std::vector<std::string> names;
      for (const auto& a : spec.attrs) names.push_back(a.name);
      throw Error("problem line '" + line + "': " + op + " has no attribute '" + name + "' (it has: " + join(names) + ")");
    }
    if (!seen.insert(name).second) throw Error("problem line '" + line + "': attribute '" + name + "' given twice");
    p.attrs_[static_cast<size_t>(it - spec.attrs.begin())].second = parse_value(*it, value, line);
  }
  p.validate();
  return p;
}

Problem Problem::make(const std::string& op, const std::vector<std::pair<std::string, AttrValue>>& overrides) {
  const OpSpec& spec = Registry::get().find(op);
  Problem p;
  p.op_ = op;
  for (const auto& a : spec.attrs) p.attrs_.emplace_back(a.name, a.def);
  for (const auto& override : overrides) {
    const std::string& name = override.first;  // a plain reference: clang 14 cannot capture a structured binding
    auto it = std::find_if(p.attrs_.begin(), p.attrs_.end(), [&](const auto& kv) { return kv.first == name; });
    if (it == p.attrs_.end()) throw Error(op + " has no attribute '" + name + "'");
    it->second = override.second;
  }
  p.validate();
  return p;
}

std::string Problem::line() const {
  const OpSpec* spec = Registry::get().find_or_null(op_);
  std::string s = op_;
  bool first = true;
  for (size_t i = 0; i < attrs_.size(); ++i) {
    if (spec && i < spec->attrs.size() && spec->attrs[i].omit_default && attrs_[i].second == spec->attrs[i].def) continue;
    s += (first ? ":" : ",") + attrs_[i].first + "=" + format_attr(attrs_[i].second);
    first = false;
  }
  return s;
}

void Problem::validate() const {
  const OpSpec& spec = Registry::get().find(op_);
  for (size_t i = 0; i < spec.attrs.size(); ++i) {
    const AttrSpec& a = spec.attrs[i];
    const AttrValue& v = attrs_.at(i).second;
    if (!kind_matches(a, v)) throw Error(op_ + ": attribute '" + a.name + "' has a value of the wrong kind");
    // Re-check ranges and choices for values set programmatically (parse already did for text).
    parse_value(a, format_attr(v), line());
  }
  // Shape inference throws on an impossible problem; its message names the line.
  try {
    const Signature sig = spec.signature(*this);
    for (const auto* ts : {&sig.inputs, &sig.outputs})
      for (const auto& t : *ts) t.shape.numel();  // sizes that overflow are impossible too
  } catch (const Error& e) {
    const std::string msg = e.what();
    if (msg.rfind(line(), 0) == 0) throw;
    throw Error(line() + ": " + msg);
  }
}

const AttrValue& Problem::get(const std::string& name) const {
  for (const auto& [n, v] : attrs_)
    if (n == name) return v;
  throw Error(op_ + " has no attribute '" + name + "'");
}

bool Problem::has(const std::string& name) const {
  return std::any_of(attrs_.begin(), attrs_.end(), [&](const auto& kv) { return kv.first == name; });
}

int64_t Problem::i(const std::string& name) const {
  const AttrValue& v = get(name);
  if (auto* x = std::get_if<int64_t>(&v)) return *x;
  throw Error(op_ + ": attribute '" + name + "' is not an integer");
}

double Problem::f(const std::string& name) const {
  const AttrValue& v = get(name);
  if (auto* x = std::get_if<double>(&v)) return *x;
  throw Error(op_ + ": attribute '" + name + "' is not a number");
}

const std::string& Problem::s(const std::string& name) const {
  const AttrValue& v = get(name);
  if (auto* x = std::get_if<std::string>(&v)) return *x;
  throw Error(op_ + ": attribute '" + name + "' is not a name");
}

Problem Problem::as(const std::string& op) const {
  const OpSpec& spec = Registry::get().find(op);
  Problem p;
  p.op_ = op;
  for (const auto& a : spec.attrs) p.attrs_.emplace_back(a.name, has(a.name) ? get(a.name) : a.def);
  p.validate();
  return p;
}

Problem Problem::with(const std::string& name, AttrValue value) const {
  Problem p = *this;
  auto it = std::find_if(p.attrs_.begin(), p.attrs_.end(), [&](const auto& kv) { return kv.first == name; });
  if (it == p.attrs_.end()) throw Error(op_ + " has no attribute '" + name + "'");
  it->second = std::move(value);
  p.validate();
  return p;
}

}  // namespace plumbline
