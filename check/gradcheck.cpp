#include "check/gradcheck.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <sstream>

#include "core/error.hpp"
#include "core/random.hpp"
#include "core/registry.hpp"
#include "reference/reference.hpp"

namespace plumbline {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kStep = 1e-6;  // relative step: truncation ~h^2, rounding ~eps/h, both far below rtol

struct Setup {
  Problem fwd, bwd;
  Signature fsig, bsig;
  std::vector<TensorD> x;          // forward inputs at the evaluation point
  std::vector<size_t> diff_input;  // for each backward output: the forward input it is the gradient of
  BackwardFn backward;
  std::function<std::vector<TensorD>(const Problem&, const std::vector<TensorD>&)> backward_error;
};

size_t index_of(const std::vector<TensorDecl>& v, const std::string& name) {
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i].name == name) return i;
  return v.size();
}

Setup make_setup(const Problem& bwd, uint64_t seed, const GradcheckOptions& o) {
  const OpSpec& spec = Registry::get().find(bwd.op());
  if (spec.forward.empty()) throw Error(bwd.op() + " is not a backward operator; gradcheck takes one of the *_bwd operators");
  Setup s{bwd.as(spec.forward), bwd, {}, {}, {}, {}, o.backward, o.backward_error};
  s.fsig = signature_of(s.fwd);
  s.bsig = signature_of(s.bwd);
  s.x = o.inputs.empty() ? gradcheck_inputs(s.fwd, seed) : o.inputs;
  if (s.x.size() != s.fsig.inputs.size()) throw Error(s.fwd.op() + " takes " + std::to_string(s.fsig.inputs.size()) + " inputs");
  for (size_t i = 0; i < s.x.size(); ++i)
    if (s.x[i].shape != s.fsig.inputs[i].shape)
      throw Error(s.fwd.line() + ": input '" + s.fsig.inputs[i].name + "' must have shape " + s.fsig.inputs[i].shape.str());
  for (const auto& out : s.bsig.outputs) {
    size_t k = s.fsig.inputs.size();
    for (size_t i = 0; i < s.fsig.inputs.size(); ++i)
      if (grad_name(s.fsig.inputs[i].name) == out.name) k = i;
    if (k == s.fsig.inputs.size()) throw Error(bwd.op() + ": output '" + out.name + "' is not the gradient of any input of " + s.fwd.op());
    s.diff_input.push_back(k);
  }
  if (!s.backward) s.backward = [](const Problem& p, const std::vector<TensorD>& in) { return run_reference(p, in); };
  return s;
}

std::vector<TensorD> forward(const Setup& s, const std::vector<TensorD>& x) { return run_reference(s.fwd, x); }

// The backward's inputs, by name: forward inputs, forward outputs, or cotangents ("d_" + output name).
std::vector<TensorD> backward_inputs(const Setup& s, const std::vector<TensorD>& y, const std::vector<TensorD>& v) {
  std::vector<TensorD> in;
  for (const auto& decl : s.bsig.inputs) {
    size_t i = index_of(s.fsig.inputs, decl.name);
    if (i < s.fsig.inputs.size()) {
      in.push_back(s.x[i]);
      continue;
    }
    i = index_of(s.fsig.outputs, decl.name);
    if (i < s.fsig.outputs.size()) {
      in.push_back(y[i]);
      continue;
    }
    bool found = false;
    for (size_t k = 0; k < s.fsig.outputs.size(); ++k)
      if (grad_name(s.fsig.outputs[k].name) == decl.name) {
        in.push_back(v[k]);
        found = true;
      }
    if (!found) throw Error(s.bwd.op() + ": input '" + decl.name + "' is neither an input, an output nor a cotangent of " + s.fwd.op());
  }
  return in;
}

std::vector<TensorD> call_backward(const Setup& s, const std::vector<TensorD>& y, const std::vector<TensorD>& v) {
  std::vector<TensorD> g = s.backward(s.bwd, backward_inputs(s, y, v));
  if (g.size() != s.bsig.outputs.size()) throw Error(s.bwd.op() + ": the backward returned the wrong number of outputs");
  return g;
}

// Differences of a vector-valued function of one scalar perturbation t, at t = +-h and +-h/2.
struct Difference {
  double h = 0;
  std::vector<double> estimate, error;     // central difference (Richardson-extrapolated) and its error
  std::vector<double> fp1, fm1, fp2, fm2;  // f(+h), f(-h), f(+h/2), f(-h/2)
};

