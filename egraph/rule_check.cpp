#include "egraph/rule_check.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "egraph/equivalence.hpp"
#include "egraph/pattern.hpp"

namespace plumbline::egraph {
namespace {

int build_side(graph::Graph& g, const Pattern& p, const Binding& b, std::map<std::string, int>& vars) {
  if (p.is_var) return vars.at(p.var);
  std::vector<int> args;
  for (const auto& a : p.args) args.push_back(build_side(g, a, b, vars));
  return g.add(p.op->name, args, pattern_attrs(p, b));
}

graph::Graph side_graph(const Rule& rule, const Pattern& p, const Binding& b) {
  graph::Graph g;
  std::map<std::string, int> vars;
  for (const auto& v : rule.vars) {
    if (!v.shape_symbol.empty()) {
      vars[v.name] = g.input(v.name, b.shapes.at(v.shape_symbol));
      continue;
    }
    std::vector<int64_t> dims;
    for (const auto& d : v.shape) dims.push_back(std::get<int64_t>(eval_expr(d, b)));
    vars[v.name] = g.input(v.name, Shape(dims));
  }
  g.set_output("y", build_side(g, p, b, vars));
  return g;
}

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t h = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 29);
}
uint64_t hash_text(const std::string& s) {
  uint64_t h = 1469598103934665603ULL;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return h;
}

// Inputs for the rule's variables, respecting their types and assumptions.
graph::Bindings<float> draw_inputs(const Rule& rule, const RuleInstance& inst, Values values, uint64_t seed) {
  Rng rng(seed);
  graph::Bindings<float> in;
  for (const auto& v : rule.vars) {
    const int id = [&] {
      for (const auto& [n, i] : inst.lhs.inputs())
        if (n == v.name) return i;
      return -1;
    }();
    TensorDecl decl{v.name, inst.lhs.node(id).shape, v.type, 0};
    if (v.type == Domain::Distribution && decl.shape.rank() == 0) decl.domain = Domain::Real;
    TensorF t = make_input(decl, values, rng);
    if (v.finite)
      for (auto& x : t.data)
        while (!std::isfinite(x) || std::abs(x) > v.bound)
          x = std::clamp(sample(Values::Normal, rng), static_cast<float>(-v.bound), static_cast<float>(v.bound));
    in[v.name] = std::move(t);
  }
  return in;
}

std::string tensor_text(const TensorD& t) {
  std::ostringstream s;
  s.precision(9);
  s << t.shape.str() << " {";
  for (int64_t i = 0; i < t.numel(); ++i) s << (i ? ", " : "") << t[i];
  return s.str() + "}";
}

struct Outcome {
  std::string message;  // "" when the instance passes
  double worst_ratio = 0;
  bool device_ran = false;
  bool device_failed = false;  // the reference passed, the device did not
};

Outcome evaluate(const Rule& rule, const RuleInstance& inst, Values values, uint64_t seed, SideEvaluator* device) {
  Outcome o;
  if (!inst.rhs_error.empty()) {
    o.message = inst.rhs_error;
    o.worst_ratio = INFINITY;
    return o;
  }
  const graph::Bindings<float> in32 = draw_inputs(rule, inst, values, seed);
  graph::Bindings<double> in64;
  for (const auto& [n, t] : in32) in64[n] = t.convert<double>();
  try {
    const TensorD l64 = graph::run_graph<double>(inst.lhs, in64).at("y");
    const TensorD r64 = graph::run_graph<double>(inst.rhs, in64).at("y");
    const TensorF l32 = graph::run_graph<float>(inst.lhs, in32).at("y");
    const TensorF r32 = graph::run_graph<float>(inst.rhs, in32).at("y");
    const bool integers = values == Values::Integers;
    const SideComparison c = compare_sides("y", l64, r64, l32, r32, rule.numerics, rule.approx_bound, integers);
    o.worst_ratio = c.worst_ratio;
    if (!c.passed) {
      o.message = c.message;
      return o;
    }
    if (device) {
      o.device_ran = true;
      const std::string d = device->check(inst.lhs, inst.rhs, in32, rule.numerics == Numerics::Exact && integers);
      if (!d.empty()) {
        o.message = "on " + device->name() + ": " + d;
        o.device_failed = true;
      }
    }
  } catch (const Error& e) {
    o.message = std::string("evaluation failed: ") + e.what();
    o.worst_ratio = INFINITY;
  }
  return o;
}

