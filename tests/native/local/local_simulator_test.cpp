// The Simulator with local deformations on (local/local_deformations.hpp): without a patch the
// step is the one without local deformations, bit for bit; at the page's settings a drag attaches
// a patch where it grabs, the energy never grows beyond the loads' work, and the patch leaves after
// the release.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

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

// The block dragged up 20 cm by a 1e4 N/m spring for 10 steps at the page's settings, with and
// without local deformations: the patches attached, and whether the global modes moved bit for bit
// alike (and at all).
struct DragOutcome {
  int patches = 0;
  bool as_without = false;
  bool moved = false;
};
DragOutcome drag_with_and_without(const DragBlock& block) {
  const sim::SolverSettings settings = page_settings(sim::SolverMethod::mfem, 2);
  sim::Simulator plain(block.box.model, settings);
  sim::Simulator with_local(block.box.model, settings);
  with_local.enable_local_deformations(block.mesh);
  const Eigen::Vector3d target = block.rest() + Eigen::Vector3d(0.0, 0.2, 0.0);
  plain.drag_start(block.basis(), block.rest(), target, 1e4);
  with_local.drag_start(block.basis(), block.rest(), target, 1e4);
  for (int step = 0; step < 10; ++step) {
    plain.step();
    with_local.step();
  }
  return {with_local.local_deformations()->patch_count(),
          plain.coordinates() == with_local.coordinates(), plain.coordinates().norm() > 0.0};
}

// A drag attaches a patch only where its dent can show (LocalDeformations::drag_dents): on a
// block of 1e9 Pa the same spring that dents one of 1e5 Pa (the half-space under the grabbed
// vertex about 1e4 times stiffer than the spring) attaches none, and the drag pulls the global
// modes alone, bit for bit as without local deformations.
TEST(LocalSimulator, ADragThatCannotDentTheBodyAttachesNoPatch) {
  for (const double youngs : {1e5, 1e9}) {
    DragBlock block(Eigen::Vector3d(0.5, 1.0, 0.5), youngs);
    const DragOutcome drag = drag_with_and_without(block);
    if (youngs < 1e6) {
      EXPECT_EQ(drag.patches, 1) << youngs;
      continue;
    }
    EXPECT_EQ(drag.patches, 0) << youngs;
    EXPECT_TRUE(drag.as_without) << youngs;
    EXPECT_TRUE(drag.moved) << "the spring pulls";
  }
}

// Nor does a drag attach a patch whose fields would reach a far stiffer material (the crab's
// joint beside its shell): the block's tets whose corners are all a little below the grabbed
// vertex, well inside the fields' support, made stiffer by a factor. 10 times stiffer still
// attaches the patch, 1e4 times (the crab's shell over its joints) does not, and the drag then
// pulls the global modes alone, bit for bit as without local deformations.
TEST(LocalSimulator, ADragWhoseFieldsReachAFarStifferMaterialAttachesNoPatch) {
  for (const double factor : {10.0, 1e4}) {
    DragBlock block;
    const double below = block.rest().y() - 0.1;
    int stiffened = 0;
    for (int t = 0; t < block.mesh.tet_count(); ++t) {
      bool under = true;
      for (int c = 0; c < 4; ++c)
        under = under && block.mesh.positions(block.mesh.tets(t, c), 1) < below;
      if (!under) continue;
      block.mesh.youngs(t) *= factor;
      ++stiffened;
    }
    ASSERT_GT(stiffened, 0);
    ASSERT_LT(stiffened, block.mesh.tet_count());
    const DragOutcome drag = drag_with_and_without(block);
    if (factor < 100.0) {
      EXPECT_EQ(drag.patches, 1) << factor;
      continue;
    }
    EXPECT_EQ(drag.patches, 0) << factor;
    EXPECT_TRUE(drag.as_without) << factor;
  }
}

