#include "plans/plan.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "core/numeric_mode.hpp"
#include "core/text.hpp"
#include "core/registry.hpp"

namespace plumbline::plans {

namespace fs = std::filesystem;

namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::optional<int64_t> as_integer(const std::string& s) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string join(const std::set<std::string>& s) {
  std::string out;
  for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
  return out;
}

// Every tensor name the operator can have: those of its default problem, and those that optional
// flags add (conv2d's bias=1 adds the input 'bias'). The signature function is the only truth about
// tensors, so the flags are tried rather than listed.
std::set<std::string> possible_tensors(const std::string& op) {
  std::set<std::string> names;
  auto add = [&](const Problem& p) {
    const Signature s = signature_of(p);
    for (const auto& t : s.inputs) names.insert(t.name);
    for (const auto& t : s.outputs) names.insert(t.name);
  };
  const Problem base = Problem::make(op);
  add(base);
  for (const auto& a : Registry::get().find(op).attrs) {
    if (a.kind != AttrKind::Int || a.min != 0 || base.i(a.name) != 0) continue;
    try {
      add(base.with(a.name, int64_t{1}));
    } catch (const Error&) {
      // a flag that needs other attributes set first (bshared=1 needs a batch): adds no tensor name
    }
  }
  return names;
}

// The parser's state: the operator and variant being read, the step being read.
class PlanParser {
 public:
  PlanParser(std::string path, std::string file_dir) : path_(std::move(path)), file_dir_(std::move(file_dir)) {}

  std::vector<Variant> parse(const std::string& text) {
    std::istringstream in(text);
    std::string raw;
    while (std::getline(in, raw)) {
      ++line_;
      const size_t hash = raw.find('#');
      const std::string l = trim(hash == std::string::npos ? raw : raw.substr(0, hash));
      if (l.empty()) continue;
      const size_t sp = l.find_first_of(" \t");
      const std::string key = l.substr(0, sp), rest = sp == std::string::npos ? "" : trim(l.substr(sp));
      try {
        if (recording_ && key != "op" && key != "variant" && key != "block" && key != "include") {
          blocks_.at(*recording_).lines.push_back({key, rest, here()});
          continue;
        }
        keyword(key, rest);
      } catch (const Error& e) {
        throw Error(here().str() + ": " + e.what());
      }
    }
    finish_variant();
    for (const auto& [name, b] : blocks_)
      if (!b.used) throw Error(b.where.str() + ": block " + name + " is used by no variant ('use " + name + "')");
    if (variants_.empty()) throw Error(path_ + ": no variants (a plan starts with 'op NAME', then 'variant NAME')");
    return std::move(variants_);
  }

 private:
  Where here() const { return {from_block_ ? block_path_ : path_, line_}; }

