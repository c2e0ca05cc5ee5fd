// The Simulator with local deformations on (local/local_deformations.hpp): without a patch the
// step is the one without local deformations, bit for bit; at the page's settings a drag attaches
// a patch where it grabs, the energy never grows beyond the loads' work, and the patch leaves after
// the release.
#include <cmath>
#include <iostream>

#include <gtest/gtest.h>

#include "local/drag_block.hpp"

namespace smfem::local {
namespace {

using sim::ReducedMatrix;
using test::DragBlock;
using test::kModes;
using test::page_settings;

TEST(LocalSimulator, WithoutAPatchTheStepIsBitForBitTheOneWithoutLocalDeformations) {
  DragBlock block;
  sim::SolverSettings settings = page_settings(sim::SolverMethod::mfem, 2);
  settings.gravity = Eigen::Vector3d(0.0, -9.8, 0.0);
  sim::Simulator plain(block.box.model, settings);
  sim::Simulator with_local(block.box.model, settings);
  with_local.enable_local_deformations(block.mesh);
  std::srand(4);
  const ReducedMatrix Udot = 0.3 * ReducedMatrix::Random(4 * kModes, 3);
  plain.set_state(ReducedMatrix::Zero(4 * kModes, 3), Udot);
  with_local.set_state(ReducedMatrix::Zero(4 * kModes, 3), Udot);
  for (int step = 0; step < 20; ++step) {
    plain.step();
    with_local.step();
  }
  EXPECT_EQ(with_local.local_deformations()->patch_count(), 0);
  EXPECT_TRUE(plain.coordinates() == with_local.coordinates());
  EXPECT_TRUE(plain.velocities() == with_local.velocities());
  EXPECT_TRUE(plain.stretches() == with_local.stretches());
}

// At the page's settings (the mixed step, 2 iterations, 60 steps per second) in zero gravity: the
// drag attaches one patch where it grabs; after the release nothing pushes the block, so its
// momentum (the dent's share included) stays what the drag gave it, its energy does not grow, and
// the patch leaves within its time bound, the state carried over without changing the momentum.
TEST(LocalSimulator, AReleasedDentRingsDownAndItsPatchLeaves) {
  DragBlock block;
  sim::Simulator simulator(block.box.model, page_settings(sim::SolverMethod::mfem, 2));
  simulator.enable_local_deformations(block.mesh);
  std::srand(6);  // a little deformed, so that the multipliers are not zero
  simulator.set_state(1e-3 * ReducedMatrix::Random(4 * kModes, 3),
                      ReducedMatrix::Zero(4 * kModes, 3));
  const sim::StretchField multipliers = simulator.multipliers();
  ASSERT_GT(multipliers.norm(), 0.0);
  simulator.drag_start(block.basis(), block.rest(), block.rest(), 2e4);
  ASSERT_EQ(simulator.local_deformations()->patch_count(), 1);
  // Attaching keeps the cubature's multipliers consistent with its materials.
  EXPECT_TRUE(simulator.multipliers().isApprox(multipliers, 1e-12));
  for (int step = 1; step <= 20; ++step) {
    simulator.drag_move(block.rest() + Eigen::Vector3d(0.0, 0.0025 * step, 0.0));
    ASSERT_TRUE(simulator.step().ok) << "step " << step;
  }
  // The grabbed vertex follows the hand (5 cm up) closer than the global modes alone let it.
  sim::Simulator global(block.box.model, page_settings(sim::SolverMethod::mfem, 2));
  global.drag_start(block.basis(), block.rest(), block.rest(), 2e4);
  for (int step = 1; step <= 20; ++step) {
    global.drag_move(block.rest() + Eigen::Vector3d(0.0, 0.0025 * step, 0.0));
    ASSERT_TRUE(global.step().ok) << "step " << step;
  }
  const Eigen::Vector3d hand = block.rest() + Eigen::Vector3d(0.0, 0.05, 0.0);
  const double lag =
      (test::grabbed_point(simulator, block.grabbed, block.rest(), block.basis()) - hand).norm();
  const double global_lag =
      (test::grabbed_point(global, block.grabbed, block.rest(), block.basis()) - hand).norm();
  std::cout << "the grabbed vertex lags the hand " << lag << " m (global modes alone " << global_lag
            << " m)\n";
  EXPECT_LT(lag, global_lag);
  simulator.drag_end();
  const Eigen::Vector3d momentum = simulator.diagnostics().linear_momentum;
  double energy = simulator.diagnostics().total_energy;
  int left_at = -1;
  const int bound = static_cast<int>(std::ceil(local::kLeavingTime * 60.0)) + 1;
  for (int step = 1; step <= bound + 10; ++step) {
    ASSERT_TRUE(simulator.step().ok) << "step " << step;
    const sim::Diagnostics& d = simulator.diagnostics();
    EXPECT_LT((d.linear_momentum - momentum).norm(), 1e-9 * (1.0 + momentum.norm()))
        << "step " << step;
    EXPECT_LE(d.total_energy, energy + 1e-9 * std::abs(energy)) << "step " << step;
    energy = d.total_energy;
    if (left_at < 0 && simulator.local_deformations()->patch_count() == 0) left_at = step;
  }
  std::cout << "the patch left " << left_at << " steps after the release\n";
  EXPECT_GT(left_at, 0);
  EXPECT_LE(left_at, bound);
}

}  // namespace
}  // namespace smfem::local