// `magnitude`: the size of the terms summed into f, which sets the rounding noise of f.
template <class F>  // F: double t -> flattened outputs at (x + t * direction)
Difference central_difference(F&& f, double h, double magnitude = 0) {
  Difference out;
  out.h = h;
  out.fp1 = f(h), out.fm1 = f(-h), out.fp2 = f(h / 2), out.fm2 = f(-h / 2);
  double scale = magnitude;
  for (const auto* v : {&out.fp1, &out.fm1})
    for (double x : *v) scale = std::max(scale, std::abs(x));
  const size_t n = out.fp1.size();
  out.estimate.resize(n);
  out.error.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const double d1 = (out.fp1[i] - out.fm1[i]) / (2 * h), d2 = (out.fp2[i] - out.fm2[i]) / h;
    out.estimate[i] = (4 * d2 - d1) / 3;  // Richardson: cancels the h^2 term
    out.error[i] = std::abs(d1 - d2) + 16 * kEps * std::max(scale, 1.0) / (h / 2);
  }
  return out;
}

// At a kink (relu at 0, a tie in max_pool, ...) within a step of the point, central differences
// average two slopes and no single derivative is right. There the analytic value must equal one of the
// one-sided derivatives, and the one-sided derivatives must really jump: by over 1% of their size, or,
// for a small kink (one relu among thousands in a random projection: gemm_bias_act_bwd m=129 k=1 n=63
// jumped 0.4% of its size), by over four times the allowed error and at least the discrepancy that the
// kink is to explain (smooth curvature makes the two sides differ by about h f'', far below either).
bool matches_one_side(double analytic, const Difference& d, size_t i, double f0, double allowed) {
  for (int k = 0; k < 2; ++k) {
    const double step = k == 0 ? d.h : d.h / 2;
    const double right = ((k == 0 ? d.fp1[i] : d.fp2[i]) - f0) / step;
    const double left = (f0 - (k == 0 ? d.fm1[i] : d.fm2[i])) / step;
    const double size = std::max(std::abs(left), std::abs(right)), jump = std::abs(right - left);
    const bool small_kink = jump > 4 * allowed && jump >= std::abs(analytic - d.estimate[i]);
    if (jump <= 0.01 * size + allowed && !small_kink) continue;  // no jump: not a kink
    const double slack = allowed + 1e-3 * size;
    if (std::abs(analytic - right) <= slack || std::abs(analytic - left) <= slack) return true;
  }
  return false;
}

// The step a difference falls back to where it misses: kinks that lie within the first step but not
// within this one (two of them, crossed in opposite directions, make the analytic value equal neither
// one-sided derivative) drop out of the stencil.
constexpr double kInsideKink = 1.0 / 256;

std::vector<double> flatten(const std::vector<TensorD>& ts) {
  std::vector<double> v;
  for (const auto& t : ts) v.insert(v.end(), t.data.begin(), t.data.end());
  return v;
}

std::string flat_output_name(const Setup& s, int64_t i) {
  for (const auto& decl : s.fsig.outputs) {
    if (i < decl.shape.numel()) return decl.name + "[" + std::to_string(i) + "]";
    i -= decl.shape.numel();
  }
  return "?";
}

struct Tally {
  GradcheckResult& r;
  // `where` names the check (a function: the name is made only for the worst one).
  template <class Where>
  void add(double analytic, double numeric, double fd_error, double allowed, Where&& where) {
    ++r.checks;
    const double diff = std::abs(analytic - numeric);
    double ratio = allowed > 0 ? diff / allowed : (diff == 0 ? 0 : std::numeric_limits<double>::infinity());
    if (std::isnan(ratio)) ratio = std::numeric_limits<double>::infinity();
    if (ratio > r.worst_ratio || r.where.empty()) {
      r.worst_ratio = ratio;
      r.where = where();
      r.analytic = analytic;
      r.numeric = numeric;
      r.fd_error = fd_error;
    }
  }
  void kink() { ++r.checks, ++r.kinks; }