  void keyword(const std::string& key, const std::string& rest) {
    auto need = [&](const char* what) {
      if (rest.empty()) throw Error("'" + key + "' needs " + what);
    };
    if (key == "block") {  // lines that variants take with `use NAME`, until the next op, variant, block or include
      need("a name");
      if (!is_identifier(rest)) throw Error("block name '" + rest + "' must be a name (letters, digits, _)");
      finish_variant();
      if (auto it = blocks_.find(rest); it != blocks_.end())
        throw Error("block " + rest + " is defined twice (first at " + it->second.where.str() + ")");
      blocks_[rest].where = here();
      recording_ = rest;
      return;
    }
    recording_.reset();
    if (key == "include") {  // another file's blocks
      need("a plan file of blocks");
      finish_variant();
      include_blocks(rest);
      return;
    }
    if (key == "op") {
      need("an operator's name");
      finish_variant();
      Registry::get().find(rest);  // an unknown name is an error listing the known ones
      op_ = rest;
      return;
    }
    if (key == "variant") {
      need("a name");
      if (op_.empty()) throw Error("'variant' before any 'op NAME' line");
      if (!is_identifier(rest)) throw Error("variant name '" + rest + "' must be a name (letters, digits, _)");
      finish_variant();
      for (const auto& v : variants_)
        if (v.op == op_ && v.name == rest) throw Error("variant '" + rest + "' of " + op_ + " is defined twice (first at " + v.where.str() + ")");
      current_ = Variant{};
      current_->op = op_;
      current_->name = rest;
      current_->where = here();
      current_->file = fs::path(path_).stem().string() + ".cl";
      if (!file_dir_.empty()) current_->file = (fs::path(file_dir_) / current_->file).string();
      return;
    }
    if (!current_) throw Error("'" + key + "' outside a variant (start one with 'variant NAME' after 'op NAME')");
    Variant& v = *current_;
    Step* step = v.steps.empty() ? nullptr : &v.steps.back();
    auto variant_level = [&] {
      if (step) throw Error("'" + key + "' belongs to the variant: put it before the first 'step'");
    };
    if (key == "use") {
      need("a block's name");
      auto it = blocks_.find(rest);
      if (it == blocks_.end()) {
        std::string known;
        for (const auto& [name, b] : blocks_) known += (known.empty() ? "" : ", ") + name;
        throw Error("no block named '" + rest + "' before this line" + (known.empty() ? "" : " (blocks: " + known + ")"));
      }
      Block& b = it->second;
      if (!starts_with_steps(b)) variant_level();  // a block of steps comes among the steps
      if (b.replaying) throw Error("block " + rest + " uses itself");
      b.used = b.replaying = true;
      const std::optional<std::string> outer = from_block_;  // a block's `use` of another block
      const int use_line = line_;
      for (const auto& l : b.lines) {
        from_block_ = rest;
        block_path_ = l.where.file;
        line_ = l.where.line;
        try {
          keyword(l.key, l.rest);
        } catch (const Error& e) {
          from_block_ = outer;
          b.replaying = false;
          line_ = use_line;
          throw Error("block " + rest + ", " + l.where.str() + ": " + e.what());
        }
      }
      from_block_ = outer;
      b.replaying = false;
      line_ = use_line;
      return;
    }
    // A line that restates its block's is an error; one that differs overrides it (once).
    auto restated = [&](const std::string& what, bool same) {
      if (same) throw Error(what + " restates its block's line: leave it out");
    };
    if (key == "file") {
      need("a .cl file");
      variant_level();
      // `file A B C`: one program of the files in order, the kernels' entries in any of them.
      std::vector<std::string> files;
      std::istringstream names(rest);
      for (std::string name; names >> name;)
        files.push_back(file_dir_.empty() || fs::path(name).is_absolute() ? name : (fs::path(file_dir_) / name).string());
      if (!from_block_ && taken_.erase("file"))
        restated("file " + rest, files.back() == v.file && std::vector<std::string>(files.begin(), files.end() - 1) == v.prelude);
      if (from_block_) taken_.insert("file");
      v.file = files.back();
      v.prelude.assign(files.begin(), files.end() - 1);
    } else if (key == "type") {
      variant_level();
      std::istringstream words(rest);
      std::string name, type, extra;
      words >> name >> type >> extra;
      if (!is_identifier(name) || type.empty() || !extra.empty())
        throw Error(
            "'type " + rest +
            "': a type line is 'type NAME BUILTIN' (a kernel parameter's type name and the OpenCL type it stands for, e.g. type real_arg float)");
      v.types[name] = type;
    } else if (key == "define") {
      need("NAME=VALUE");
      auto& defines = step ? step->defines : v.defines;  // after a step: that step's own
      std::string items = rest;
      std::replace(items.begin(), items.end(), ',', ' ');
      std::istringstream ss(items);
      std::string item;
      while (ss >> item) {
        const size_t eq = item.find('=');
        const std::string name = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
        if (eq == std::string::npos || !is_identifier(name) || value.empty()) throw Error("define '" + item + "' must be NAME=VALUE");
        auto have = std::find_if(defines.begin(), defines.end(), [&](const auto& d) { return d.first == name; });
        if (have != defines.end() && !step && !from_block_ && taken_.erase("define " + name)) {
          restated("define " + item, have->second == value);
          have->second = value;  // in the block's place: the defines keep their order
          continue;
        }
        if (have != defines.end()) throw Error("define " + name + " is given twice" + std::string(step ? " in step " + step->entry : ""));
        if (from_block_ && !step) taken_.insert("define " + name);
        defines.emplace_back(name, value);
      }
    } else if (key == "when") {
      need("a condition");
      if (step && paired_)
        throw Error("step " + step->entry + " or " + paired_->entry + " runs by its flag " + paired_->flag + ": it takes no 'when'");
      Expr& target = step ? step->when : v.when;
      if (!target.empty()) throw Error("a second 'when' for the same " + std::string(step ? "step" : "variant"));
      target = Expr::parse(rest);
      (step ? step->lines["when"] : v.when_line) = line_;
    } else if (key == "prefer") {
      need("a condition");
      variant_level();
      if (!v.prefer.empty()) throw Error("a second 'prefer' for the same variant");
      v.prefer = Expr::parse(rest);
      v.prefer_line = line_;
    } else if (key == "let") {
      variant_level();
      const size_t eq = rest.find('=');
      if (eq == std::string::npos || rest.find('=', eq + 1) == eq + 1) throw Error("'let' needs NAME = EXPRESSION");
      Let l{trim(rest.substr(0, eq)), Expr::parse(rest.substr(eq + 1)), here()};
      if (!is_identifier(l.name)) throw Error("let name '" + l.name + "' must be a name");
      v.lets.push_back(std::move(l));
    } else if (key == "scratch" || key == "counters" || key == "stored") {
      variant_level();
      const bool counters = key == "counters", stored = key == "stored";
      const size_t sp = rest.find_first_of(" \t");
      if (sp == std::string::npos)
        throw Error(counters ? "'counters' needs NAME COUNT (a name and how many 32-bit counters)"
                    : stored ? "'stored' needs NAME COUNT (a name and how many values of the storage format)"
                             : "'scratch' needs NAME FLOATS (a name and its size in floats)");
      Scratch s{rest.substr(0, sp), Expr::parse(rest.substr(sp)), here(), counters, stored};
      if (!is_identifier(s.name)) throw Error(key + " name '" + s.name + "' must be a name");
      v.scratch.push_back(std::move(s));
    } else if (key == "dtypes") {
      need("storage formats (f32 f16 bf16)");
      variant_level();
      const std::vector<std::string> dtypes = parse_dtypes(rest, v.op);
      if (!from_block_ && taken_.erase("dtypes")) {
        restated("dtypes " + rest, dtypes == v.dtypes);
      } else if (!v.dtypes.empty()) {
        throw Error("a second 'dtypes' line");
      }
      if (from_block_) taken_.insert("dtypes");
      v.dtypes = dtypes;
    } else if (key == "devices") {
      need("device types (cpu gpu accelerator)");
      variant_level();
      if (!v.devices.empty()) throw Error("a second 'devices' line");
      std::istringstream ss(rest);
      std::string type;
      while (ss >> type) {
        if (type != "cpu" && type != "gpu" && type != "accelerator") throw Error("device type '" + type + "': known types are cpu, gpu, accelerator");
        if (std::find(v.devices.begin(), v.devices.end(), type) != v.devices.end()) throw Error("device type " + type + " is given twice");
        v.devices.push_back(type);
      }
    } else if (key == "needs") {
      const std::string known = join(std::set<std::string>(kDeviceFeatures.begin(), kDeviceFeatures.end()));
      need(("device features (" + known + ")").c_str());
      variant_level();
      if (!from_block_ && taken_.erase("needs")) {
        const std::vector<std::string> before = std::move(v.needs);
        v.needs.clear();
        std::istringstream again(rest);
        for (std::string f; again >> f;) v.needs.push_back(f);
        restated("needs " + rest, v.needs == before);
        v.needs.clear();
      } else if (!v.needs.empty()) {
        throw Error("a second 'needs' line");
      }
      if (from_block_) taken_.insert("needs");
      std::istringstream ss(rest);
      std::string feature;
      while (ss >> feature) {
        if (std::find(kDeviceFeatures.begin(), kDeviceFeatures.end(), feature) == kDeviceFeatures.end())
          throw Error("device feature '" + feature + "': known features are " + known);
        if (std::find(v.needs.begin(), v.needs.end(), feature) != v.needs.end()) throw Error("device feature " + feature + " is given twice");
        v.needs.push_back(feature);
      }
    } else if (key == "tune") {
      need("NAME=V1,V2,... (a define and the values to try)");
      variant_level();
      std::istringstream ss(rest);
      std::string item;
      while (ss >> item) {
        const size_t eq = item.find('=');
        const std::string name = item.substr(0, eq);
        if (eq == std::string::npos || !is_identifier(name)) throw Error("tune '" + item + "' must be NAME=V1,V2,...");
        std::vector<std::string> values;
        for (const auto& x : split_top_level(item.substr(eq + 1))) {
          if (x.empty()) throw Error("tune '" + item + "': an empty value");
          values.push_back(x);
        }
        auto have = std::find_if(v.tunables.begin(), v.tunables.end(), [&](const auto& t) { return t.first == name; });
        if (have != v.tunables.end() && !from_block_ && taken_.erase("tune " + name)) {
          restated("tune " + item, have->second == values);
          have->second = values;
          continue;
        }
        if (have != v.tunables.end()) throw Error("tune " + name + " is given twice");
        if (from_block_) taken_.insert("tune " + name);
        v.tunables.emplace_back(name, values);
      }
    } else if (key == "require") {
      need("a condition on the defines");
      variant_level();
      Expr e = Expr::parse(rest);
      if (!from_block_)
        for (size_t i = 0; i < v.requires_.size(); ++i)
          if (require_from_block_.count(i)) restated("require " + rest, v.requires_[i].text() == e.text());
      if (from_block_) require_from_block_.insert(v.requires_.size());
      v.requires_.push_back(std::move(e));
      require_lines_.push_back(at_line());
    } else if (key == "class") {
      need("NAME [when CONDITION]");
      variant_level();
      if (!from_block_ && taken_.count("classes"))
        throw Error("class " + rest + ": this variant's classes come from its block (a variant takes a block's classes or states all its own)");
      if (from_block_) taken_.insert("classes");
      const size_t w = rest.find(" when ");
      ShapeClass c{trim(rest.substr(0, w)), w == std::string::npos ? Expr() : Expr::parse(rest.substr(w + 6))};
      if (!is_identifier(c.name)) throw Error("class name '" + c.name + "' must be a name");
      if (!v.classes.empty() && v.classes.back().when.empty())
        throw Error("class " + c.name + " follows a class without a condition, which takes every problem");
      v.classes.push_back(std::move(c));
      class_lines_.push_back(at_line());
    } else if (key == "nondeterministic") {
      need("the reason two launches on the same inputs may differ (float atomics, say)");
      variant_level();
      v.nondeterministic = rest;
    } else if (key == "nonfinite") {
      need("a policy and the reason: nonfinite ieee WHY (the edge answers IEEE arithmetic gives pass too)");
      variant_level();
      const size_t sp = rest.find_first_of(" \t");
      const std::string policy = rest.substr(0, sp);
      if (policy != "limits" && policy != "ieee")
        throw Error("nonfinite '" + policy + "': the non-finite policies are limits (the default) and ieee (docs/verification.md)");
      if (policy == "ieee" && sp == std::string::npos)
        throw Error("'nonfinite ieee' needs the reason: nonfinite ieee WHY (say why the kernel keeps IEEE arithmetic's answers at the edges)");
      v.nonfinite = policy;
    } else if (key == "math") {
      need("the numeric mode its kernels compute in: math tf32, bf16x3, winograd(2,3) or winograd(4,3)");
      variant_level();
      v.math = NumericMode::parse(rest).name();
    } else if (key == "handoff") {
      if (!step) throw Error("'handoff' outside a step: it names a buffer that step's kernel hands between its work-groups");
      const size_t sp = rest.find_first_of(" \t");
      if (rest.empty() || sp == std::string::npos)
        throw Error("'handoff' needs a buffer and the reason: handoff BUFFER WHY (the reads a simulator reports as races)");
      step->handoffs.push_back({rest.substr(0, sp), trim(rest.substr(sp)), here()});
    } else if (key == "step") {
      need("the kernel's entry name");
      close_paired_step(v);
      // `step A or B if FLAG`: two steps, A where the attribute FLAG is 0 and B where it is 1, with the
      // same lines; an argument `X if FLAG` goes to B only (conv2d's bias: an entry with it, one without).
      std::string entry = rest;
      if (const size_t o = rest.find(" or "); o != std::string::npos) {
        const size_t f = rest.find(" if ", o);
        const std::string first = trim(rest.substr(0, o)), second = trim(rest.substr(o + 4, f == std::string::npos ? std::string::npos : f - o - 4)),
                          flag = f == std::string::npos ? "" : trim(rest.substr(f + 4));
        if (!is_identifier(first) || !is_identifier(second) || !is_identifier(flag))
          throw Error("'step " + rest + "': a paired step is 'step ENTRY or ENTRY_WITH if FLAG' (FLAG an attribute that is 0 or 1)");
        entry = first;
        paired_ = PairedStep{second, flag, {}};
      }
      if (!is_identifier(entry)) throw Error("entry '" + rest + "' must be a kernel name");
      Step s;
      s.entry = entry;
      s.where = here();
      v.steps.push_back(std::move(s));
    } else if (key == "args" || key == "global" || key == "local") {
      if (!step) throw Error("'" + key + "' outside a step (start one with 'step ENTRY')");
      if (key == "args") {
        if (step->has_args) throw Error("a second 'args' line for step " + step->entry);
        step->has_args = true;
        if (!rest.empty())
          for (std::string a : split_top_level(rest)) {
            if (const size_t f = a.find(" if "); f != std::string::npos) {  // an argument of a paired step's second entry only
              const std::string flag = trim(a.substr(f + 4));
              if (!paired_ || flag != paired_->flag)
                throw Error("'" + a + "': 'if FLAG' marks an argument of a paired step's second entry ('step A or B if " + flag + "')");
              paired_->only_second.insert(step->args.size());
              a = trim(a.substr(0, f));
            }
            step->args.push_back(parse_arg(a));
          }
        step->lines["args"] = line_;
        return;
      }
      need("1 to 3 sizes, comma-separated");
      std::vector<Expr>& sizes = key == "global" ? step->global : step->local;
      if (!sizes.empty()) throw Error("a second '" + key + "' line for step " + step->entry);
      for (const auto& part : split_top_level(rest)) {
        if (part.empty()) throw Error("an empty size in '" + rest + "'");
        sizes.push_back(Expr::parse(part));
      }
      step->lines[key] = line_;
      if (sizes.size() > 3) throw Error(key + " has " + std::to_string(sizes.size()) + " sizes; an NDRange has 1 to 3");
    } else {
      throw Error("unknown keyword '" + key +
                  "' (known: op, variant, block, use, include, file, type, define, dtypes, devices, needs, nondeterministic, nonfinite, math, when, "
                  "prefer, let, scratch, "
                  "counters, stored, tune, require, class, step, args, global, local, handoff)");
    }
  }

