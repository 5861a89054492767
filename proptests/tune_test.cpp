// The tuner's rule for replacing a class's entry (tune/tuner.hpp): a winner's lead must hold when the
// two are timed again, alternating. Pure functions of the ratios: no device, no timing.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "tune/tuner.hpp"

namespace plumbline::tune {
namespace {

TEST(TuneConfirm, ALeadThatHoldsReplacesTheEntry) {
  EXPECT_TRUE(holds_its_lead({0.95, 0.97, 0.96, 0.98}, 0.01));
}

TEST(TuneConfirm, ANoiseLevelLeadKeepsTheEntry) {
  // The search's 1.2% (run6 of stop 33) that did not hold: medians above 0.99 keep the entry.
  EXPECT_FALSE(holds_its_lead({0.995, 1.004, 0.992, 1.001}, 0.01));
  EXPECT_FALSE(holds_its_lead({1.02, 1.01, 1.03, 1.00}, 0.01));
}

TEST(TuneConfirm, OneLuckyRoundIsNotALead) {
  // A median below the margin carried by a minority of faster rounds is no lead.
  EXPECT_FALSE(holds_its_lead({0.90, 0.98, 1.01, 1.02}, 0.01));
  EXPECT_DOUBLE_EQ(median({0.90, 0.98, 1.01, 1.02}), 0.995);
  EXPECT_FALSE(holds_its_lead({0.90, 0.95, 1.01, 1.02}, 0.01));  // median 0.98, but faster in only two of four
}

TEST(TuneConfirm, MedianOfNothingIsAnError) { EXPECT_THROW(median({}), Error); }

}  // namespace
}  // namespace plumbline::tune