  // One derivative: output i of the difference d (f0: that output at the point) against the analytic
  // value. Where they differ because a kink lies within the step, the analytic value must be a one-sided
  // derivative, or match a difference with a step inside the kinks (`finer` makes it: two kinks crossed
  // in opposite directions can cancel in the one-sided derivatives, which then show no jump at all);
  // `allowed_of` gives a difference's allowance, its own rounding and truncation included.
  template <class Allowed, class Finer, class Where>
  void judge(double analytic, const Difference& d, size_t i, double f0, Allowed allowed_of, Finer finer, Where&& where) {
    const double allowed = allowed_of(d);
    if (std::abs(analytic - d.estimate[i]) <= allowed) return add(analytic, d.estimate[i], d.error[i], allowed, where);
    if (matches_one_side(analytic, d, i, f0, allowed)) return kink();
    const Difference fine = finer();
    const double within = allowed_of(fine);
    if (std::abs(analytic - fine.estimate[i]) <= within || matches_one_side(analytic, fine, i, f0, within)) return kink();
    add(analytic, d.estimate[i], d.error[i], allowed, where);
  }
};

void full_mode(const Setup& s, const GradcheckOptions& o, GradcheckResult& r) {
  const std::vector<TensorD> y = forward(s, s.x);
  const std::vector<double> f0 = flatten(y);
  const int64_t n_out = static_cast<int64_t>(f0.size());
  // Analytic Jacobian, one row per output element: backward with a one-hot cotangent (and, for a float
  // evaluation, its error bound).
  std::vector<std::vector<TensorD>> rows, bounds;
  for (int64_t i = 0; i < n_out; ++i) {
    std::vector<TensorD> v;
    int64_t k = i;
    for (const auto& t : y) {
      v.emplace_back(t.shape);
      if (k >= 0 && k < t.numel()) v.back()[k] = 1;
      k -= t.numel();
    }
    rows.push_back(call_backward(s, y, v));
    if (s.backward_error) bounds.push_back(s.backward_error(s.bwd, backward_inputs(s, y, v)));
  }
  Tally tally{r};
  for (size_t g = 0; g < s.diff_input.size(); ++g) {
    const size_t xi = s.diff_input[g];
    const std::string& gname = s.bsig.outputs[g].name;
    std::vector<Difference> cols;
    double scale = 0;
    std::vector<TensorD> xp = s.x;  // the point, one element moved at a time and put back
    auto column = [&](int64_t j, double h) {
      return central_difference(
          [&](double t) {
            xp[xi][j] = s.x[xi][j] + t;
            std::vector<double> f = flatten(forward(s, xp));
            xp[xi][j] = s.x[xi][j];
            return f;
          },
          h);
    };
    for (int64_t j = 0; j < s.x[xi].numel(); ++j) {
      cols.push_back(column(j, kStep * std::max(1.0, std::abs(s.x[xi][j]))));
      for (double e : cols.back().estimate) scale = std::max(scale, std::abs(e));
    }
    for (int64_t j = 0; j < s.x[xi].numel(); ++j) {
      std::optional<Difference> fine;  // the column again with a step inside a kink, made once where needed
      for (int64_t i = 0; i < n_out; ++i) {
        const double bound = bounds.empty() ? 0.0 : bounds[i][g][j];
        tally.judge(
            rows[i][g][j], cols[j], static_cast<size_t>(i), f0[i],
            [&](const Difference& d) { return o.atol * scale + o.rtol * std::abs(d.estimate[i]) + d.error[i] + bound; },
            [&] {
              if (!fine) fine = column(j, cols[j].h * kInsideKink);
              return *fine;
            },
            [&] { return gname + "[" + std::to_string(j) + "] row " + flat_output_name(s, i); });
      }
    }
  }
}

