#pragma once
// GoogleTest helpers for projects that use plumbline (find_package(plumbline); docs/extending.md):
// check an OpenCL kernel of yours in your own test with one call, with plumbline's failure message
// (problem line, shrunk repro) as the assertion's message.
//
//   EXPECT_KERNEL_PASSES("matmul", plumbline::plans::KernelSource{.plan_file = "my_gemm.plan"});  // beside this test file
//
// The cases are `plumbline check`'s (the same problems, values, bounds and shrinking), run in this
// process on one device (default: PLUMBLINE_DEVICE, else the first device found); a kernel that crashes
// takes the test with it: the CLI's `plumbline check` isolates each operator in a child process.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <source_location>
#include <sstream>
#include <string>
#include <vector>

#include "check/kernel_check.hpp"
#include "opencl/device.hpp"
#include "opencl/runtime.hpp"
#include "plans/library.hpp"

namespace plumbline::testing {

struct KernelCheckOptions {
  int cases = 100;
  uint64_t seed = 1;
  std::string device;  // a selector (pocl:0, nvidia:0); empty: PLUMBLINE_DEVICE, else the first device
  // One problem instead of random ones (a failure's repro): its line, and its values ("" : integers,
  // as the first random case's), drawn with `seed`.
  std::string problem;
  std::string values;
};

// An installed copy's kernels and tuning database (the package config defines where they are).
inline void use_installed_data() {
#ifdef PLUMBLINE_INSTALLED_DATA_DIR
  static const bool once = (plans::set_data_dir(PLUMBLINE_INSTALLED_DATA_DIR), true);
  (void)once;
#endif
}

namespace detail {

// A relative plan or kernel file is the calling test file's neighbour (where it exists there): the test
// finds it from any working directory.
inline plans::KernelSource beside(plans::KernelSource s, const std::source_location& where) {
  const std::filesystem::path folder = std::filesystem::path(where.file_name()).parent_path();
  for (std::string* path : {&s.plan_file, &s.kernel_file})
    if (!path->empty() && std::filesystem::path(*path).is_relative() && std::filesystem::exists(folder / *path))
      *path = (folder / *path).lexically_normal().string();
  return s;
}

inline std::string quoted(const std::string& s) { return "\"" + s + "\""; }

// The call that runs the failing case again, in a test: the same problem, values and seed.
inline std::string test_repro(const std::string& op, const CaseResult& r, const KernelCheckOptions& o) {
  std::string call = "EXPECT_KERNEL_PASSES(" + quoted(op) + ", source, {.seed = " + std::to_string(r.seed);
  if (!o.device.empty()) call += ", .device = " + quoted(o.device);
  return call + ", .problem = " + quoted(r.problem.line()) + ", .values = " + quoted(to_string(r.values)) + "})";
}

}  // namespace detail

// Runs op's cases against the kernel source: success, or failure with plumbline's message for the first
// failing case (shrunk) and what reproduces it: the command line for plumbline's own operators, and the
// call in a test for every operator (an operator added through check/extend.hpp lives in your test).
inline ::testing::AssertionResult KernelPasses(const std::string& op, const plans::KernelSource& given, const KernelCheckOptions& o = {},
                                               const std::source_location& where = std::source_location::current()) {
  use_installed_data();
  try {
    const plans::KernelSource source = detail::beside(given, where);
    const auto devices = ocl::select_devices(o.device.empty() ? ocl::default_selector() : o.device);
    ocl::Runtime rt(devices.at(0));
    KernelChecker checker(rt, source);
    std::vector<KernelCase> cases;
    std::optional<CasePlan> plan;
    if (!o.problem.empty()) {
      const Problem p = Problem::parse(o.problem);
      if (p.op() != op) throw Error("problem '" + o.problem + "' is not a problem of " + op);
      const Values v = o.values.empty() ? Values::Integers : values_from_string(o.values);
      for (const auto& variant : checker.variants(op))
        if (plans::applies(variant, p)) cases.push_back({&variant, rc::shrinkable::just(p), v, o.seed});
      if (cases.empty()) plans::select_variant(checker.variants(op), p);  // the error naming every condition
    } else {
      plan.emplace(checker.variants(op), op, o.cases, o.seed);
      for (int i = 0; i < plan->count(); ++i) cases.push_back(plan->at(i));
    }
    double worst = 0;
    for (const KernelCase& c : cases) {
      const CaseResult r = checker.run(c.problem.value(), c.values, c.seed, c.variant);
      worst = std::max(worst, r.worst_ratio);
      if (r.passed) continue;
      const CaseResult s = checker.faulted() ? r : shrink_case(checker, c, r);
      std::ostringstream m;
      m << "FAIL " << op << " on " << s.device << " [" << s.verdict << "]: " << s.message << "\n  problem: " << s.problem.line() << "  (values "
        << to_string(s.values) << ", seed " << s.seed << ", variant " << s.variant << ")";
      if (Registry::get().is_builtin(op)) m << "\n  repro:   " << check_repro(s, source);
      m << "\n  in a test: " << detail::test_repro(op, s, o);
      if (!(s.problem == r.problem)) m << "\n  (shrunk from " << r.problem.line() << ")";
      return ::testing::AssertionFailure() << m.str();
    }
    return ::testing::AssertionSuccess() << op << ": " << cases.size() << " cases passed, worst error/bound ratio " << worst;
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "plumbline: " << e.what();
  }
}

}  // namespace plumbline::testing

// EXPECT_KERNEL_PASSES(op, source [, options]): the kernel passes plumbline's check of op; a failure is
// reported with plumbline's message alone. ASSERT_KERNEL_PASSES ends the test there.
#define EXPECT_KERNEL_PASSES(op, ...)                                                                                               \
  do {                                                                                                                              \
    if (const ::testing::AssertionResult plumbline_passes = ::plumbline::testing::KernelPasses(op, __VA_ARGS__); !plumbline_passes) \
      ADD_FAILURE() << plumbline_passes.message();                                                                                  \
  } while (0)
#define ASSERT_KERNEL_PASSES(op, ...)                                                                                            \
  if (const ::testing::AssertionResult plumbline_passes = ::plumbline::testing::KernelPasses(op, __VA_ARGS__); plumbline_passes) \
    ;                                                                                                                            \
  else                                                                                                                           \
    FAIL() << plumbline_passes.message()