// The mixed step's decrement stays a curvature with patches, so a dragged block's every step runs
// the two iterations the page asks and is judged by its line search. When the patches' tets took
// off the cubature's share of their energy (patch_set.hpp), their stretch measure summed with
// that correction's F-space one went negative on most steps, which were then taken unjudged
// after one iteration, as lost in rounding.
TEST(LocalSimulator, ADraggedBlocksMixedStepsRunTheirIterations) {
  // A stiff block (E 5e6 Pa) hung by a top corner: it swings, and its stretches hardly change.
  // (Stiffer, the spring could not dent it visibly and no patch would attach: drag_dents.)
  DragBlock block(Eigen::Vector3d(0.5, 0.5, 0.5), 5e6);
  sim::SolverSettings settings = page_settings(sim::SolverMethod::mfem, 2);
  settings.gravity = Eigen::Vector3d(0.0, -9.8, 0.0);
  sim::Simulator simulator(block.box.model, settings);
  simulator.enable_local_deformations(block.mesh);
  simulator.drag_start(block.basis(), block.rest(), block.rest() + Eigen::Vector3d(0.0, 0.2, 0.0),
                       1e4);
  ASSERT_EQ(simulator.local_deformations()->patch_count(), 1);
  int single = 0;
  for (int step = 1; step <= 60; ++step) {
    const sim::StepReport& report = simulator.step();
    ASSERT_TRUE(report.ok) << "step " << step;
    ASSERT_EQ(simulator.local_deformations()->patch_count(), 1);
    if (report.stats.iterations < 2) ++single;
    EXPECT_GT(report.stats.decrement, 0.0) << "step " << step;
  }
  EXPECT_EQ(single, 0);
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
  ASSERT_TRUE(test::pull_up(global, block, 20, 0.0025));
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

// The diagnostics count the dent's share of the angular momentum: with a patch attached and the
// block spinning, L less the global modes' own (a twin without local deformations in the same
// global state) is sum_v m_v (x_v x xdot_v) over the mesh's vertices with the dent, less the same
// without it (test::displacements; the mesh's lumped masses).
TEST(LocalSimulator, TheAngularMomentumCountsTheDent) {
  DragBlock block;
  sim::Simulator simulator(block.box.model, page_settings(sim::SolverMethod::mfem, 2));
  simulator.enable_local_deformations(block.mesh);
  std::srand(8);
  simulator.set_state(ReducedMatrix::Zero(4 * kModes, 3),
                      0.5 * ReducedMatrix::Random(4 * kModes, 3));
  ASSERT_TRUE(test::pull_up(simulator, block, 6, 0.01));
  const local::LocalDeformations& local = *simulator.local_deformations();
  ASSERT_EQ(local.patch_count(), 1);
  const sim::SimulatorState& state = simulator.snapshot();
  ASSERT_GT(state.patches.C.norm(), 1e-4);  // dented
  ASSERT_GT(state.patches.Cdot.norm(), 1e-3);
  sim::Simulator twin(block.box.model, page_settings(sim::SolverMethod::mfem, 2));
  twin.set_state(state.U, state.Udot);
  const Eigen::Vector3d share =
      simulator.diagnostics().angular_momentum - twin.diagnostics().angular_momentum;

  ReducedMatrix U(4 * kModes + 1, 3), Udot(4 * kModes + 1, 3);
  U << state.U, state.patches.C;
  Udot << state.Udot, state.patches.Cdot;
  const Eigen::MatrixXd x = test::displacements(block.box, local.patches(), U);
  const Eigen::MatrixXd xdot = test::displacements(block.box, local.patches(), Udot);
  const Eigen::MatrixXd x_global = block.box.basis * state.U;
  const Eigen::MatrixXd xdot_global = block.box.basis * state.Udot;
  const Eigen::VectorXd mass = full::lumped_vertex_mass(block.mesh);
  Eigen::Vector3d expected = Eigen::Vector3d::Zero();
  for (int v = 0; v < block.mesh.vertex_count(); ++v) {
    const Eigen::Vector3d rest = block.mesh.positions.row(v).transpose();
    const Eigen::Vector3d with = (rest + Eigen::Vector3d(x.row(v).transpose()))
                                     .cross(Eigen::Vector3d(xdot.row(v).transpose()));
    const Eigen::Vector3d without = (rest + Eigen::Vector3d(x_global.row(v).transpose()))
                                        .cross(Eigen::Vector3d(xdot_global.row(v).transpose()));
    expected += mass(v) * (with - without);
  }
  std::cout << "the dent's angular momentum " << share.transpose() << " (expected "
            << expected.transpose() << ", the whole "
            << simulator.diagnostics().angular_momentum.transpose() << ")\n";
  // The share is a few thousandths of the whole (measured 2e-3); the two L's it is the difference
  // of agree to their rounding.
  const double whole = simulator.diagnostics().angular_momentum.norm();
  EXPECT_GT(expected.norm(), 1e-4 * whole);
  EXPECT_LT((share - expected).norm(), 1e-10 * whole);
}

// A second drag while a released patch is leaving: the leaving patch keeps counting its time
// unloaded (each change of the loads restarted every patch's clock, holding released dents on).
TEST(LocalSimulator, ANewDragDoesNotHoldBackALeavingPatch) {
  const DragBlock top;
  const DragBlock bottom(Eigen::Vector3d(0.0, -0.5, 0.0));
  sim::Simulator simulator(top.box.model, page_settings(sim::SolverMethod::mfem, 2));
  simulator.enable_local_deformations(top.mesh);
  ASSERT_TRUE(test::pull_up(simulator, top, 10, 0.004));
  simulator.drag_end();
  for (int step = 0; step < 5; ++step) ASSERT_TRUE(simulator.step().ok);
  const auto unloaded_for = [&](int vertex) {
    const local::PatchState& patches = simulator.snapshot().patches;
    const auto at = std::find(patches.loaded.begin(), patches.loaded.end(), vertex);
    EXPECT_NE(at, patches.loaded.end()) << "vertex " << vertex << " is not loaded";
    return at == patches.loaded.end()
               ? -1.0
               : patches.unloaded_for[static_cast<std::size_t>(at - patches.loaded.begin())];
  };
  const double released_for = unloaded_for(top.grabbed);
  ASSERT_NEAR(released_for, 5.0 / 60.0, 1e-12);
  simulator.drag_start(bottom.basis(), bottom.rest(), bottom.rest(), 2e4);
  EXPECT_EQ(simulator.local_deformations()->patch_count(), 2);
  EXPECT_EQ(unloaded_for(top.grabbed), released_for);
  EXPECT_EQ(unloaded_for(bottom.grabbed), 0.0);
}

// The state's coordinates, stretches and patches' coefficients after each of `steps` steps, the
// drag pulling on up by `rise` a step from `from`.
std::vector<double> dragged_trajectory(sim::Simulator& simulator, const DragBlock& block, int from,
                                       int steps, double rise) {
  std::vector<double> out;
  for (int step = from + 1; step <= from + steps; ++step) {
    simulator.drag_move(block.rest() + Eigen::Vector3d(0.0, rise * step, 0.0));
    EXPECT_TRUE(simulator.step().ok) << "step " << step;
    const sim::SimulatorState& state = simulator.snapshot();
    for (const auto* matrix : {&state.U, &state.patches.C}) {
      out.insert(out.end(), matrix->data(), matrix->data() + matrix->size());
    }
    out.insert(out.end(), state.z.data(), state.z.data() + state.z.size());
    out.push_back(static_cast<double>(state.patches.loaded.size()));
  }
  return out;
}

// A state saved while the drag dents the block (a patch attached, turned with the body) and
// loaded again steps on bit for bit as the original run did: into the same simulator 10 steps
// later (the patches since turned), and into a new one with the same drag.
TEST(LocalSimulator, AStateSavedWithAPatchStepsOnBitForBit) {
  DragBlock block;
  const auto make = [&] {
    auto simulator = std::make_unique<sim::Simulator>(block.box.model,
                                                      page_settings(sim::SolverMethod::mfem, 2));
    simulator->enable_local_deformations(block.mesh);
    return simulator;
  };
  const std::unique_ptr<sim::Simulator> simulator = make();
  ASSERT_TRUE(test::pull_up(*simulator, block, 10, 0.004));
  ASSERT_EQ(simulator->local_deformations()->patch_count(), 1);
  const std::vector<std::uint8_t> blob = simulator->save_state();
  const std::vector<double> original = dragged_trajectory(*simulator, block, 10, 10, 0.004);
  EXPECT_FALSE(simulator->snapshot().patches.rotations.front().isApprox(
      sim::decode_state(blob, kModes, block.box.model.cubature_count()).patches.rotations.front(),
      1e-12));  // the patch has turned since
  simulator->load_state(blob);
  EXPECT_EQ(simulator->step_count(), 10);
  EXPECT_EQ(dragged_trajectory(*simulator, block, 10, 10, 0.004), original);

  const std::unique_ptr<sim::Simulator> fresh = make();
  fresh->drag_start(block.basis(), block.rest(), block.rest(), 2e4);
  fresh->load_state(blob);
  EXPECT_EQ(dragged_trajectory(*fresh, block, 10, 10, 0.004), original);
}

// The patches turn with the body at a step's start once one is more than kTurnTolerance from the
// rotation it holds, and only then (a smaller lag keeps the held rotation, bit for bit): a block
// lifted by the hand turns its patch, and keeps it once the hand holds still and the block settles.
TEST(LocalSimulator, PatchesTurnWithTheBodyOnlyBeyondTheTolerance) {
  DragBlock block;
  sim::Simulator simulator(block.box.model, page_settings(sim::SolverMethod::mfem, 2));
  simulator.enable_local_deformations(block.mesh);
  ASSERT_TRUE(test::pull_up(simulator, block, 10, 0.004));
  const LocalDeformations& local = *simulator.local_deformations();
  ASSERT_EQ(local.patch_count(), 1);
  int turned = 0, kept = 0;
  for (int step = 11; step <= 200; ++step) {
    const Eigen::Matrix3d held = simulator.snapshot().patches.rotations.front();
    const Eigen::Matrix3d body = local.patches().rotations_at(simulator.snapshot().U).front();
    simulator.drag_move(block.rest() + Eigen::Vector3d(0.0, 0.004 * std::min(step, 20), 0.0));
    ASSERT_TRUE(simulator.step().ok) << "step " << step;
    ASSERT_EQ(local.patch_count(), 1) << "step " << step;
    const Eigen::Matrix3d& now = simulator.snapshot().patches.rotations.front();
    if (Eigen::AngleAxisd(body * held.transpose()).angle() > kTurnTolerance) {
      EXPECT_TRUE(now.isApprox(body, 1e-12)) << "step " << step;
      ++turned;
    } else {
      EXPECT_EQ(now, held) << "step " << step;
      ++kept;
    }
  }
  std::cout << "the patch turned at " << turned << " of 190 steps and kept its rotation at " << kept
            << "\n";
  EXPECT_GT(turned, 0);
  EXPECT_GT(kept, 0);
}

// A blob whose patches do not fit is refused, naming why, and the simulator steps on as before.
TEST(LocalSimulator, AStateWithPatchesThatDoNotFitIsRefused) {
  DragBlock block;
  sim::Simulator simulator(block.box.model, page_settings(sim::SolverMethod::mfem, 2));
  simulator.enable_local_deformations(block.mesh);
  ASSERT_TRUE(test::pull_up(simulator, block, 5, 0.004));
  const std::vector<std::uint8_t> blob = simulator.save_state();
  const auto refused = [&](std::vector<std::uint8_t> bytes, const std::string& why) {
    try {
      simulator.load_state(bytes);
      ADD_FAILURE() << "accepted; expected: " << why;
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find(why), std::string::npos) << error.what();
    }
  };
  std::vector<std::uint8_t> truncated = blob;
  truncated.pop_back();
  refused(truncated, "bytes, expected");
  // The rotation (after the header, the body, P, L, S, one loaded vertex and its time) scaled.
  const std::size_t rotation =
      32 + 8 * (24 * kModes + 12 * block.box.model.cubature_count()) + 12 + 4 + 8;
  std::vector<std::uint8_t> stretched = blob;
  double r00 = 0.0;
  std::memcpy(&r00, stretched.data() + rotation, 8);
  r00 *= 1.5;
  std::memcpy(stretched.data() + rotation, &r00, 8);
  refused(stretched, "not a rotation");
  // Format 2's patches hold the stretches of the energy before 2026-12-03 (simulator_state.hpp).
  std::vector<std::uint8_t> older = blob;
  const std::uint32_t format_2 = 2;
  std::memcpy(older.data() + 4, &format_2, 4);
  refused(older, "format 2 with 1 local patches");
  // A loaded vertex inside the mesh.
  sim::SimulatorState inside = sim::decode_state(blob, kModes, block.box.model.cubature_count());
  inside.patches.loaded = {
      DragBlock(Eigen::Vector3d(0.0, 0.25, 0.0)).grabbed};  // the block's centre
  refused(sim::encode_state(inside), "not on the mesh's surface");
  // Into a simulator without local deformations.
  sim::Simulator plain(block.box.model, page_settings(sim::SolverMethod::mfem, 2));
  EXPECT_THROW(plain.load_state(blob), std::invalid_argument);
  // A format 2 state without patches loads as it did.
  std::vector<std::uint8_t> unpatched = plain.save_state();
  std::memcpy(unpatched.data() + 4, &format_2, 4);
  EXPECT_NO_THROW(plain.load_state(unpatched));
  // Nothing changed: it steps on as a twin that was never offered those blobs.
  sim::Simulator twin(block.box.model, page_settings(sim::SolverMethod::mfem, 2));
  twin.enable_local_deformations(block.mesh);
  ASSERT_TRUE(test::pull_up(twin, block, 5, 0.004));
  EXPECT_EQ(dragged_trajectory(simulator, block, 5, 3, 0.004),
            dragged_trajectory(twin, block, 5, 3, 0.004));
}

