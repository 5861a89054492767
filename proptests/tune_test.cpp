// The tuner's rule for replacing a class's entry (tune/tuner.hpp): the winner, timed again against the
// entry in pairs, must show an improvement as bench's paired verdict judges one. Hand-made times: no
// device, no timing.
#include <gtest/gtest.h>

#include "bench/paired.hpp"
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
  // A search's 1.2% (run6 of stop 33) that the pairs do not show: the entry stays.
  EXPECT_FALSE(replaces_entry(pairs({1.00, 1.01, 0.99, 1.00, 1.02, 1.00, 0.99, 1.01}, {0.995, 1.012, 0.985, 1.004, 1.01, 0.99, 1.0, 1.003})));
  EXPECT_FALSE(replaces_entry(pairs({1.0, 1.0, 1.0, 1.0}, {1.02, 1.01, 1.03, 1.0})));  // slower
}

TEST(TuneConfirm, OneLuckyPairIsNotALead) {
  EXPECT_FALSE(replaces_entry(pairs({1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}, {0.80, 1.0, 1.01, 0.99, 1.0, 1.02, 1.0, 0.998})));
}

}  // namespace
}  // namespace plumbline::tune
