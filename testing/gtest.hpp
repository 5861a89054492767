#pragma once
// GoogleTest helpers for projects that use plumbline (find_package(plumbline); docs/extending.md):
// check an OpenCL kernel of yours in your own test with one call, with plumbline's failure message
// (problem line, shrunk repro) as the assertion's message.
//
//   EXPECT_KERNEL_PASSES("matmul", plumbline::plans::KernelSource{.plan_file = "my_gemm.plan"});
//
// The cases are `plumbline check`'s (the same problems, values, bounds and shrinking), run in this
// process on one device (default: PLUMBLINE_DEVICE, else the first device found); a kernel that crashes
// takes the test with it: the CLI's `plumbline check` isolates each operator in a child process.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "check/kernel_check.hpp"
#include "opencl/device.hpp"
#include "opencl/runtime.hpp"
#include "plans/library.hpp"

namespace plumbline::testing {

struct KernelCheckOptions {
  int cases = 100;
  uint64_t seed = 1;
  std::string device;  // a selector (pocl:0, nvidia:0); empty: PLUMBLINE_DEVICE, else the first device
};

// An installed copy's kernels and tuning database (the package config defines where they are).
inline void use_installed_data() {
#ifdef PLUMBLINE_INSTALLED_DATA_DIR
  static const bool once = (plans::set_data_dir(PLUMBLINE_INSTALLED_DATA_DIR), true);
  (void)once;
#endif
}

// Runs op's cases against the kernel source: success, or failure with plumbline's message for the first
// failing case (shrunk) and the command that reproduces it.
inline ::testing::AssertionResult KernelPasses(const std::string& op, const plans::KernelSource& source, const KernelCheckOptions& o = {}) {
  use_installed_data();
  try {
    const auto devices = ocl::select_devices(o.device.empty() ? ocl::default_selector() : o.device);
    ocl::Runtime rt(devices.at(0));
    KernelChecker checker(rt, source);
    const CasePlan plan(checker.variants(op), op, o.cases, o.seed);
    double worst = 0;
    for (int i = 0; i < plan.count(); ++i) {
      const KernelCase c = plan.at(i);
      const CaseResult r = checker.run(c.problem.value(), c.values, c.seed, c.variant);
      worst = std::max(worst, r.worst_ratio);
      if (r.passed) continue;
      const CaseResult s = checker.faulted() ? r : shrink_case(checker, c, r);
      std::ostringstream m;
      m << "FAIL " << op << " on " << s.device << " [" << s.verdict << "]: " << s.message << "\n  problem: " << s.problem.line()
        << "  (values " << to_string(s.values) << ", seed " << s.seed << ", variant " << s.variant << ")\n  repro:   "
        << check_repro(s, source);
      if (!(s.problem == r.problem)) m << "\n  (shrunk from " << r.problem.line() << ")";
      return ::testing::AssertionFailure() << m.str();
    }
    return ::testing::AssertionSuccess() << op << ": " << plan.count() << " cases passed, worst error/bound ratio " << worst;
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "plumbline: " << e.what();
  }
}

}  // namespace plumbline::testing

// EXPECT_KERNEL_PASSES(op, source [, options]): the kernel passes plumbline's check of op.
#define EXPECT_KERNEL_PASSES(op, ...) EXPECT_TRUE(::plumbline::testing::KernelPasses(op, __VA_ARGS__))
#define ASSERT_KERNEL_PASSES(op, ...) ASSERT_TRUE(::plumbline::testing::KernelPasses(op, __VA_ARGS__))