// Grabbed where pins hold every vertex a patch's fields would reach: no dent is possible there, so
// the drag goes on with the global modes (a warning says why) instead of failing or leaving a
// patch of no mass whose projection has no solution.
TEST(LocalSimulator, ADragWherePinsHoldEveryVertexAPatchReachesGoesOnWithoutADent) {
  DragBlock block;
  const double bottom = block.mesh.positions.col(1).minCoeff();
  for (int v = 0; v < block.mesh.vertex_count(); ++v) {
    if (block.mesh.positions(v, 1) > bottom) block.mesh.pinned.push_back(v);
  }
  sim::Simulator simulator(block.box.model, page_settings(sim::SolverMethod::mfem, 2));
  simulator.enable_local_deformations(block.mesh);
  simulator.drag_start(block.basis(), block.rest(), block.rest(), 2e4);
  EXPECT_EQ(simulator.local_deformations()->patch_count(), 0);
  ASSERT_EQ(simulator.warnings().size(), 1u);
  EXPECT_NE(simulator.warnings()[0].find("pinned"), std::string::npos) << simulator.warnings()[0];
  const Eigen::Vector3d hand = block.rest() + Eigen::Vector3d(0.0, 0.02, 0.0);
  simulator.drag_move(hand);
  for (int step = 0; step < 10; ++step) ASSERT_TRUE(simulator.step().ok);
  // The spring pulls the grabbed point towards the hand.
  const Eigen::Vector3d moved =
      test::grabbed_point(simulator, block.grabbed, block.rest(), block.basis()) - block.rest();
  EXPECT_GT(moved.y(), 0.002);
}

// Local deformations enabled again while a drag dents the body: the dent's motion is carried onto
// the global modes, then the drag's patch attaches anew; the momentum is kept (enabling anew
// dropped the patches' state, and with it their share of the momentum).
TEST(LocalSimulator, EnablingAgainMidDragKeepsTheMomentum) {
  const DragBlock block;
  sim::Simulator simulator(block.box.model, page_settings(sim::SolverMethod::mfem, 2));
  simulator.enable_local_deformations(block.mesh);
  ASSERT_TRUE(test::pull_up(simulator, block, 10, 0.004));
  const Eigen::Vector3d momentum = simulator.diagnostics().linear_momentum;
  ASSERT_GT(momentum.norm(), 0.0);
  simulator.enable_local_deformations(block.mesh);
  EXPECT_EQ(simulator.local_deformations()->patch_count(), 1);
  EXPECT_LT((simulator.diagnostics().linear_momentum - momentum).norm(), 1e-9 * momentum.norm());
}

}  // namespace
}  // namespace smfem::local