std::vector<Values> value_kinds(const Rule& rule, const RuleCheckOptions& opt) {
  if (opt.values) return {*opt.values};
  std::vector<Values> v;
  if (rule.numerics == Numerics::Exact) v.push_back(Values::Integers);
  for (Values x : {Values::Uniform, Values::Normal, Values::Edge}) v.push_back(x);
  return v;
}

}  // namespace

std::optional<RuleInstance> instantiate_rule(const Rule& rule, const Binding& b, std::string* why) {
  for (const auto& c : rule.where)
    if (!eval_condition(c, b)) {
      if (why) *why = "condition " + c.str() + " is false";
      return std::nullopt;
    }
  RuleInstance inst;
  inst.binding = b;
  try {
    inst.lhs = side_graph(rule, rule.lhs, b);
  } catch (const Error& e) {
    if (why) *why = std::string("the left side does not build: ") + e.what();
    return std::nullopt;
  }
  try {
    inst.rhs = side_graph(rule, rule.rhs, b);
  } catch (const Error& e) {
    inst.rhs_error = std::string("the left side builds but the right side does not: ") + e.what();
  }
  return inst;
}

Binding parse_binding(const Rule& rule, const std::string& text) {
  Binding b;
  std::istringstream in(text);
  std::string item;
  const auto dims = rule.dims();
  const auto attrs = rule.attr_vars();
  const auto shapes = rule.shape_symbols();
  while (in >> item) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) throw Error("'" + item + "': write SYMBOL=VALUE, e.g. m=2 or ?act=relu");
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key[0] == '?') {
      if (std::find(attrs.begin(), attrs.end(), key) == attrs.end()) throw Error("rule '" + rule.name + "' has no attribute variable " + key);
      const AttrSpec& spec = rule.attr_var_spec(key);
      try {
        if (spec.kind == AttrKind::Int)
          b.attrs[key] = static_cast<int64_t>(std::stoll(value));
        else if (spec.kind == AttrKind::Float)
          b.attrs[key] = std::stod(value);
        else
          b.attrs[key] = value;
      } catch (const std::exception&) {
        throw Error(key + "=" + value + ": not a number");
      }
    } else if (std::find(shapes.begin(), shapes.end(), key) != shapes.end()) {
      b.shapes[key] = graph::parse_shape_text(value);
    } else {
      if (std::find(dims.begin(), dims.end(), key) == dims.end()) throw Error("rule '" + rule.name + "' has no dimension " + key);
      try {
        b.dims[key] = std::stoll(value);
      } catch (const std::exception&) {
        throw Error(key + "=" + value + ": not an integer");
      }
      if (b.dims[key] < 1) throw Error(key + "=" + value + ": dimensions are positive");
    }
  }
  for (const auto& d : dims)
    if (!b.dims.contains(d)) throw Error("the instance gives no value for dimension " + d);
  for (const auto& a : attrs)
    if (!b.attrs.contains(a)) throw Error("the instance gives no value for " + a);
  for (const auto& sh : shapes)
    if (!b.shapes.contains(sh)) throw Error("the instance gives no value for shape " + sh + " (e.g. " + sh + "=2,3)");
  return b;
}

