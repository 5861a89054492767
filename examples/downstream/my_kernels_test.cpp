// A downstream project's own tests of its kernels, with plumbline (find_package(plumbline)).
#include <gtest/gtest.h>

#include "plans/library.hpp"
#include "testing/gtest.hpp"

using plumbline::plans::KernelSource;

TEST(MyKernels, Vadd4) {
  EXPECT_KERNEL_PASSES("add", KernelSource{.plan_file = "kernels/vadd4.plan"});  // beside this file
}

TEST(MyKernels, ABugComesWithTheShrunkProblemAndARepro) {
  const ::testing::AssertionResult r = plumbline::testing::KernelPasses("add", KernelSource{.plan_file = "kernels/vadd4_drops_tail.plan"});
  ASSERT_FALSE(r);
  const std::string m = r.message();
  EXPECT_NE(m.find("FAIL add on pocl:0 [unwritten]"), std::string::npos) << m;
  EXPECT_NE(m.find("problem: add:n="), std::string::npos) << m;
  EXPECT_NE(m.find("repro:   plumbline check add --problem 'add:n="), std::string::npos) << m;
  EXPECT_NE(m.find("--plan " MY_KERNELS_DIR "/vadd4_drops_tail.plan"), std::string::npos) << m;
}

TEST(MyKernels, TheInstalledCopysKernelsAreTheOnesUsed) {
  plumbline::testing::use_installed_data();
  EXPECT_EQ(plumbline::plans::kernel_dir(), std::string(PLUMBLINE_INSTALLED_DATA_DIR) + "/kernels");
  // plumbline's own kernel for the same operator, from the installed plans.
  EXPECT_KERNEL_PASSES("add", KernelSource{}, {.cases = 20});
}

// ---- an operator of this project's own ----------------------------------------------------------------

#include "leaky_relu.hpp"

namespace {
const bool registered = (register_leaky_relu(), true);  // before any test runs
}

TEST(MyOperator, LeakyReluIsCheckedLikeAnyOfPlumblinesOperators) {
  ASSERT_TRUE(registered);
  EXPECT_KERNEL_PASSES("leaky_relu", KernelSource{.plan_file = "kernels/leaky_relu.plan"});
}

TEST(MyOperator, AKernelThatIgnoresTheSlopeIsCaught) {
  const ::testing::AssertionResult r =
      plumbline::testing::KernelPasses("leaky_relu", KernelSource{.plan_file = "kernels/leaky_relu_fixed_slope.plan"});
  ASSERT_FALSE(r);
  const std::string m = r.message();
  EXPECT_NE(m.find("[wrong]"), std::string::npos) << m;
  const size_t at = m.find("problem: ") + 9;
  const std::string problem = m.substr(at, m.find(' ', at) - at);  // leaky_relu:n=...,slope=...
  EXPECT_EQ(problem.find("slope=0.01"), std::string::npos) << "the failing problem has another slope: " << m;
  EXPECT_NE(problem.find("slope="), std::string::npos) << m;
  // The installed program does not know this project's operator: the repro is the call in a test.
  EXPECT_EQ(m.find("repro:   plumbline check"), std::string::npos) << m;
  const std::string head = "in a test: EXPECT_KERNEL_PASSES(\"leaky_relu\", source, {.seed = ";
  const size_t call = m.find(head);
  ASSERT_NE(call, std::string::npos) << m;
  const uint64_t seed = std::stoull(m.substr(call + head.size()));
  const size_t v = m.find(".values = \"", call) + 11;
  const std::string values = m.substr(v, m.find('"', v) - v);
  EXPECT_NE(m.find(".problem = \"" + problem + "\"", call), std::string::npos) << m;
  // ... which fails again on that one problem, and passes with the right kernel.
  const KernelSource wrong{.plan_file = "kernels/leaky_relu_fixed_slope.plan"};
  EXPECT_FALSE(plumbline::testing::KernelPasses("leaky_relu", wrong, {.seed = seed, .problem = problem, .values = values}));
  EXPECT_KERNEL_PASSES("leaky_relu", KernelSource{.plan_file = "kernels/leaky_relu.plan"}, {.seed = seed, .problem = problem, .values = values});
}
