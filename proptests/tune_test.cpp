// The tuner's rule for replacing a class's entry (tune/tuner.hpp): the winner, timed again against the
// entry in pairs, must show an improvement as bench's paired verdict judges one (hand-made times: no
// device, no timing); and where its search starts (the first device, no timing: the order of the
// candidates, not their times).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "bench/paired.hpp"
#include "check/kernel_check.hpp"
#include "opencl/device.hpp"
#include "opencl/runtime.hpp"
#include "tune/tuner.hpp"

namespace plumbline::tune {
namespace {

bench::PairedVerdict pairs(const std::vector<double>& entry, const std::vector<double>& winner) {
  return bench::judge_pairs(entry, winner, TuneOptions{}.confirm_threshold);
}

TEST(TuneConfirm, ALeadThatHoldsReplacesTheEntry) {
  EXPECT_TRUE(replaces_entry(pairs({1.00, 1.01, 0.99, 1.00, 1.02, 1.00, 0.99, 1.01}, {0.95, 0.96, 0.95, 0.94, 0.97, 0.95, 0.95, 0.96})));
}

TEST(TuneConfirm, ANoiseLevelLeadKeepsTheEntry) {
  // A search's 1.2% (an H100 run, 2026-11-25) that the pairs do not show: the entry stays.
  EXPECT_FALSE(replaces_entry(pairs({1.00, 1.01, 0.99, 1.00, 1.02, 1.00, 0.99, 1.01}, {0.995, 1.012, 0.985, 1.004, 1.01, 0.99, 1.0, 1.003})));
  EXPECT_FALSE(replaces_entry(pairs({1.0, 1.0, 1.0, 1.0}, {1.02, 1.01, 1.03, 1.0})));  // slower
}

TEST(TuneConfirm, OneLuckyPairIsNotALead) {
  EXPECT_FALSE(replaces_entry(pairs({1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}, {0.80, 1.0, 1.01, 0.99, 1.0, 1.02, 1.0, 0.998})));
}

// A class without an entry of its own starts from the one a device of the same architecture lends it
// (the one its launches take) and treats it as the class's entry: what the search writes must beat it
// in pairs. A lender of another architecture lends nothing: the search starts from the plan's defaults.
TEST(TuneStart, AClassWithoutItsOwnEntryStartsFromTheEntryItsArchitectureLends) {
  namespace fs = std::filesystem;
  const fs::path db = fs::temp_directory_path() / ("plumbline_tune_lent_" + std::to_string(::getpid()));
  auto first_tried = [&](const std::string& lender_arch, const std::string& dir_name) {
    const fs::path dir = db / dir_name;  // a folder per case: the database is read once per folder
    fs::create_directories(dir);
    std::ofstream(dir / "lender.tuning") << "a lender | its driver | add | vadd | all | VW=1 WG=128 | a test (not VW=4: planted wrong)\n";
    std::ofstream(dir / "architectures") << "a lender | " << lender_arch << "\n";
    ::setenv("PLUMBLINE_TUNING_DIR", dir.c_str(), 1);
    ocl::DeviceInfo info = ocl::list_devices().at(0);
    info.architecture = "test sm_1";
    ocl::Runtime rt(info);
    KernelChecker kc(rt, plans::KernelSource{.plan_file = std::string(PLUMBLINE_SOURCE_DIR) + "/proptests/kernels/vadd_tunable.plan"});
    TuneOptions o;
    o.op = "add";
    o.problems = {Problem::parse("add:n=1000")};
    o.budget_seconds = 1e-6;  // the class's entry and the defaults are tried whatever the budget
    o.check_cases = 2;
    o.repetitions = 1;
    o.min_time = 1e-6;
    o.confirm_pairs = 0;
    const auto results = tune(kc, o);
    ::unsetenv("PLUMBLINE_TUNING_DIR");
    EXPECT_EQ(results.size(), 1u);
    return results.at(0);
  };
  const ClassResult lent = first_tried("test sm_1", "same");
  ASSERT_GE(lent.tried.size(), 2u);
  EXPECT_EQ(lent.tried[0].defines, (Defines{{"VW", "1"}, {"WG", "128"}}));
  ASSERT_TRUE(lent.entry.has_value()) << lent.tried[0].status << ": " << lent.tried[0].message;
  EXPECT_EQ(lent.entry->defines, (Defines{{"VW", "1"}, {"WG", "128"}}));
  EXPECT_EQ(lent.tried[1].defines, (Defines{{"VW", "1"}, {"WG", "64"}}));  // then the plan's defaults
  const ClassResult other = first_tried("test sm_2", "other");
  ASSERT_FALSE(other.tried.empty());
  EXPECT_EQ(other.tried[0].defines, (Defines{{"VW", "1"}, {"WG", "64"}}));
  EXPECT_FALSE(other.entry.has_value());
  fs::remove_all(db);
}

}  // namespace
}  // namespace plumbline::tune