  static Arg parse_arg(const std::string& text) {
    Arg a;
    a.text = text;
    if (text.empty()) throw Error("an empty argument in 'args'");
    if (text.rfind("local(", 0) == 0 && text.back() == ')') {
      a.kind = Arg::Kind::Local;
      a.expr = Expr::parse(text.substr(6, text.size() - 7));
      return a;
    }
    for (const char* prefix : {"tensor:", "attr:"}) {
      if (text.rfind(prefix, 0) != 0) continue;
      a.name = text.substr(std::string(prefix).size());
      if (!is_identifier(a.name)) throw Error("'" + text + "': a name must follow '" + prefix + "'");
      a.kind = prefix[0] == 't' ? Arg::Kind::Tensor : Arg::Kind::Value;
      if (a.kind == Arg::Kind::Value) a.expr = Expr::parse(a.name);
      return a;
    }
    if (is_identifier(text)) {
      a.name = text;  // resolved against the operator once the variant is complete
      a.kind = Arg::Kind::TensorOrValue;
      a.expr = Expr::parse(text);
      return a;
    }
    a.kind = Arg::Kind::Value;
    a.expr = Expr::parse(text);
    return a;
  }

  // Checks the complete variant against its operator: every name resolves, every step is whole.
  void finish_variant() {
    if (current_) close_paired_step(*current_);
    taken_.clear();
    require_from_block_.clear();
    if (!current_) return;
    Variant v = std::move(*current_);
    current_.reset();
    auto at = [&](int line) { return Where{path_, line}.str() + ": "; };
    auto at_where = [&](const Where& w) { return w.str() + ": "; };
    if (v.steps.empty()) throw Error(v.where.str() + ": variant " + v.id() + " has no steps");
    const OpSpec& spec = Registry::get().find(v.op);
    std::set<std::string> attrs, integer_defines, other_defines, scratch;
    for (const auto& a : spec.attrs) attrs.insert(a.name);
    for (const auto& [name, value] : v.defines) {
      if (attrs.count(name)) throw Error(v.where.str() + ": define " + name + " has the name of an attribute of " + v.op);
      (as_integer(value) ? integer_defines : other_defines).insert(name);
    }
    for (const auto& st : v.steps)
      for (const auto& d : st.defines)
        if (attrs.count(d.first)) throw Error(st.where.str() + ": define " + d.first + " has the name of an attribute of " + v.op);
    const std::set<std::string> tensors = possible_tensors(v.op);
    for (const auto& s : v.scratch) {
      if (tensors.count(s.name) || attrs.count(s.name) || scratch.count(s.name))
        throw Error(s.where.str() + ": scratch '" + s.name + "' has the name of a tensor, an attribute or another scratch buffer");
      scratch.insert(s.name);
    }
    std::set<std::string> values = attrs;
    values.insert(integer_defines.begin(), integer_defines.end());
    auto check_expr = [&](const Expr& e, const std::string& where) {
      for (const auto& n : e.names()) {
        if (values.count(n)) continue;
        if (other_defines.count(n)) throw Error(where + "'" + e.text() + "': define " + n + " is not an integer");
        throw Error(where + "'" + e.text() + "': unknown name '" + n + "'; " + v.op + " has the attributes " + join(attrs) +
                    (integer_defines.empty() ? "" : " and the defines " + join(integer_defines)));
      }
      for (const auto& t : e.tensors())
        if (!tensors.count(t)) throw Error(where + "'" + e.text() + "': " + v.op + " has no tensor '" + t + "' (its tensors: " + join(tensors) + ")");
    };
    for (const auto& l : v.lets) {  // each sees the names before it
      if (values.count(l.name) || other_defines.count(l.name) || tensors.count(l.name) || scratch.count(l.name))
        throw Error(l.where.str() + ": let " + l.name + " has the name of an attribute, a define, a tensor or another let");
      check_expr(l.value, l.where.str() + ": let " + l.name + " ");
      values.insert(l.name);
    }
    if (!v.when.empty()) check_expr(v.when, at(v.when_line));
    if (!v.prefer.empty()) check_expr(v.prefer, at(v.prefer_line));
    for (const auto& [name, values] : v.tunables) {
      const std::string* d = v.define(name);
      if (!d) throw Error(v.where.str() + ": tune " + name + ": declare its default with 'define " + name + "=...' first");
      for (const auto& x : values)
        if (as_integer(*d).has_value() != as_integer(x).has_value())
          throw Error(v.where.str() + ": tune " + name + "=" + x + ": the default " + *d + " and this value are not both integers");
    }
    for (size_t i = 0; i < v.requires_.size(); ++i) {
      const std::string where = at_where(require_lines_[i]);
      for (const auto& n : v.requires_[i].names())
        if (!integer_defines.count(n))
          throw Error(where + "require '" + v.requires_[i].text() + "': '" + n +
                      "' is not an integer define (a requirement is on the defines alone)");
    }
    require_lines_.clear();
    if (const std::string unmet = v.unmet_requirement(); !unmet.empty()) throw Error(v.where.str() + ": the defaults break a requirement: " + unmet);
    for (size_t i = 0; i < v.classes.size(); ++i)
      if (!v.classes[i].when.empty()) check_expr(v.classes[i].when, at_where(class_lines_[i]));
    class_lines_.clear();
    for (const auto& s : v.scratch) check_expr(s.floats, s.where.str() + ": ");
    for (auto& step : v.steps) {
      const std::string where = step.where.str() + ": step " + step.entry + ": ";
      if (!step.has_args) throw Error(where + "no 'args' line (the kernel's parameters in its order)");
      if (step.global.empty()) throw Error(where + "no 'global' line (the global size)");
      if (!step.local.empty() && step.local.size() != step.global.size())
        throw Error(where + "'local' has " + std::to_string(step.local.size()) + " sizes, 'global' " + std::to_string(step.global.size()));
      auto line_of = [&](const char* key) { return step.lines.count(key) ? step.lines.at(key) : step.where.line; };
      for (const auto& e : step.global) check_expr(e, at(line_of("global")));
      for (const auto& e : step.local) check_expr(e, at(line_of("local")));
      if (!step.when.empty()) check_expr(step.when, at(line_of("when")));
      for (const auto& h : step.handoffs)
        if (!tensors.count(h.buffer) && !scratch.count(h.buffer))
          throw Error(h.where.str() + ": handoff '" + h.buffer + "' is no tensor (" + join(tensors) + ") or scratch buffer of " + v.id());
      const int args_line = line_of("args");
      for (auto& a : step.args) {
        if (a.kind == Arg::Kind::TensorOrValue) {
          const bool t = tensors.count(a.name) > 0, s = scratch.count(a.name) > 0, val = values.count(a.name) > 0;
          if (s)
            a.kind = Arg::Kind::Scratch;
          else if (t && !val)
            a.kind = Arg::Kind::Tensor;
          else if (val && !t)
            a.kind = Arg::Kind::Value;
          else if (!t && !val) {
            if (other_defines.count(a.name)) throw Error(at(args_line) + "argument '" + a.name + "': define " + a.name + " is not an integer");
            throw Error(at(args_line) + "argument '" + a.name + "' is no tensor (" + join(tensors) + "), attribute (" + join(attrs) +
                        "), scratch buffer or define of " + v.id());
          }
          continue;  // both a tensor and an attribute: the kernel's parameter decides
        }
        if (a.kind == Arg::Kind::Tensor && !tensors.count(a.name))
          throw Error(at(args_line) + "argument '" + a.text + "': " + v.op + " has no tensor '" + a.name + "' (its tensors: " + join(tensors) + ")");
        if (a.kind == Arg::Kind::Value || a.kind == Arg::Kind::Local) check_expr(a.expr, at(args_line));
      }
    }
    refuse_step_defines_in_expressions(v);
    variants_.push_back(std::move(v));
  }