std::vector<RuleInstance> sample_instances(const Rule& rule, const RuleCheckOptions& opt, int* rejected, std::string* covered_text) {
  std::vector<RuleInstance> instances;
  const auto dims = rule.dims();
  const auto attr_vars = rule.attr_vars();
  const auto shape_syms = rule.shape_symbols();
  const uint64_t base = mix(opt.seed, hash_text(rule.name));
  int rejected_count = 0;
  std::string covered_out;
  const int small = opt.instances / 2;
  size_t combos = 1;
  for (size_t i = 0; i < dims.size() && combos <= static_cast<size_t>(small); ++i) combos *= 3;
  const bool exhaustive = combos <= static_cast<size_t>(small);
  Rng rng(base);
  std::map<std::string, std::set<std::string>> covered;
  for (int i = 0; i < opt.instances; ++i) {
    const bool medium = exhaustive ? i >= static_cast<int>(combos) : i >= small;
    std::optional<RuleInstance> inst;
    for (int attempt = 0; attempt < 5000 && !inst; ++attempt) {
      Binding b;
      size_t code = static_cast<size_t>(i);
      for (const auto& d : dims) {
        if (!medium && exhaustive && attempt == 0) {
          b.dims[d] = static_cast<int64_t>(code % 3) + 1;
          code /= 3;
        } else {
          const int64_t hi = medium ? opt.max_dim : 3;
          b.dims[d] = std::uniform_int_distribution<int64_t>(1, hi)(rng);
        }
      }
      for (const auto& sym : shape_syms) {  // any rank from 1 to 4
        const int rank = static_cast<int>(std::uniform_int_distribution<int>(1, 4)(rng));
        std::vector<int64_t> d;
        for (int r = 0; r < rank; ++r)
          d.push_back(std::uniform_int_distribution<int64_t>(1, medium ? std::max<int64_t>(1, opt.max_dim / rank) : 3)(rng));
        b.shapes[sym] = Shape(d);
      }
      for (size_t k = 0; k < attr_vars.size(); ++k) {
        const AttrSpec& spec = rule.attr_var_spec(attr_vars[k]);
        if (spec.kind == AttrKind::Enum && !spec.choices.empty()) {
          b.attrs[attr_vars[k]] = spec.choices[(static_cast<size_t>(i) + k) % spec.choices.size()];
        } else if (spec.kind == AttrKind::Float) {
          static const double floats[] = {1e-5, 1e-2, 0.5, 2.0};
          b.attrs[attr_vars[k]] = floats[(static_cast<size_t>(i) + k + static_cast<size_t>(attempt)) % 4];
        } else {
          const int64_t hi = std::max<int64_t>(spec.min + 3, medium ? opt.max_dim : 3);
          b.attrs[attr_vars[k]] = std::uniform_int_distribution<int64_t>(spec.min, hi)(rng);
        }
      }
      inst = instantiate_rule(rule, b);
      if (!inst) ++rejected_count;
    }
    if (!inst) continue;
    for (const auto& [k, val] : inst->binding.attrs) covered[k].insert(format_attr(val));
    instances.push_back(std::move(*inst));
  }
  for (const auto& [k, vals] : covered) {
    covered_out += (covered_out.empty() ? "" : "; ") + k + ":";
    for (const auto& x : vals) covered_out += " " + x;
  }
  if (rejected) *rejected = rejected_count;
  if (covered_text) *covered_text = covered_out;
  return instances;
}

