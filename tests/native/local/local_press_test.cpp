// A rigid sphere pressed slowly into a block resting on a floor (local/local_contact.hpp): with
// local deformations the contact loads patches where it presses, the block dents there, and the
// contact is softer than with the global modes alone; nothing enters the sphere or the floor.
#include <cmath>
#include <iostream>
#include <string>

#include <gtest/gtest.h>

#include "local/drag_block.hpp"
#include "local/pressed_block.hpp"

namespace smfem::local {
namespace {

using test::PressedBlock;
using test::PressOptions;

// The top face's middle vertex.
int top_middle(const sim::BoxModel& box) {
  Eigen::Index nearest = 0;
  (box.rest.rowwise() - Eigen::RowVector3d(0.0, 0.5, 0.0))
      .rowwise()
      .squaredNorm()
      .minCoeff(&nearest);
  return static_cast<int>(nearest);
}

double dent_depth(PressedBlock& block) {
  const int v = top_middle(block.box());
  const Eigen::Vector3d rest = block.box().rest.row(v).transpose();
  return rest.y() -
         test::grabbed_point(block.simulator(), v, rest, block.box().basis.row(v).transpose()).y();
}

TEST(LocalPress, ASpherePressedIntoABlockDentsItWhereItPresses) {
  const PressOptions options;
  const sim::SolverSettings settings = test::page_settings(sim::SolverMethod::mfem, 2);
  PressedBlock global(options, settings, false);
  PressedBlock local(options, settings, true);
  constexpr int kPress = 100, kHold = 50;
  constexpr double kDescent = 0.01;
  for (int step = 1; step <= kPress + kHold; ++step) {
    const double target = kDescent * std::min(1.0, static_cast<double>(step) / kPress);
    ASSERT_TRUE(global.step_towards(target).ok) << "step " << step;
    ASSERT_TRUE(local.step_towards(target).ok) << "step " << step;
    EXPECT_GT(local.simulator().contact_measure().min_distance, 0.0) << "step " << step;
    if (step % 10 == 0) {
      std::cout << "step " << step << ": descent " << global.descent() << " / " << local.descent()
                << " m, force " << global.sphere_force() << " / " << local.sphere_force()
                << " N, dent " << dent_depth(global) << " / " << dent_depth(local) << " m, "
                << local.simulator().local_deformations()->patch_count() << " patches\n";
    }
  }
  EXPECT_GT(local.simulator().local_deformations()->patch_count(), 0);
  EXPECT_NEAR(local.descent(), kDescent, 1e-9);
  EXPECT_LT(local.sphere_force(), global.sphere_force());
  EXPECT_GT(dent_depth(local), dent_depth(global));
}

// Pressed where pins hold every vertex a patch would reach: no patch can be made there, so the
// press goes on with the global modes (a warning says why) instead of failing out of the step.
TEST(LocalPress, WherePinsHoldEveryVertexAPatchReachesThePressGoesOnWithoutADent) {
  PressOptions options;
  options.pinned_above = 0.1;
  PressedBlock block(options, test::page_settings(sim::SolverMethod::mfem, 2), true);
  for (int step = 1; step <= 20; ++step) {
    ASSERT_TRUE(block.step_towards(0.0002 * step).ok) << "step " << step;
  }
  EXPECT_EQ(block.simulator().local_deformations()->patch_count(), 0);
  EXPECT_GT(block.sphere_force(), 0.0);  // it presses
  bool warned = false;
  for (const std::string& warning : block.simulator().warnings()) {
    warned = warned || warning.find("pinned") != std::string::npos;
  }
  EXPECT_TRUE(warned);
}

}  // namespace
}  // namespace smfem::local