  // A step's defines reach its own program only: the plan's expressions (sizes, conditions, scratch,
  // arguments) see the variant's. A step define of a name they use would launch that step with sizes
  // of the variant's value while its kernel is built with another, so it is refused.
  static void refuse_step_defines_in_expressions(const Variant& v) {
    std::map<std::string, std::string> used;  // name -> an expression that uses it
    auto note = [&](const Expr& e) {
      for (const auto& n : e.names()) used.emplace(n, e.text());
    };
    if (!v.when.empty()) note(v.when);
    if (!v.prefer.empty()) note(v.prefer);
    for (const auto& l : v.lets) note(l.value);
    for (const auto& c : v.classes)
      if (!c.when.empty()) note(c.when);
    for (const auto& s : v.scratch) note(s.floats);
    for (const auto& r : v.requires_) note(r);
    for (const auto& st : v.steps) {
      for (const auto& e : st.global) note(e);
      for (const auto& e : st.local) note(e);
      if (!st.when.empty()) note(st.when);
      for (const auto& a : st.args)
        if (a.kind == Arg::Kind::Value || a.kind == Arg::Kind::Local) note(a.expr);
    }
    for (const auto& st : v.steps)
      for (const auto& d : st.defines)
        if (auto it = used.find(d.first); it != used.end())
          throw Error(st.where.str() + ": step " + st.entry + ": define " + d.first + " is used by the plan's expression '" + it->second +
                      "', which sees the variant's value, not the step's (a step's defines reach its program only)");
  }

