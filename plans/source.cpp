#include "plans/source.hpp"

#include <algorithm>
#include <filesystem>

#include "core/error.hpp"
#include "core/numeric_mode.hpp"
#include "core/registry.hpp"
#include "plans/library.hpp"

namespace plumbline::plans {

namespace fs = std::filesystem;

namespace {

std::string quote(const std::string& s) {
  bool plain = !s.empty();
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || std::string("_-./=,:+").find(c) != std::string::npos)) plain = false;
  if (plain) return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string join(const std::vector<std::string>& v, const char* sep = ",") {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

std::vector<std::pair<std::string, std::string>> parse_defines(const std::vector<std::string>& defines) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& d : defines) {
    const size_t eq = d.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == d.size()) throw Error("--define '" + d + "' must be NAME=VALUE");
    out.emplace_back(d.substr(0, eq), d.substr(eq + 1));
  }
  return out;
}

// The default ABI's argument list, as the seed variant's plan writes it: inputs, outputs, then every
// attribute (names that are both a tensor and an attribute written tensor:NAME and attr:NAME).
std::string abi_args(const Variant& seed) {
  std::vector<std::string> args;
  for (const auto& a : seed.steps.front().args) args.push_back(a.text);
  return join(args, ", ");
}

// Builds the one-step plan the flags describe, as plan text, so that it is checked like any plan;
// errors name the flag instead of a line.
Variant flags_variant(const KernelSource& s, const std::string& op) {
  const std::string abs = fs::absolute(s.kernel_file).string();
  std::string args = s.args;
  if (args.empty()) {
    const auto& ours = our_variants(op);
    if (ours.empty()) throw Error("operator '" + op + "' has no default ABI (no plan): give --args");
    const Variant& seed = find_variant(ours, kAbiVariant, op);
    if (seed.steps.size() != 1)
      throw Error("--global describes one step, but the default ABI of " + op + " has " + std::to_string(seed.steps.size()) +
                  " steps: give --args for your one kernel, or a --plan file for several");
    args = abi_args(seed);
  }
  std::vector<std::string> lines(11);
  const char* flag_of_line[] = {"", "", "", "--kernel-file", "--define", "--dtypes", "--when", "--entry", "--args", "--global", "--local"};
  lines[1] = "op " + op;
  lines[2] = "variant user";
  lines[3] = "file " + abs;
  if (!s.defines.empty()) {
    std::string d;
    for (const auto& [n, v] : parse_defines(s.defines)) d += " " + n + "=" + v;
    lines[4] = "define" + d;
  }
  if (!s.dtypes.empty()) lines[5] = "dtypes " + join(s.dtypes, " ");
  if (!s.when.empty()) lines[6] = "when " + s.when;
  lines[7] = "step " + s.entries.front();
  lines[8] = "args " + args;
  lines[9] = "global " + s.global;
  if (!s.local.empty()) lines[10] = "local " + s.local;
  std::string text;
  for (size_t i = 1; i < lines.size(); ++i) text += lines[i] + "\n";
  try {
    Variant v = parse_plan(text, "(command line)").front();
    // Later messages (binding, sizes) name the command line, not a line of this text.
    v.where = {"command line", 0};
    for (auto& st : v.steps) st.where = {"command line", 0};
    return v;
  } catch (const Error& e) {
    std::string msg = e.what();
    const std::string prefix = "(command line):";
    if (msg.rfind(prefix, 0) == 0) {
      const size_t colon = msg.find(':', prefix.size());
      const int line = std::stoi(msg.substr(prefix.size(), colon - prefix.size()));
      const std::string flag = line >= 0 && line < 11 ? flag_of_line[line] : "";
      msg = (flag.empty() ? std::string("command line") : flag) + msg.substr(colon);
    }
    throw Error(msg);
  }
}

}  // namespace

