// plumbline's Python API, the C++ side (_plumbline): problems drawn as `plumbline check` draws them,
// the references, the checks of any function against them, and gradient checks. plumbline/__init__.py
// wraps it (docs/python.md).
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "check/function_check.hpp"
#include "check/generators.hpp"
#include "check/gradcheck.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"
#include "reference/reference.hpp"

namespace py = pybind11;
using namespace plumbline;

namespace {

template <class T>
py::array_t<T> to_array(const Tensor<T>& t) {
  std::vector<py::ssize_t> shape(t.shape.dims().begin(), t.shape.dims().end());
  py::array_t<T> a(shape);
  std::copy(t.data.begin(), t.data.end(), a.mutable_data());
  return a;
}

template <class T>
Tensor<T> from_array(const py::handle& h, const std::string& what) {
  const auto a = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(h);
  if (!a) throw Error(what + " is not an array of numbers");
  std::vector<int64_t> dims(a.shape(), a.shape() + a.ndim());
  Tensor<T> t{Shape(dims)};
  std::copy(a.data(), a.data() + a.size(), t.data.begin());
  return t;
}

py::dict named(const std::vector<TensorDecl>& decls, const std::vector<TensorF>& f) {
  py::dict d;
  for (size_t i = 0; i < decls.size(); ++i) d[py::str(decls[i].name)] = to_array(f[i]);
  return d;
}

py::dict named(const std::vector<TensorDecl>& decls, const std::vector<TensorD>& t) {
  py::dict d;
  for (size_t i = 0; i < decls.size(); ++i) d[py::str(decls[i].name)] = to_array(t[i]);
  return d;
}

// Tensors in the declared order from a dict by name, a list or tuple in order, or (one tensor) an array.
template <class T>
std::vector<Tensor<T>> unnamed(const std::vector<TensorDecl>& decls, const py::handle& h, const std::string& what) {
  std::vector<Tensor<T>> out;
  if (py::isinstance<py::dict>(h)) {
    const py::dict d = py::reinterpret_borrow<py::dict>(h);
    for (const auto& decl : decls) {
      if (!d.contains(decl.name)) throw Error(what + " has no '" + decl.name + "'");
      out.push_back(from_array<T>(d[py::str(decl.name)], what + " '" + decl.name + "'"));
    }
    return out;
  }
  if (py::isinstance<py::list>(h) || py::isinstance<py::tuple>(h)) {
    size_t i = 0;
    for (const auto& item : h) out.push_back(from_array<T>(item, what + " " + std::to_string(i++)));
    return out;
  }
  out.push_back(from_array<T>(h, what));
  return out;
}

py::dict problem_dict(const Problem& p) {
  py::dict attrs;
  for (const auto& a : Registry::get().find(p.op()).attrs) {
    if (a.kind == AttrKind::Int)
      attrs[py::str(a.name)] = p.i(a.name);
    else if (a.kind == AttrKind::Enum)
      attrs[py::str(a.name)] = p.s(a.name);
    else
      attrs[py::str(a.name)] = p.f(a.name);
  }
  return attrs;
}

Problem problem_of(const std::string& op_or_line) { return Problem::parse(op_or_line); }

py::dict case_dict(const CaseResult& r) {
  py::dict d;
  d["problem"] = r.problem.line();
  d["values"] = std::string(to_string(r.values));
  d["seed"] = r.seed;
  d["passed"] = r.passed;
  d["verdict"] = r.verdict;
  d["message"] = r.message;
  d["worst_ratio"] = r.worst_ratio;
  return d;
}

}  // namespace