  std::string path_, file_dir_, op_;
  int line_ = 0;
  std::optional<Variant> current_;
  std::vector<Variant> variants_;
  std::vector<Where> require_lines_, class_lines_;  // of the variant being read
  // Blocks: lines that variants take with `use NAME` (this file's, and those of included files).
  struct BlockLine {
    std::string key, rest;
    Where where;
  };
  struct Block {
    Where where;
    std::vector<BlockLine> lines;
    bool used = false;
    bool replaying = false;  // its lines are being read into a variant (a block that uses itself is an error)
  };
  std::map<std::string, Block> blocks_;
  // Whether a block's lines begin with a step (its own, or that of a block it uses first).
  bool starts_with_steps(const Block& b, int depth = 0) const {
    if (b.lines.empty() || depth > 16) return false;
    const BlockLine& first = b.lines.front();
    if (first.key == "step") return true;
    auto it = blocks_.find(first.rest);
    return first.key == "use" && it != blocks_.end() && starts_with_steps(it->second, depth + 1);
  }
  // A `step A or B if FLAG` being read: its second entry, the flag, and the arguments only B takes.
  struct PairedStep {
    std::string entry, flag;
    std::set<size_t> only_second;
  };
  std::optional<PairedStep> paired_;
  // Once its lines are read, a paired step becomes its two steps.
  void close_paired_step(Variant& v) {
    if (!paired_) return;
    Step& a = v.steps.back();
    Step b = a;
    b.entry = paired_->entry;
    a.when = Expr::parse(paired_->flag + " == 0");
    b.when = Expr::parse(paired_->flag + " == 1");
    a.lines["when"] = b.lines["when"] = a.where.line;
    a.args.clear();
    for (size_t i = 0; i < b.args.size(); ++i)
      if (!paired_->only_second.count(i)) a.args.push_back(b.args[i]);
    paired_.reset();
    v.steps.push_back(std::move(b));
  }
  std::optional<std::string> recording_;   // the block whose lines are being read
  std::optional<std::string> from_block_;  // the block whose lines a `use` is replaying
  std::string block_path_;                 // the file of the block line being replayed (an included one's)
  std::set<std::string> taken_;            // of the variant being read: what its blocks gave ("define MWG", "classes", ...)
  std::set<size_t> require_from_block_;    // its requirements that came from a block