void KernelSource::validate() const {
  if (!plan_file.empty() && !kernel_file.empty()) throw Error("give either --plan FILE or --kernel-file FILE, not both");
  if (!plan_file.empty() && !entries.empty()) throw Error("--entry names a --kernel-file's entries; a --plan file names its own");
  if (kernel_file.empty() && !entries.empty()) throw Error("--entry needs --kernel-file");
  if (kernel_file.empty() && !dtypes.empty())
    throw Error("--dtypes says which storage formats a --kernel-file takes (a plan file says it with 'dtypes' lines)");
  if (kernel_file.empty() && !when.empty()) throw Error("--when says which problems a --kernel-file serves (a plan file says it with 'when' lines)");
  if (!kernel_file.empty() && entries.empty())
    throw Error("--kernel-file needs --entry NAME (one per step of the operator's default ABI, or one with --global)");
  if (kernel_file.empty() && (!args.empty() || !global.empty() || !local.empty()))
    throw Error("--args, --global and --local describe your kernel's launch: they need --kernel-file and --entry");
  if ((!args.empty() || !local.empty()) && global.empty()) throw Error("--args and --local need --global (the global size)");
  if (!global.empty() && entries.size() != 1) throw Error("--global describes one step: give one --entry (for several steps, write a --plan file)");
  parse_defines(defines);
  if (!nonfinite.empty() && nonfinite != "limits" && nonfinite != "ieee")
    throw Error("--nonfinite '" + nonfinite + "': the non-finite policies are limits (the default) and ieee (docs/verification.md)");
  if (!math.empty()) NumericMode::parse(math);
}

std::vector<std::string> KernelSource::flag_args() const {
  std::vector<std::string> a;
  auto add = [&](const char* flag, const std::string& value) {
    if (!value.empty()) a.insert(a.end(), {flag, value});
  };
  // Absolute: a repro runs from any folder.
  auto absolute = [](const std::string& path) { return path.empty() ? path : fs::absolute(path).lexically_normal().string(); };
  add("--plan", absolute(plan_file));
  add("--kernel-file", absolute(kernel_file));
  add("--entry", join(entries));
  add("--args", args);
  add("--global", global);
  add("--local", local);
  add("--define", join(defines));
  add("--dtypes", join(dtypes));
  add("--when", when);
  add("--variant", variant);
  add("--nonfinite", nonfinite);
  add("--math", math);
  return a;
}

std::string KernelSource::flags() const {
  const std::vector<std::string> a = flag_args();
  std::string f;
  for (size_t i = 0; i + 1 < a.size(); i += 2) f += (f.empty() ? "" : " ") + a[i] + " " + quote(a[i + 1]);
  return f;
}

std::string KernelSource::describe() const {
  if (!plan_file.empty()) return "plan " + plan_file;
  if (!kernel_file.empty()) return "kernel " + kernel_file;
  return "plumbline's own";
}

namespace {

// Each variant's numeric mode (--math over its plan's), and that mode's condition added to its `when`:
// the problems drawn for it are those the mode can compute.
std::vector<Variant> in_their_modes(std::vector<Variant> variants, const KernelSource& s, const std::string& op) {
  for (auto& v : variants) {
    if (!s.math.empty()) v.math = NumericMode::parse(s.math).name();
    if (v.math.empty()) continue;
    const NumericMode mode = NumericMode::parse(v.math);
    try {
      mode.check_applies(op);
    } catch (const Error& e) {
      throw Error((s.math.empty() ? "variant " + v.id() + " (" + v.where.str() + "): " : std::string("--math: ")) + e.what());
    }
    const std::string fit = mode.condition(op);
    if (!fit.empty()) v.when = Expr::parse(v.when.empty() ? fit : "(" + v.when.text() + ") && " + fit);
  }
  return variants;
}

std::vector<Variant> variants_from(const KernelSource& s, const std::string& op);

}  // namespace

std::vector<Variant> variants_for(const KernelSource& s, const std::string& op) { return in_their_modes(variants_from(s, op), s, op); }