void fast_mode(const Setup& s, uint64_t seed, const GradcheckOptions& o, GradcheckResult& r) {
  const std::vector<TensorD> y = forward(s, s.x);
  Rng rng(seed ^ 0x9e3779b97f4a7c15ull);
  std::normal_distribution<double> normal(0.0, 1.0);
  Tally tally{r};
  for (size_t g = 0; g < s.diff_input.size(); ++g) {
    const size_t xi = s.diff_input[g];
    double xmax = 0;
    for (double v : s.x[xi].data) xmax = std::max(xmax, std::abs(v));
    for (int proj = 0; proj < o.projections; ++proj) {
      TensorD u(s.x[xi].shape);
      for (auto& e : u.data) e = std::uniform_real_distribution<double>(-1.0, 1.0)(rng);
      std::vector<TensorD> v;
      for (const auto& t : y) {
        v.emplace_back(t.shape);
        for (auto& e : v.back().data) e = normal(rng);
      }
      const std::vector<double> vflat = flatten(v), yflat = flatten(y);
      double terms = 0, vf0 = 0;  // sum of |v_i F_i|: the rounding of v^T F scales with it, not with |v^T F|
      for (size_t i = 0; i < vflat.size(); ++i) terms += std::abs(vflat[i] * yflat[i]), vf0 += vflat[i] * yflat[i];
      const double h = kStep * std::max(1.0, xmax);
      auto difference = [&](double step) {
        return central_difference(
            [&](double t) {
              std::vector<TensorD> xp = s.x;
              for (int64_t j = 0; j < u.numel(); ++j) xp[xi][j] += t * u[j];
              const std::vector<double> f = flatten(forward(s, xp));
              double vf = 0;
              for (size_t i = 0; i < f.size(); ++i) vf += vflat[i] * f[i];
              return std::vector<double>{vf};
            },
            step, terms);
      };
      const TensorD grad = call_backward(s, y, v)[g];
      double analytic = 0, magnitude = 0, evaluation = 0;
      for (int64_t j = 0; j < u.numel(); ++j) {
        analytic += grad[j] * u[j];
        magnitude += std::abs(grad[j] * u[j]);
      }
      if (s.backward_error) {  // the float evaluation's own bound, projected on u
        const TensorD bound = s.backward_error(s.bwd, backward_inputs(s, y, v))[g];
        for (int64_t j = 0; j < u.numel(); ++j) evaluation += bound[j] * std::abs(u[j]);
      }
      tally.judge(
          analytic, difference(h), 0, vf0,
          [&](const Difference& d) { return o.rtol * std::max(std::abs(d.estimate[0]), magnitude) + d.error[0] + evaluation; },
          [&] { return difference(h * kInsideKink); }, [&] { return s.bsig.outputs[g].name + " . u (projection " + std::to_string(proj) + ")"; });
    }
  }
}

}  // namespace

std::vector<TensorD> gradcheck_inputs(const Problem& forward, uint64_t seed) {
  Rng rng(seed);
  std::vector<TensorD> x;
  for (const auto& decl : signature_of(forward).inputs) {
    if (decl.domain != Domain::Real) {
      x.push_back(make_input(decl, Values::Uniform, rng).convert<double>());
      continue;
    }
    TensorD t(decl.shape);
    const int64_t n = t.numel();
    // Values ((k + 1/4 + U/2) / n) * 4 - 2 in (-2, 2), U uniform in [0, 1): each in its own bin, so
    // distinct, 2/n apart and 1/n away from 0. Not on a grid: a grid's values are rationals of few
    // denominators, whose products and sums meet kinks exactly (a*b + bias = 0 at several relus at
    // once, each crossed by any direction, where no one-sided derivative is the analytic value).
    for (int64_t k = 0; k < n; ++k)
      t[k] = (static_cast<double>(k) + 0.25 + 0.5 * std::uniform_real_distribution<double>(0.0, 1.0)(rng)) / static_cast<double>(n) * 4.0 - 2.0;
    std::shuffle(t.data.begin(), t.data.end(), rng);
    x.push_back(std::move(t));
  }
  return x;
}

std::string GradcheckResult::summary() const {
  std::ostringstream o;
  o.precision(6);
  o << (passed ? "pass" : "FAIL") << " (" << mode << ", " << checks << " checks, worst ratio " << worst_ratio;
  if (kinks) o << ", " << kinks << " at kinks, matched one-sided or inside them";
  o << ")";
  if (!where.empty()) o << "; worst at " << where << ": analytic " << analytic << ", numeric " << numeric << " +- " << fd_error;
  return o.str();
}

GradcheckResult gradcheck(const Problem& bwd, uint64_t seed, const GradcheckOptions& o) {
  const Setup s = make_setup(bwd, seed, o);
  int64_t n_in = 0, n_out = 0;
  for (size_t xi : s.diff_input) n_in += s.x[xi].numel();
  for (const auto& t : s.fsig.outputs) n_out += t.shape.numel();
  const double cost = (4.0 * static_cast<double>(n_in) + static_cast<double>(n_out)) * std::max(s.fsig.flops, 1.0);
  const bool full = o.mode == GradcheckOptions::Mode::Full || (o.mode == GradcheckOptions::Mode::Auto && cost <= o.full_budget);
  GradcheckResult r;
  r.mode = full ? "full" : "fast";
  if (full)
    full_mode(s, o, r);
  else
    fast_mode(s, seed, o, r);
  r.passed = r.worst_ratio <= 1.0;
  return r;
}

}  // namespace plumbline
