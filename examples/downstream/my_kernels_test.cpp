// A downstream project's own tests of its kernels, with plumbline (find_package(plumbline)).
#include <gtest/gtest.h>

#include "plans/library.hpp"
#include "testing/gtest.hpp"

using plumbline::plans::KernelSource;

TEST(MyKernels, Vadd4PassesPlumblinesCheck) {
  EXPECT_KERNEL_PASSES("add", KernelSource{.plan_file = MY_KERNELS_DIR "/vadd4.plan"});
}

TEST(MyKernels, ABugComesWithTheShrunkProblemAndARepro) {
  const ::testing::AssertionResult r = plumbline::testing::KernelPasses("add", KernelSource{.plan_file = MY_KERNELS_DIR "/vadd4_drops_tail.plan"});
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
  EXPECT_KERNEL_PASSES("leaky_relu", KernelSource{.plan_file = MY_KERNELS_DIR "/leaky_relu.plan"});
}

TEST(MyOperator, AKernelThatIgnoresTheSlopeIsCaught) {
  const ::testing::AssertionResult r =
      plumbline::testing::KernelPasses("leaky_relu", KernelSource{.plan_file = MY_KERNELS_DIR "/leaky_relu_fixed_slope.plan"});
  ASSERT_FALSE(r);
  const std::string m = r.message();
  EXPECT_NE(m.find("[wrong]"), std::string::npos) << m;
  const size_t at = m.find("problem: ") + 9;
  const std::string problem = m.substr(at, m.find(' ', at) - at);  // leaky_relu:n=...,slope=...
  EXPECT_EQ(problem.find("slope=0.01"), std::string::npos) << "the failing problem has another slope: " << m;
  EXPECT_NE(problem.find("slope="), std::string::npos) << m;
  EXPECT_NE(m.find("repro:   plumbline check leaky_relu --problem 'leaky_relu:n="), std::string::npos) << m;
}
