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