namespace {

std::vector<Variant> variants_from(const KernelSource& s, const std::string& op) {
  s.validate();
  std::vector<Variant> out;
  const auto defines = parse_defines(s.defines);
  if (!s.global.empty()) {
    out.push_back(flags_variant(s, op));
  } else if (!s.kernel_file.empty()) {
    // The default ABI: our seed variant's plan, with the user's file, entries and defines.
    const auto& ours = our_variants(op);
    if (ours.empty()) throw Error("operator '" + op + "' has no OpenCL kernel plan, so no default ABI: give --global and --args");
    Variant v = find_variant(ours, kAbiVariant, op);
    if (s.entries.size() != v.steps.size()) {
      std::string steps;
      for (const auto& st : v.steps) steps += (steps.empty() ? "" : ", ") + st.entry + (st.when.empty() ? "" : " (when " + st.when.text() + ")");
      throw Error(op + " has " + std::to_string(v.steps.size()) + " kernel steps in the default ABI (" + steps + "); --entry names " +
                  std::to_string(s.entries.size()) + " (one name per step, comma-separated, in order: docs/kernel-abi.md)");
    }
    v.name = "user";
    v.file = fs::absolute(s.kernel_file).string();
    v.dtypes.clear();         // the default ABI is version 1's, float32, unless --dtypes says more
    if (!s.dtypes.empty()) {  // checked as a plan's dtypes line is
      try {
        v.dtypes = parse_dtypes(join(s.dtypes, " "), op);
      } catch (const Error& e) {
        throw Error(std::string("--dtypes: ") + e.what());
      }
    }
    for (size_t i = 0; i < v.steps.size(); ++i) v.steps[i].entry = s.entries[i];
    // The ABI's sizes name the seed's defines (TILE, ROW_WG): the kernel is built with them too, and
    // with the user's, which may replace them or add more.
    for (const auto& [name, value] : defines) {
      if (v.define(name))
        v = v.with_defines({{name, value}});
      else
        v.defines.emplace_back(name, value);
    }
    if (!s.when.empty()) {  // checked as a plan's when line is: the names are the operator's attributes and the defines
      const std::string both = v.when.empty() ? s.when : "(" + v.when.text() + ") && (" + s.when + ")";
      const auto& attrs = Registry::get().find(op).attrs;
      try {
        v.when = Expr::parse(both);
        for (const auto& name : v.when.names())
          if (std::none_of(attrs.begin(), attrs.end(), [&](const AttrSpec& at) { return at.name == name; }) && !v.define(name))
            throw Error("'" + name + "' is neither an attribute of " + op + " nor a define");
      } catch (const Error& e) {
        throw Error(std::string("--when: ") + e.what());
      }
    }
    out.push_back(std::move(v));
  } else {
    std::vector<Variant> all;
    if (!s.plan_file.empty()) {
      for (auto& v : read_plan_file(s.plan_file, true))
        if (v.op == op) all.push_back(std::move(v));
      if (all.empty()) throw Error("plan file " + s.plan_file + " has no variant of " + op);
    } else {
      all = our_variants(op);
      if (all.empty()) throw Error("operator '" + op + "' has no OpenCL kernel yet");
    }
    for (auto& v : all) {
      if (!s.variant.empty() && v.name != s.variant) continue;
      out.push_back(defines.empty() ? std::move(v) : v.with_defines(defines));
      if (const std::string unmet = out.back().unmet_requirement(); !unmet.empty())
        throw Error("--define: variant " + out.back().id() + " (" + out.back().where.str() + "): " + unmet);
    }
    if (out.empty()) find_variant(all, s.variant, op);  // the error listing the variants
    return out;
  }
  if (!s.variant.empty() && s.variant != "user") throw Error("--variant names one of a plan's variants; a --kernel-file's variant is 'user'");
  return out;
}

}  // namespace

}  // namespace plumbline::plans
