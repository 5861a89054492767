#include "egraph/device_eval.hpp"

#include <cmath>

#include "check/error_models.hpp"
#include "core/error.hpp"
#include "reference/reference.hpp"

namespace plumbline::egraph {

static bool small_integers(const TensorF& t) {
  for (float v : t.data)
    if (!(std::abs(v) <= 2048.0f) || v != std::nearbyint(v)) return false;
  return true;
}

DeviceRun run_on_device(KernelChecker& kc, const graph::Graph& g, const graph::Bindings<float>& inputs, bool integer_inputs) {
  graph::check_bindings(g, inputs);
  DeviceRun run;
  const std::vector<bool> live = g.live();
  run.values.resize(static_cast<size_t>(g.size()));
  for (int i = 0; i < g.size() && run.problem.empty(); ++i) {
    if (!live[static_cast<size_t>(i)]) continue;
    const graph::Node& n = g.node(i);
    std::vector<TensorF> args;
    std::vector<Shape> shapes;
    for (int a : n.args) {
      args.push_back(run.values[static_cast<size_t>(a)]);
      shapes.push_back(args.back().shape);
    }
    if (n.op->name == "var") {
      run.values[static_cast<size_t>(i)] = inputs.at(graph::attr_s(n.attrs, "name"));
      continue;
    }
    if (n.op->problem_op.empty()) {
      run.values[static_cast<size_t>(i)] = graph::evaluate<float>(*n.op, args, n.attrs);
      continue;
    }
    const Problem p = graph::problem_of(*n.op, shapes, n.attrs);
    const Signature sig = signature_of(p);
    std::vector<TensorD> in_d;
    bool integers = integer_inputs;
    for (size_t k = 0; k < args.size(); ++k) {
      args[k].shape = sig.inputs[k].shape;  // flat operators see [numel]
      in_d.push_back(args[k].convert<double>());
      integers = integers && small_integers(args[k]);
    }
    const Execution ex = kc.execute(p, args);
    ++run.kernel_nodes;
    run.seconds += ex.seconds;
    const std::string where = "node %" + std::to_string(i) + " " + n.op->name + " (" + p.line() + "): ";
    if (!ex.problem.empty()) {
      run.problem = where + ex.verdict + ": " + ex.problem;
      break;
    }
    const std::vector<TensorD> ref = run_reference(p, in_d);
    const std::vector<ErrorModel> models = error_models(p, in_d, ref, integers);
    for (size_t k = 0; k < ex.outputs.size(); ++k) {
      const Comparison c = compare(sig.outputs[k].name, ex.outputs[k], ref[k], models[k]);
      run.worst_ratio = std::max(run.worst_ratio, c.worst_ratio);
      if (!c.passed && run.problem.empty()) run.problem = where + c.message;
      if (sig.outputs[k].name == n.op->output) {
        run.values[static_cast<size_t>(i)] = ex.outputs[k];
        run.values[static_cast<size_t>(i)].shape = n.shape;
      }
    }
  }
  return run;
}

std::string DeviceSideEvaluator::check(const graph::Graph& lhs, const graph::Graph& rhs, const graph::Bindings<float>& inputs, bool bitwise) {
  const DeviceRun l = run_on_device(kc_, lhs, inputs, bitwise);
  if (!l.problem.empty()) return "left side: " + l.problem;
  const DeviceRun r = run_on_device(kc_, rhs, inputs, bitwise);
  if (!r.problem.empty()) return "right side: " + r.problem;
  if (bitwise) {
    const TensorF& a = l.values[static_cast<size_t>(lhs.output("y"))];
    const TensorF& b = r.values[static_cast<size_t>(rhs.output("y"))];
    for (int64_t i = 0; i < a.numel(); ++i)
      if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i]))))
        return "y[" + std::to_string(i) + "]: left " + std::to_string(a[i]) + ", right " + std::to_string(b[i]) +
               " (exact rule on integer inputs: the kernels must agree bit for bit)";
  }
  return "";
}

}  // namespace plumbline::egraph
