#include "smfem/sim/step/line_search.hpp"

#include <limits>
#include <vector>

#include <gtest/gtest.h>

namespace smfem::sim {
namespace {

// phi(alpha) = (alpha - a)^2 - a^2 along a descent direction with slope -2a.
TEST(LineSearch, AcceptsTheFullStepWhenItDecreasesEnough) {
  const double a = 1.0;
  const auto change = [&](double alpha) { return (alpha - a) * (alpha - a) - a * a; };
  const LineSearchResult result = backtracking_line_search(change, -2.0 * a, 10);
  EXPECT_TRUE(result.accepted);
  EXPECT_EQ(result.step, 1.0);
  EXPECT_EQ(result.backtracks, 0);
}

TEST(LineSearch, HalvesAnOvershootingStep) {
  const double a = 0.1;  // the minimum is at alpha = 0.1: alpha = 1 and 1/2 increase phi
  const auto change = [&](double alpha) { return (alpha - a) * (alpha - a) - a * a; };
  const LineSearchResult result = backtracking_line_search(change, -2.0 * a, 10);
  EXPECT_TRUE(result.accepted);
  EXPECT_EQ(result.step, 0.125);
  EXPECT_EQ(result.backtracks, 3);
}

TEST(LineSearch, RejectsNonFiniteTrialsAndNonDescentDirections) {
  int calls = 0;
  const auto overflow = [&](double alpha) {
    ++calls;
    return alpha > 0.3 ? std::numeric_limits<double>::infinity() : -alpha;
  };
  const LineSearchResult result = backtracking_line_search(overflow, -1.0, 10);
  EXPECT_TRUE(result.accepted);
  EXPECT_EQ(result.step, 0.25);
  const auto always_nan = [](double) { return std::numeric_limits<double>::quiet_NaN(); };
  const LineSearchResult failed = backtracking_line_search(always_nan, -1.0, 4);
  EXPECT_FALSE(failed.accepted);
  EXPECT_TRUE(failed.all_nonfinite);
  calls = 0;
  EXPECT_FALSE(backtracking_line_search(overflow, 0.0, 10).accepted);
  EXPECT_EQ(calls, 0);
}

TEST(LineSearch, ADecreaseBelowRoundingOfTheScaleIsLost) {
  EXPECT_TRUE(lost_in_rounding(1e-13, 1.0));
  EXPECT_FALSE(lost_in_rounding(1e-11, 1.0));
  EXPECT_TRUE(lost_in_rounding(1e-3, -1e10));  // the scale's magnitude counts
  EXPECT_TRUE(lost_in_rounding(0.0, 0.0));
}

TEST(LineSearch, TheUnjudgedFullStepIsTakenUnlessItOverflows) {
  int calls = 0;
  // A positive change (rounding noise) would fail Armijo; unjudged, the step is taken.
  const LineSearchResult taken = unjudged_full_step([&](double alpha) {
    ++calls;
    EXPECT_EQ(alpha, 1.0);
    return 1e-17;
  });
  EXPECT_TRUE(taken.accepted);
  EXPECT_EQ(taken.step, 1.0);
  EXPECT_EQ(taken.backtracks, 0);
  EXPECT_EQ(calls, 1);
  const LineSearchResult refused =
      unjudged_full_step([](double) { return std::numeric_limits<double>::quiet_NaN(); });
  EXPECT_FALSE(refused.accepted);
}

}  // namespace
}  // namespace smfem::sim