  // The line being read, in its own file (a block's line: where the block stands).
  Where at_line() const { return here(); }

  // Reads the blocks of a plan file of blocks only (relative to this plan's folder).
  void include_blocks(const std::string& file) {
    const fs::path p = fs::path(file).is_absolute() ? fs::path(file) : fs::path(path_).parent_path() / file;
    std::ifstream in(p);
    if (!in) throw Error("cannot read the included plan file '" + p.string() + "'");
    std::string raw, name;
    for (int n = 1; std::getline(in, raw); ++n) {
      const size_t hash = raw.find('#');
      const std::string l = trim(hash == std::string::npos ? raw : raw.substr(0, hash));
      if (l.empty()) continue;
      const size_t sp = l.find_first_of(" \t");
      const std::string key = l.substr(0, sp), rest = sp == std::string::npos ? "" : trim(l.substr(sp));
      const Where w{p.string(), n};
      if (key == "block") {
        if (!is_identifier(rest)) throw Error(w.str() + ": block name '" + rest + "' must be a name");
        if (auto it = blocks_.find(rest); it != blocks_.end())
          throw Error(w.str() + ": block " + rest + " is defined twice (first at " + it->second.where.str() + ")");
        blocks_[rest].where = w;
        blocks_[rest].used = true;  // an included file serves several plans: a block one of them does not use is no fault
        name = rest;
      } else if (key == "op" || key == "variant" || key == "include" || name.empty()) {
        throw Error(w.str() + ": an included plan file holds blocks only ('block NAME' and its lines)");
      } else {
        blocks_[name].lines.push_back({key, rest, w});
      }
    }
  }
};

// Wraps an evaluation error with the plan line and the problem.
template <class F>
auto at_plan(const Where& w, const std::string& what, const Problem& p, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error& e) {
    throw Error(w.str() + ": " + what + ": " + e.what() + ", for problem " + p.line());
  }
}

}  // namespace

std::string Variant::build_options() const {
  std::string s;
  for (const auto& [name, value] : defines) s += (s.empty() ? "-D" : " -D") + name + "=" + value;
  return s;
}

const std::string* Variant::define(const std::string& name) const {
  for (const auto& d : defines)
    if (d.first == name) return &d.second;
  return nullptr;
}

Variant Variant::with_defines(const std::vector<std::pair<std::string, std::string>>& overrides) const {
  Variant v = *this;
  for (const auto& override : overrides) {
    const std::string &name = override.first, &value = override.second;  // clang 14 cannot capture a structured binding
    auto it = std::find_if(v.defines.begin(), v.defines.end(), [&](const auto& d) { return d.first == name; });
    if (it == v.defines.end()) {
      std::string known;
      for (const auto& d : defines) known += (known.empty() ? "" : ", ") + d.first;
      throw Error("variant " + id() + " (" + where.str() + ") has no define " + name + (known.empty() ? "" : "; its defines: " + known));
    }
    if (as_integer(it->second) && !as_integer(value)) throw Error("define " + name + " of " + id() + " is an integer; '" + value + "' is not");
    it->second = value;
  }
  return v;
}

Variant Variant::for_step(const Step& st) const {
  Variant v = *this;
  for (const auto& [name, value] : st.defines) {
    auto it = std::find_if(v.defines.begin(), v.defines.end(), [&name = name](const auto& d) { return d.first == name; });
    if (it == v.defines.end())
      v.defines.emplace_back(name, value);
    else
      it->second = value;
  }
  return v;
}

std::string Variant::unmet_requirement() const {
  Env env;
  env.value = [this](const std::string& n) -> std::optional<Value> {
    const std::string* d = define(n);
    const auto i = d ? as_integer(*d) : std::nullopt;
    return i ? std::optional<Value>(Value{*i}) : std::nullopt;
  };
  for (const auto& r : requires_) {
    try {
      if (r.eval_int(env) == 0) return "'" + r.text() + "' does not hold for " + build_options();
    } catch (const Error& e) {
      return e.what();
    }
  }
  return "";
}

std::string class_of(const Variant& v, const Problem& p) {
  if (v.classes.empty()) return "all";
  const Env env = env_for(v, p);
  for (const auto& c : v.classes)
    if (c.when.empty() || at_plan(v.where, "class " + c.name + " '" + c.when.text() + "'", p, [&] { return c.when.eval_int(env) != 0; }))
      return c.name;
  return "";
}

