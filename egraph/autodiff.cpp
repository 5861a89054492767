#include "egraph/autodiff.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace plumbline::graph {

std::map<std::string, int> add_backward(Graph& g, const std::string& loss_name, const std::vector<std::string>& wrt) {
  const int loss = g.output(loss_name);
  if (g.node(loss).shape.numel() != 1 || g.node(loss).shape.rank() != 0)
    throw Error("autodiff: output '" + loss_name + "' is " + g.node(loss).shape.str() + ", not a scalar loss");
  const int forward_size = g.size();
  // Which nodes depend on a differentiated input: only their gradients are built.
  std::vector<bool> needs(static_cast<size_t>(forward_size), false);
  std::map<std::string, int> input_ids;
  for (const auto& [name, id] : g.inputs()) input_ids[name] = id;
  for (const auto& name : wrt) {
    if (!input_ids.contains(name)) throw Error("autodiff: the graph has no input named '" + name + "'");
    needs[static_cast<size_t>(input_ids[name])] = true;
  }
  for (int i = 0; i < forward_size; ++i)
    for (int a : g.node(i).args)
      if (needs[static_cast<size_t>(a)]) needs[static_cast<size_t>(i)] = true;

  std::vector<int> grad(static_cast<size_t>(forward_size), -1);
  grad[static_cast<size_t>(loss)] = g.fill(Shape{}, 1.0);
  for (int i = loss; i >= 0; --i) {
    const int d = grad[static_cast<size_t>(i)];
    if (d < 0 || g.node(i).args.empty()) continue;
    const Node n = g.node(i);  // a copy: adding nodes may move the vector
    bool any = false;
    for (int a : n.args) any = any || needs[static_cast<size_t>(a)];
    if (!any) continue;
    if (!n.op->vjp) throw Error("autodiff: operator '" + n.op->name + "' has no gradient (node %" + std::to_string(i) + ")");
    const std::vector<int> grads = n.op->vjp(g, n.args, i, d, n.attrs);
    for (size_t k = 0; k < n.args.size(); ++k) {
      const int a = n.args[k];
      if (!needs[static_cast<size_t>(a)] || grads[k] < 0) continue;
      int& acc = grad[static_cast<size_t>(a)];
      acc = acc < 0 ? grads[k] : g.add("add", {acc, grads[k]});
    }
  }
  std::map<std::string, int> out;
  for (const auto& name : wrt) {
    int d = grad[static_cast<size_t>(input_ids[name])];
    if (d < 0) d = g.fill(g.node(input_ids[name]).shape, 0.0);  // the loss does not depend on it
    g.set_output("d_" + name, d);
    out[name] = d;
  }
  return out;
}

GradientCheck check_gradients(const Graph& g, const std::string& loss, const std::vector<std::string>& wrt, const Bindings<double>& at, double rtol,
                              double atol) {
  GradientCheck r;
  const auto analytic = run_graph<double>(g, at);
  auto f = [&](const Bindings<double>& x) { return run_graph<double>(g, x).at(loss)[0]; };
  // Numeric derivatives of every tensor first: atol is relative to the largest of them all, so a
  // gradient that is zero in exact arithmetic (a conv bias before a norm) is not judged by its noise.
  std::map<std::string, std::vector<double>> numeric, fd_err;
  double scale = 0;
  for (const auto& name : wrt) {
    const int64_t count = analytic.at("d_" + name).numel();
    auto& num = numeric[name];
    auto& err = fd_err[name];
    Bindings<double> x = at;
    for (int64_t e = 0; e < count; ++e) {
      const double x0 = at.at(name)[e];
      double roundoff = 0;  // of the difference quotient: the loss's own rounding, over 2h
      auto central = [&](double h) {
        x[name][e] = x0 + h;
        const double fp = f(x);
        x[name][e] = x0 - h;
        const double fm = f(x);
        x[name][e] = x0;
        roundoff = std::max(roundoff, 64 * 0x1p-52 * std::max(std::abs(fp), std::abs(fm)) / (2 * h));
        return (fp - fm) / (2 * h);
      };
      const double h = 1e-5 * std::max(1.0, std::abs(x0));  // small: a kink (relu, max) rarely falls within it
      const double d1 = central(h), d2 = central(h / 2);
      num.push_back((4 * d2 - d1) / 3);
      err.push_back(std::abs(d2 - d1) + roundoff);
      scale = std::max(scale, std::abs(num.back()));
    }
  }
  for (const auto& name : wrt) {
    const TensorD& d = analytic.at("d_" + name);
    for (int64_t e = 0; e < d.numel(); ++e) {
      const double num = numeric[name][static_cast<size_t>(e)], err = fd_err[name][static_cast<size_t>(e)];
      const double allowed = rtol * std::abs(num) + atol * scale + err;
      const double ratio = std::abs(d[e] - num) / allowed;
      ++r.checks;
      if (std::isnan(ratio) || ratio > r.worst_ratio || r.where.empty()) {
        r.worst_ratio = std::isnan(ratio) ? INFINITY : ratio;
        r.where = "d_" + name + "[" + std::to_string(e) + "]: analytic " + std::to_string(d[e]) + ", numeric " + std::to_string(num) + " (fd error " +
                  std::to_string(err) + ")";
      }
    }
  }
  r.passed = r.worst_ratio <= 1;
  return r;
}

}  // namespace plumbline::graph