PYBIND11_MODULE(_plumbline, m) {
  m.doc() = "plumbline: check any implementation of a neural-network operator against double references";
  py::register_exception<Error>(m, "Error", PyExc_ValueError);

  m.def(
      "operators", [] { return Registry::get().names(); }, "The operators' names.");
  m.def(
      "attributes", [](const std::string& line) { return problem_dict(problem_of(line)); }, py::arg("problem"),
      "A problem line's attributes (defaults filled in) as a dict.");
  m.def(
      "canonical", [](const std::string& line) { return problem_of(line).line(); }, py::arg("problem"),
      "The problem line with every attribute spelled out.");
  m.def(
      "signature",
      [](const std::string& line) {
        const Signature sig = signature_of(problem_of(line));
        auto shapes = [](const std::vector<TensorDecl>& v) {
          py::dict d;
          for (const auto& t : v) d[py::str(t.name)] = py::tuple(py::cast(t.shape.dims()));
          return d;
        };
        return py::make_tuple(shapes(sig.inputs), shapes(sig.outputs));
      },
      py::arg("problem"), "(inputs, outputs): dicts of tensor name to shape, in order.");
  m.def(
      "problems",
      [](const std::string& op, int n, uint64_t seed) {
        std::vector<std::string> lines;
        for (int i = 0; i < n; ++i) lines.push_back(sample_problem(op, GenContext(kKernelCaseBudget), seed, i, n).value().line());
        return lines;
      },
      py::arg("op"), py::arg("n") = 10, py::arg("seed") = 1, "n problem lines of op, drawn as `plumbline check` draws them.");
  m.def(
      "round_to",
      [](const py::handle& values, const std::string& format) {
        const DType d = dtype_from_string(format);
        TensorF t = from_array<float>(values, "values");
        for (auto& x : t.data) x = round_to(d, x);
        return to_array(t);
      },
      py::arg("values"), py::arg("format"),
      "values (float32) rounded to the storage format f32, f16 or bf16 as a kernel's store rounds them: to nearest, ties to even, "
      "overflow to Inf; float32 arrays that hold values of the format.");
  m.def(
      "inputs",
      [](const std::string& line, const std::string& values, uint64_t seed) {
        const Problem p = problem_of(line);
        const Signature sig = signature_of(p);
        return named(sig.inputs, draw_inputs(sig, values_from_string(values), seed).f);
      },
      py::arg("problem"), py::arg("values") = "normal", py::arg("seed") = 1,
      "The float32 inputs a check draws for (problem, values, seed), by name.");
  m.def(
      "reference",
      [](const std::string& line, const py::object& inputs) {
        const Problem p = problem_of(line);
        const Signature sig = signature_of(p);
        const auto in = unnamed<double>(sig.inputs, inputs, "inputs");
        if (in.size() != sig.inputs.size()) throw Error(p.op() + " takes " + std::to_string(sig.inputs.size()) + " inputs");
        for (size_t i = 0; i < in.size(); ++i)
          if (in[i].shape != sig.inputs[i].shape)
            throw Error("input '" + sig.inputs[i].name + "' has shape " + in[i].shape.str() + ", " + p.line() + " needs " +
                        sig.inputs[i].shape.str());
        return named(sig.outputs, run_reference(p, in));
      },
      py::arg("problem"), py::arg("inputs"), "The reference outputs (float64, by name) of a problem at the given inputs.");
  m.def(
      "check",
      [](const std::string& op, const py::function& fn, int cases, uint64_t seed, std::optional<std::string> values,
         std::optional<std::string> problem, std::vector<std::string> dtypes, const std::string& nonfinite, const std::string& math) {
        const NonfinitePolicy policy = nonfinite_policy_from(nonfinite, "nonfinite");
        const NumericMode mode = NumericMode::parse(math);
        const OutputsFn call = [&fn](const Problem& p, const std::vector<TensorF>& in) {
          const Signature sig = signature_of(p);
          py::object out;
          try {
            out = fn(p.line(), named(sig.inputs, in));
          } catch (py::error_already_set& e) {
            // An exception of the function's is its failure on this case (shrunk, with the repro);
            // KeyboardInterrupt and SystemExit are not Exceptions and end the check.
            if (!e.matches(PyExc_Exception)) throw;
            throw Error(std::string("the function raised ") + e.what());
          }
          return unnamed<float>(sig.outputs, out, "the function's result");
        };
        std::optional<Values> v;
        if (values) v = values_from_string(*values);
        std::optional<Problem> one;
        if (problem) one = problem_of(*problem);
        if (one && one->op() != op) throw Error("problem '" + *problem + "' is not a problem of " + op);
        mode.check_applies(op);
        const FunctionCheck r = check_function(op, call, cases, seed, v, one, dtypes, policy, mode);
        py::dict d;
        d["passed"] = r.passed;
        d["cases"] = r.cases;
        d["worst_ratio"] = r.worst_ratio;
        d["ieee_accepted"] = r.ieee_accepted;
        if (!r.passed) {
          d["failure"] = case_dict(r.failure);
          d["original"] = r.original.line();
        }
        return d;
      },
      py::arg("op"), py::arg("fn"), py::arg("cases") = 100, py::arg("seed") = 1, py::arg("values") = py::none(), py::arg("problem") = py::none(),
      py::arg("dtypes") = std::vector<std::string>{}, py::arg("nonfinite") = "limits", py::arg("math") = "exact",
      "Checks fn(problem_line, inputs) against the reference; a dict of the result.");
  m.def(
      "gradcheck",
      [](const std::string& line, std::optional<py::function> backward, uint64_t seed) {
        const Problem p = problem_of(line);
        GradcheckOptions o;
        if (backward) {
          o.backward = [&backward](const Problem& q, const std::vector<TensorD>& in) {
            const Signature sig = signature_of(q);
            return unnamed<double>(sig.outputs, (*backward)(q.line(), named(sig.inputs, in)), "the backward's result");
          };
        }
        const GradcheckResult r = gradcheck(p, seed, o);
        py::dict d;
        d["passed"] = r.passed;
        d["mode"] = r.mode;
        d["checks"] = r.checks;
        d["worst_ratio"] = r.worst_ratio;
        d["summary"] = r.summary();
        return d;
      },
      py::arg("problem"), py::arg("backward") = py::none(), py::arg("seed") = 1,
      "Checks a backward problem's backward (the reference's, or the given function's) against finite differences.");
}