std::vector<std::string> parse_dtypes(const std::string& list, const std::string& op) {
  std::string items = list;
  std::replace(items.begin(), items.end(), ',', ' ');
  std::istringstream ss(items);
  std::vector<std::string> out;
  std::string item;
  while (ss >> item) {
    dtype_from_string(item);  // Error naming the choices
    if (std::find(out.begin(), out.end(), item) != out.end()) throw Error("dtype " + item + " is listed twice");
    out.push_back(item);
  }
  const OpSpec& spec = Registry::get().find(op);
  const bool has_dtype = std::any_of(spec.attrs.begin(), spec.attrs.end(), [](const AttrSpec& a) { return a.name == "dtype"; });
  if (!has_dtype && (out.size() != 1 || out[0] != "f32"))
    throw Error(op + " has no dtype attribute: its tensors are float32 (docs/operators.md lists the operators that take f16 and bf16)");
  return out;
}

std::vector<Variant> parse_plan(const std::string& text, const std::string& path, const std::string& file_dir) {
  return PlanParser(path, file_dir).parse(text);
}

std::vector<Variant> read_plan_file(const std::string& path, bool files_relative_to_plan) {
  std::ifstream f(path);
  if (!f) throw Error("cannot read plan file '" + path + "'");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string dir = files_relative_to_plan ? fs::absolute(fs::path(path)).parent_path().string() : "";
  return parse_plan(ss.str(), path, dir);
}

Env env_for(const Variant& v, const Problem& p) {
  const OpSpec& spec = Registry::get().find(p.op());
  auto names = std::make_shared<std::map<std::string, Value>>();
  for (const auto& a : spec.attrs) {
    switch (a.kind) {
      case AttrKind::Int:
        (*names)[a.name] = Value{p.i(a.name)};
        break;
      case AttrKind::Float:
        (*names)[a.name] = Value{p.f(a.name)};
        break;
      case AttrKind::Enum: {
        const auto pos = std::find(a.choices.begin(), a.choices.end(), p.s(a.name)) - a.choices.begin();
        (*names)[a.name] = Value{static_cast<int64_t>(pos)};
        break;
      }
    }
  }
  for (const auto& [name, value] : v.defines)
    if (auto i = as_integer(value)) (*names)[name] = Value{*i};
  auto shapes = std::make_shared<std::map<std::string, Shape>>();
  const Signature sig = signature_of(p);
  for (const auto& t : sig.inputs) (*shapes)[t.name] = t.shape;
  for (const auto& t : sig.outputs) (*shapes)[t.name] = t.shape;
  Env env;
  env.value = [names](const std::string& n) -> std::optional<Value> {
    auto it = names->find(n);
    return it == names->end() ? std::nullopt : std::optional<Value>(it->second);
  };
  env.tensor = [shapes](const std::string& n) -> std::optional<Shape> {
    auto it = shapes->find(n);
    return it == shapes->end() ? std::nullopt : std::optional<Shape>(it->second);
  };
  for (const auto& l : v.lets)  // in order: a let sees those before it through env
    (*names)[l.name] = at_plan(l.where, "let " + l.name + " '" + l.value.text() + "'", p, [&] { return l.value.eval(env); });
  return env;
}

std::vector<std::string> dtypes_of(const Variant& v) {
  if (v.dtypes.empty()) return {"f32"};
  std::vector<std::string> out = v.dtypes;
  std::stable_partition(out.begin(), out.end(), [](const std::string& d) { return d == "f32"; });
  return out;
}

bool takes_dtype(const Variant& v, const Problem& p) {
  const std::vector<std::string> d = dtypes_of(v);
  return std::find(d.begin(), d.end(), to_string(dtype_of(p))) != d.end();
}

bool applies(const Variant& v, const Problem& p) {
  if (p.op() != v.op || !takes_dtype(v, p)) return false;
  if (v.when.empty()) return true;
  return at_plan(v.where, v.id() + " condition '" + v.when.text() + "'", p, [&] { return v.when.eval_int(env_for(v, p)) != 0; });
}

bool preferred(const Variant& v, const Problem& p) {
  if (!applies(v, p)) return false;
  if (v.prefer.empty()) return true;
  return at_plan(v.where, v.id() + " preference '" + v.prefer.text() + "'", p, [&] { return v.prefer.eval_int(env_for(v, p)) != 0; });
}

bool step_applies(const Variant& v, const Step& s, const Problem& p) {
  if (s.when.empty()) return true;
  return at_plan(s.where, "step " + s.entry + " condition '" + s.when.text() + "'", p, [&] { return s.when.eval_int(env_for(v, p)) != 0; });
}

std::vector<int64_t> scratch_floats(const Variant& v, const Problem& p) {
  std::vector<int64_t> out;
  if (v.scratch.empty()) return out;
  const Env env = env_for(v, p);
  for (const auto& s : v.scratch) {
    const int64_t n = at_plan(s.where, "scratch " + s.name, p, [&] { return s.floats.eval_int(env); });
    if (n < 1)
      throw Error(s.where.str() + ": scratch " + s.name + " '" + s.floats.text() + "' is " + std::to_string(n) + (s.stored ? " values" : " floats") +
                  " for problem " + p.line() + "; a buffer holds at least one");
    const int64_t bytes = s.stored ? bytes_of(dtype_of(p)) : 4;
    out.push_back((n * bytes + 3) / 4);
  }
  return out;
}

std::string Dispatch::str() const {
  auto list = [](const std::vector<size_t>& v) {
    std::string s = "(";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s + ")";
  };
  return "global " + list(global) + (local.empty() ? " local (driver's choice)" : " local " + list(local));
}

