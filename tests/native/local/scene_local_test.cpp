// Local deformations in contact scenes (multibody/contact_scene.hpp, the scene file's
// localDeformations): the body dents where an obstacle presses it and steps as without them
// until something does; a scene of several bodies refuses them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "local/block_mesh.hpp"
#include "smfem/multibody/contact_scene.hpp"

namespace smfem::local {
namespace {
namespace scene_local {

constexpr double kActivation = 1e-3;  // dhat, m
constexpr double kTimestep = 1.0 / 60.0;

// The block of block_mesh.hpp (1 x 0.5 x 1 m, its bottom at y = 0), soft unless told.
sim::BoxModel soft_block(double youngs = 1e5) {
  sim::BoxModelOptions options;
  options.nx = options.nz = 8;
  options.ny = 4;
  options.lower = Eigen::Vector3d(-0.5, 0.0, -0.5);
  options.upper = Eigen::Vector3d(0.5, 0.5, 0.5);
  options.mode_count = 4;
  options.youngs[0] = options.youngs[1] = youngs;
  return sim::make_box_model(options);
}

contact::Obstacle floor_below(double depth) {
  contact::Obstacle floor;
  floor.point = Eigen::Vector3d(0.0, -depth, 0.0);
  return floor;
}

// A sphere half a dhat above the middle of the block's top, coming down `travel` over `seconds`
// and staying there.
contact::Obstacle pressing_sphere(double radius, double travel, double seconds) {
  contact::Obstacle sphere;
  sphere.kind = contact::ObstacleKind::sphere;
  sphere.radius = radius;
  sphere.point = Eigen::Vector3d(0.0, 0.5 + radius + 0.5 * kActivation, 0.0);
  sphere.path.times = {0.0, seconds};
  sphere.path.offsets = {Eigen::Vector3d::Zero(), Eigen::Vector3d(0.0, -travel, 0.0)};
  return sphere;
}

multibody::ContactSceneSpec spec_of(std::vector<contact::Obstacle> obstacles,
                                    std::vector<multibody::SceneBodySpec> bodies,
                                    const Eigen::Vector3d& gravity) {
  multibody::ContactSceneSpec spec;
  spec.timestep = kTimestep;
  spec.gravity = gravity;
  spec.activation = kActivation;
  spec.stiffness = 1e6;  // as local_press_test's: a loaded sample rests a fair part of dhat away
  spec.obstacles = std::move(obstacles);
  spec.bodies = std::move(bodies);
  return spec;
}

// The block pressed by the sphere on a floor, with or without local deformations: the sphere's
// depth below where it started and its force at the end, and the most patches attached.
struct Press {
  double depth = 0.0, force = 0.0;
  int patches = 0;
};

Press press(bool local) {
  const sim::BoxModel block = soft_block();
  multibody::ContactScene scene(
      spec_of({floor_below(0.5 * kActivation), pressing_sphere(0.5, 0.05, 0.5)}, {{}},
              Eigen::Vector3d::Zero()),
      {block.model});
  scene.set_solver(sim::SolverMethod::mfem, 2, false);
  if (local) scene.enable_local_deformations(0, test::block_mesh(block, 1000.0));
  Press result;
  for (int step = 0; step < 60; ++step) {
    const multibody::StepSummary& summary = scene.step();
    EXPECT_TRUE(summary.ok) << step;
    EXPECT_GT(summary.min_distance, 0.0) << step;
    result.patches = std::max(result.patches, scene.body_patches(0));
  }
  result.depth = -scene.obstacles().back().offset.y();
  result.force = scene.obstacle_forces().back().y();
  return result;
}

// The sphere follows its path as far as the block lets it (an obstacle held back where it would
// come closer to a sample than CCD allows). Its global modes alone hold the block's top flat
// under it; with local deformations the top dents and the sphere comes down further.
TEST(SceneLocalDeformations, ASpherePressedIntoABlockDentsIt) {
  const Press global = press(false);
  const Press dented = press(true);
  std::printf(
      "[ measured ] sphere depth %.4f m (global modes) against %.4f m (local), force %.1f "
      "N against %.1f N, %d patches\n",
      global.depth, dented.depth, global.force, dented.force, dented.patches);
  EXPECT_EQ(global.patches, 0);
  EXPECT_GT(dented.patches, 0);
  EXPECT_GT(dented.depth, global.depth + 2e-3);
  EXPECT_GT(dented.force, 0.0);
}

// Resting on the floor under its weight (500 kg on its 1 m^2 bottom), a soft block (E 1e5 Pa)
// dents about 5 cm by the half-space estimate and attaches patches; a stiff one (E 1e10 Pa) about
// 0.5 um, far below dhat, and attaches none (dent_estimate.hpp). Every loaded sample attached
// one before, whatever the material.
TEST(SceneLocalDeformations, OnlyALoadThatCanDentTheSurfaceAttachesPatches) {
  const auto patches_resting = [](double youngs) {
    const sim::BoxModel block = soft_block(youngs);
    multibody::ContactScene scene(
        spec_of({floor_below(0.5 * kActivation)}, {{}}, Eigen::Vector3d(0.0, -9.8, 0.0)),
        {block.model});
    scene.set_solver(sim::SolverMethod::mfem, 2, false);
    scene.enable_local_deformations(0, test::block_mesh(block, 1000.0));
    int most = 0;
    for (int step = 0; step < 20; ++step) {
      EXPECT_TRUE(scene.step().ok) << step;
      most = std::max(most, scene.body_patches(0));
    }
    return most;
  };
  EXPECT_GT(patches_resting(1e5), 0);
  EXPECT_EQ(patches_resting(1e10), 0);
}

// Pressed in, lifted, then pressed again while moving sideways across the top, the sphere keeps
// denting the block where it is: the patches follow it (they change as the load moves), every
// step succeeds and nothing touches. (The shipped poke scene's check, tests/wasm/poke.test.js,
// is the one that caught a new patch set's fields left unturned by its rotations.)
TEST(SceneLocalDeformations, ASphereSlidingAcrossTheTopDentsWhereItIs) {
  const sim::BoxModel block = soft_block();
  contact::Obstacle sphere = pressing_sphere(0.25, 0.05, 0.4);
  sphere.path.times.push_back(0.8);
  sphere.path.offsets.push_back(Eigen::Vector3d(0.0, 0.0, 0.0));
  sphere.path.times.push_back(1.2);
  sphere.path.offsets.push_back(Eigen::Vector3d(0.2, -0.05, 0.1));
  multibody::ContactScene scene(
      spec_of({floor_below(0.5 * kActivation), sphere}, {{}}, Eigen::Vector3d::Zero()),
      {block.model});
  scene.set_solver(sim::SolverMethod::mfem, 2, false);
  scene.enable_local_deformations(0, test::block_mesh(block, 1000.0));
  int dented_steps = 0;
  for (int step = 0; step < 120; ++step) {
    const multibody::StepSummary& summary = scene.step();
    ASSERT_TRUE(summary.ok) << step;
    ASSERT_GT(summary.min_distance, 0.0) << step;
    if (scene.body_patches(0) > 0) ++dented_steps;
  }
  EXPECT_GT(dented_steps, 50);
  // It slid across (held back, as a scripted obstacle is, where it would come too near a sample).
  EXPECT_GT(scene.obstacles().back().offset.x(), 0.05);
}

// A body with local deformations falling freely steps as it does without them, bit for bit (no
// patch attaches until it is loaded), then lands and dents.
TEST(SceneLocalDeformations, UnloadedItStepsAsWithout) {
  const sim::BoxModel block = soft_block();
  const auto run = [&](bool local) {
    multibody::ContactScene scene(spec_of({floor_below(0.2)}, {{}}, sim::SolverSettings{}.gravity),
                                  {block.model});
    scene.set_solver(sim::SolverMethod::mfem, 2, false);
    if (local) scene.enable_local_deformations(0, test::block_mesh(block, 1000.0));
    std::vector<sim::ReducedMatrix> airborne;
    int landed_patches = 0;
    for (int step = 0; step < 40; ++step) {
      scene.step();
      if (scene.body_patches(0) == 0 && landed_patches == 0) {
        airborne.push_back(scene.coordinates());
      }
      landed_patches = std::max(landed_patches, scene.body_patches(0));
    }
    return std::pair{airborne, landed_patches};
  };
  const auto [without, none] = run(false);
  const auto [with, landed] = run(true);
  EXPECT_EQ(none, 0);
  EXPECT_GT(landed, 0);        // the floor loads its bottom
  ASSERT_GE(with.size(), 5u);  // 0.2 m of free fall: about 12 steps
  for (std::size_t step = 0; step < with.size(); ++step) {
    EXPECT_TRUE(with[step] == without[step]) << "step " << step;
  }
}

// Tilted gravity on a flat floor is a slope of angle theta: the block's centroid, from step 30
// (landed, its bottom's patches attached) over the next 50 steps, accelerates down the slope at
// a = 2 (x1 - x0 - v0 t) / t^2. With `iterations` a step, local deformations on or off.
struct Slide {
  double acceleration = 0.0;
  double travel = 0.0;   // x1 - x0, m
  double closest = 1.0;  // the closest distance to the floor over all 80 steps, m
  int patches = 0;
};

Slide slide(double mu, double theta, int iterations) {
  const sim::BoxModel block = soft_block();
  multibody::ContactSceneSpec spec =
      spec_of({floor_below(0.5 * kActivation)}, {{}},
              9.81 * Eigen::Vector3d(std::sin(theta), -std::cos(theta), 0.0));
  spec.friction = mu;
  multibody::ContactScene scene(spec, {block.model});
  scene.set_solver(sim::SolverMethod::mfem, iterations, false);
  scene.set_sleeping(false);
  scene.enable_local_deformations(0, test::block_mesh(block, 1000.0));
  Slide result;
  for (int step = 0; step < 30; ++step) {
    result.closest = std::min(result.closest, scene.step().min_distance);
  }
  const double x0 = scene.body_centroid(0).x();
  const double v0 = scene.body_momentum(0).x() / scene.body_mass(0);
  const int steps = 50;
  for (int step = 0; step < steps; ++step) {
    result.closest = std::min(result.closest, scene.step().min_distance);
    result.patches = std::max(result.patches, scene.body_patches(0));
  }
  const double t = steps * kTimestep;
  result.travel = scene.body_centroid(0).x() - x0;
  result.acceleration = 2.0 * (result.travel - v0 * t) / (t * t);
  return result;
}

// Friction holds the dented bottom as it holds the undented one: on a slope of tan 0.365 the block
// stays put at mu 0.5 (its elastic sway aside: static friction's creep, about 4 mm/s here), slides
// at g (sin theta - mu cos theta) at mu 0.2 and at g sin theta without friction, with the bottom's
// patches attached, at the page's 2 iterations and at 8. (Frictionless dented samples would let it
// slide at nearly g sin theta: every sample on the floor is in a patch's reach. Without friction at
// 2 iterations the patches' turn at a step's start once moved a sample into the floor, and every
// later step failed; and the dented bottom closed in on the floor step by step, to 1e-12 m, until
// a prediction cut short by contact gave way to the step's start as the first guess:
// sim/simulator.cpp.) Its contacts stay beyond 1e-3 dhat.
TEST(SceneLocalDeformations, FrictionHoldsTheDentedBottomAsCoulombSays) {
  const double theta = 0.35, g = 9.81;
  for (const int iterations : {2, 8}) {
    const Slide stuck = slide(0.5, theta, iterations);
    const Slide sliding = slide(0.2, theta, iterations);
    const Slide free = slide(0.0, theta, iterations);
    const double expected = g * (std::sin(theta) - 0.2 * std::cos(theta));
    std::printf(
        "[ measured ] %d iterations: mu 0.5 travels %.4f m in 50 steps, mu 0.2 a = %.4f m/s^2 "
        "(Coulomb %.4f), mu 0 a = %.4f (%.4f); %d, %d and %d patches; closest %.2g, %.2g and "
        "%.2g m\n",
        iterations, stuck.travel, sliding.acceleration, expected, free.acceleration,
        g * std::sin(theta), stuck.patches, sliding.patches, free.patches, stuck.closest,
        sliding.closest, free.closest);
    for (const Slide& run : {stuck, sliding, free}) {
      EXPECT_GT(run.closest, 1e-3 * kActivation) << iterations;  // settled contacts, not rounding
    }
    EXPECT_GT(stuck.patches, 0);
    EXPECT_GT(sliding.patches, 0);
    EXPECT_GT(free.patches, 0);
    EXPECT_LT(std::abs(stuck.travel), 0.01) << iterations;
    EXPECT_NEAR(sliding.acceleration, expected, 0.05 * expected) << iterations;
    EXPECT_NEAR(free.acceleration, g * std::sin(theta), 0.05 * g * std::sin(theta)) << iterations;
  }
}

// Between bodies they are not built: a scene of two bodies refuses them, naming why.
TEST(SceneLocalDeformations, AreRefusedInASceneOfSeveralBodies) {
  const sim::BoxModel block = soft_block();
  multibody::SceneBodySpec beside;
  beside.translation = Eigen::Vector3d(2.0, 0.0, 0.0);
  multibody::ContactScene scene(spec_of({floor_below(0.1)}, {{}, beside}, Eigen::Vector3d::Zero()),
                                {block.model, block.model});
  try {
    scene.enable_local_deformations(0, test::block_mesh(block, 1000.0));
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("one body"), std::string::npos) << error.what();
  }
  EXPECT_FALSE(scene.local_deformations(0));
  EXPECT_TRUE(scene.step().ok);
}

}  // namespace scene_local
}  // namespace
}  // namespace smfem::local