RuleVerdict check_rule(const Rule& rule, const RuleCheckOptions& opt, const std::string& rules_file) {
  RuleVerdict v;
  v.rule = rule.name;
  const auto dims = rule.dims();
  const auto attr_vars = rule.attr_vars();
  const auto shape_syms = rule.shape_symbols();
  const uint64_t base = mix(opt.seed, hash_text(rule.name));

  // The instances: given, or sampled.
  std::vector<RuleInstance> instances;
  if (opt.at) {
    std::string why;
    auto inst = instantiate_rule(rule, parse_binding(rule, *opt.at), &why);
    if (!inst) throw Error("rule '" + rule.name + "' at " + *opt.at + ": not a valid instance: " + why);
    instances.push_back(std::move(*inst));
  } else {
    instances = sample_instances(rule, opt, &v.rejected, &v.covered);
  }
  if (instances.empty()) {
    v.passed = false;
    v.message =
        "no instance satisfies the rule's conditions and builds its left side (" + std::to_string(v.rejected) + " tried): the rule is never checked";
    return v;
  }

  const auto kinds = value_kinds(rule, opt);
  for (size_t i = 0; i < instances.size(); ++i) {
    ++v.instances;
    for (Values kind : kinds) {
      const uint64_t seed = opt.at ? opt.seed : mix(base, i * 16 + static_cast<uint64_t>(kind));
      SideEvaluator* device = static_cast<int>(i) < opt.device_instances || opt.at ? opt.device : nullptr;
      const Outcome o = evaluate(rule, instances[i], kind, seed, device);
      ++v.evaluations;
      v.device_evaluations += o.device_ran;
      v.worst_ratio = std::max(v.worst_ratio, o.worst_ratio);
      if (o.message.empty()) continue;

      // Shrink: smaller dimensions, default-most attributes, same values and seed, still failing.
      RuleInstance best = instances[i];
      std::string message = o.message;
      for (int step = 0; step < 200; ++step) {
        bool progressed = false;
        std::vector<Binding> candidates;
        for (const auto& d : dims) {
          const int64_t cur = best.binding.dims.at(d);
          for (int64_t smaller : {int64_t{1}, cur / 2, cur - 1})
            if (smaller >= 1 && smaller < cur) {
              Binding b = best.binding;
              b.dims[d] = smaller;
              candidates.push_back(b);
            }
        }
        for (const auto& [sym, shape] : best.binding.shapes) {
          for (int r = 0; r < shape.rank(); ++r)
            for (int64_t smaller : {int64_t{1}, shape[r] / 2, shape[r] - 1})
              if (smaller >= 1 && smaller < shape[r]) {
                std::vector<int64_t> d = shape.dims();
                d[static_cast<size_t>(r)] = smaller;
                Binding b = best.binding;
                b.shapes[sym] = Shape(d);
                candidates.push_back(b);
              }
          if (shape.rank() > 1) {  // fewer dimensions
            Binding b = best.binding;
            b.shapes[sym] = Shape(std::vector<int64_t>(shape.dims().begin() + 1, shape.dims().end()));
            candidates.push_back(b);
          }
        }
        for (const auto& a : attr_vars) {
          const AttrSpec& spec = rule.attr_var_spec(a);
          const AttrValue& cur = best.binding.attrs.at(a);
          std::vector<AttrValue> simpler;
          if (spec.kind == AttrKind::Enum && !spec.choices.empty()) simpler.push_back(spec.choices[0]);
          if (spec.kind == AttrKind::Int) {
            simpler.push_back(spec.min);
            if (std::get<int64_t>(cur) - 1 >= spec.min) simpler.push_back(std::get<int64_t>(cur) - 1);
          }
          for (const auto& s : simpler)
            if (!(s == cur)) {
              Binding b = best.binding;
              b.attrs[a] = s;
              candidates.push_back(b);
            }
        }
        for (const auto& b : candidates) {
          std::optional<RuleInstance> c;
          try {
            c = instantiate_rule(rule, b);
          } catch (const Error&) {
            continue;
          }
          if (!c) continue;
          const Outcome oc = evaluate(rule, *c, kind, seed, device);
          if (!oc.message.empty()) {
            best = std::move(*c);
            message = oc.message;
            progressed = true;
            break;
          }
        }
        if (!progressed) break;
      }
      v.passed = false;
      v.message = message;
      std::ostringstream ce;
      ce << "rule '" << rule.name << "' (" << rule.file << ":" << rule.line << ") fails at " << best.binding.str() << ", values " << to_string(kind)
         << ", seed " << seed << ":\n";
      ce << "  lhs: " << rule.lhs.str() << "\n  rhs: " << rule.rhs.str() << "\n";
      const graph::Bindings<float> in = draw_inputs(rule, best, kind, seed);
      for (const auto& [n, t] : in) ce << "  " << n << " = " << tensor_text(t.convert<double>()) << "\n";
      graph::Bindings<double> in64;
      for (const auto& [n, t] : in) in64[n] = t.convert<double>();
      try {
        ce << "  lhs = " << tensor_text(graph::run_graph<double>(best.lhs, in64).at("y")) << "\n";
        if (best.rhs_error.empty()) ce << "  rhs = " << tensor_text(graph::run_graph<double>(best.rhs, in64).at("y")) << "\n";
      } catch (const Error& e) {
        ce << "  (evaluation failed: " << e.what() << ")\n";
      }
      ce << "  " << message;
      v.counterexample = ce.str();
      v.repro = "plumbline rules check " + (rules_file.empty() ? std::string("FILE") : rules_file) + " --rule " + rule.name + " --at \"" +
                best.binding.str() + "\" --values " + to_string(kind) + " --seed " + std::to_string(seed) + " --device " +
                (o.device_failed && device ? device->name() : std::string("none"));
      return v;
    }
  }
  return v;
}

}  // namespace plumbline::egraph