Dispatch dispatch(const Variant& v, const Step& s, const Problem& p) {
  const Env env = env_for(v, p);
  Dispatch d;
  const std::string what = "step " + s.entry;
  auto eval = [&](const Expr& e, const char* kind, size_t dim) {
    const int64_t x = at_plan(s.where, what + " " + kind + " size '" + e.text() + "'", p, [&] { return e.eval_int(env); });
    if (x < 1)
      throw Error(s.where.str() + ": " + what + ": " + kind + " size " + std::to_string(dim) + " '" + e.text() + "' is " + std::to_string(x) +
                  " for problem " + p.line() + "; an NDRange size must be at least 1");
    return static_cast<size_t>(x);
  };
  for (size_t i = 0; i < s.global.size(); ++i) d.global.push_back(eval(s.global[i], "global", i));
  for (size_t i = 0; i < s.local.size(); ++i) d.local.push_back(eval(s.local[i], "local", i));
  for (size_t i = 0; i < d.local.size(); ++i)
    if (d.global[i] % d.local[i] != 0)
      throw Error(s.where.str() + ": " + what + ": local size " + std::to_string(d.local[i]) + " ('" + s.local[i].text() +
                  "') does not divide global size " + std::to_string(d.global[i]) + " ('" + s.global[i].text() + "') in dimension " +
                  std::to_string(i) + " for problem " + p.line());
  return d;
}

namespace {

// The names v's expressions see without a problem: its integer defines and its lets over them alone.
struct DefinesOnly {
  std::map<std::string, int64_t> fixed_lets;  // the lets over defines alone, in order
  Env env;
  explicit DefinesOnly(const Variant& v) {
    env.value = [&v, this](const std::string& n) -> std::optional<Value> {
      if (const auto l = fixed_lets.find(n); l != fixed_lets.end()) return Value{l->second};
      const std::string* d = v.define(n);
      if (!d) return std::nullopt;
      const auto i = as_integer(*d);
      return i ? std::optional<Value>(Value{*i}) : std::nullopt;
    };
    for (const auto& l : v.lets) {
      try {
        fixed_lets[l.name] = l.value.eval_int(env);
      } catch (const Error&) {
        // a let that depends on the problem
      }
    }
  }
  DefinesOnly(const DefinesOnly&) = delete;
  std::optional<int64_t> eval(const Expr& e) const {
    try {
      return e.eval_int(env);
    } catch (const Error&) {
      return std::nullopt;
    }
  }
};

}  // namespace

std::vector<int64_t> tile_sizes(const Variant& v) {
  std::set<int64_t> sizes;
  const DefinesOnly fixed(v);
  for (const auto& [name, value] : v.defines)
    if (auto i = as_integer(value); i && *i >= 2) sizes.insert(*i);
  for (const auto& [name, x] : fixed.fixed_lets)
    if (x >= 2) sizes.insert(x);
  for (const auto& s : v.steps)
    for (const auto& e : s.local)
      if (const auto x = fixed.eval(e); x && *x >= 2) sizes.insert(*x);  // a local size that depends on the problem: no fixed boundary
  return {sizes.begin(), sizes.end()};
}

bool depends_on_problem(const Variant& v, const Expr& e) { return !DefinesOnly(v).eval(e).has_value(); }

std::optional<Problem> steer(const Variant& v, const Problem& p) {
  auto holds = [&](const Expr& e, const Problem& q) {
    try {
      return e.eval_int(env_for(v, q)) != 0;
    } catch (const Error&) {
      return false;
    }
  };
  const Problem in_dtype = takes_dtype(v, p) ? p : p.with("dtype", dtypes_of(v).front());
  if (v.when.empty() || holds(v.when, in_dtype)) return in_dtype;
  const OpSpec& spec = Registry::get().find(p.op());
  Problem q = in_dtype;
  // Each pass sets the attributes of the conjuncts that fail; a later conjunct can undo an earlier
  // one (c == g after c % 4 == 0), so a few passes.
  for (int pass = 0; pass < 4 && !holds(v.when, q); ++pass) {
    for (const Expr& c : v.when.conjuncts()) {
      if (holds(c, q)) continue;
      const auto rel = c.relation();
      if (!rel) continue;
      const AttrSpec* a = nullptr;
      for (const auto& s : spec.attrs)
        if (s.name == rel->name) a = &s;
      if (!a || a->kind == AttrKind::Float) continue;
      int64_t rhs = 0;
      try {
        rhs = rel->rhs.eval_int(env_for(v, q));
      } catch (const Error&) {
        continue;
      }
      const int64_t cur =
          a->kind == AttrKind::Int ? q.i(a->name) : std::find(a->choices.begin(), a->choices.end(), q.s(a->name)) - a->choices.begin();
      int64_t target = cur;
      // Raised to a lower bound, a size keeps the drawn one's remainder by 8: a variant for large
      // problems (n >= 4096) still meets sizes that are no multiple of its vector width.
      const int64_t rest = a->kind == AttrKind::Int && cur > 0 ? cur % 8 : 0;  // (a named choice's index: none)
      if (rel->op == "==")
        target = rhs;
      else if (rel->op == "!=")
        target = cur + 1;
      else if (rel->op == ">=")
        target = cur >= rhs ? cur : rhs + rest;
      else if (rel->op == ">")
        target = cur > rhs ? cur : rhs + 1 + rest;
      else if (rel->op == "<=")
        target = std::min(cur, rhs);
      else if (rel->op == "<")
        target = std::min(cur, rhs - 1);
      else if (rel->op == "%0" && rhs > 0)
        target = std::max<int64_t>(rhs, (cur + rhs - 1) / rhs * rhs);
      try {
        if (a->kind == AttrKind::Enum) {
          if (target < 0 || target >= static_cast<int64_t>(a->choices.size())) continue;
          q = q.with(a->name, a->choices[static_cast<size_t>(target)]);
        } else {
          q = q.with(a->name, target);
        }
      } catch (const Error&) {
        // not a valid problem that way (c % g, a window larger than the input): try the next conjunct
      }
    }
  }
  return holds(v.when, q) ? std::optional<Problem>(q) : std::nullopt;
}

}  // namespace plumbline::plans
