// Scenes with contact: no penetration at any accepted step, settling, bouncing, friction on a
// slope, momentum exchange between free bodies, and refused start states.
#include "smfem/multibody/contact_scene.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sim/test_model.hpp"
#include "smfem/sim/step/energy_check.hpp"

namespace smfem::multibody {
namespace {

// A free box body (no pins): 1 m x 0.4 m x 0.4 m, 160 kg.
sim::ReducedModel box_body(double youngs = 1e6, int modes = 4) {
  sim::BoxModelOptions options = sim::test::small_box();
  options.youngs[0] = youngs;
  options.youngs[1] = youngs;
  options.mode_count = modes;
  return sim::make_box_model(options).model;
}

contact::Obstacle ground(double height = -0.25) {
  contact::Obstacle plane;
  plane.point = {0, height, 0};
  return plane;
}

ContactSceneSpec spec_with(std::vector<contact::Obstacle> obstacles,
                           std::vector<SceneBodySpec> bodies) {
  ContactSceneSpec spec;
  spec.obstacles = std::move(obstacles);
  spec.bodies = std::move(bodies);
  spec.timestep = 0.01;
  return spec;
}

struct SolverCase {
  sim::SolverMethod method;
  int iterations;
  bool converged;
};

class DropTest : public ::testing::TestWithParam<SolverCase> {};

// A soft box dropped from 10 cm: every accepted state is apart from the ground, and it comes to
// rest without jitter. Its total energy, the barrier's included, never grows (implicit Euler
// dissipates): the landing trades kinetic energy for the barrier's and the rebound takes it back.
TEST_P(DropTest, NeverPenetratesAndSettles) {
  const SolverCase c = GetParam();
  ContactSceneSpec spec = spec_with({ground()}, {{Eigen::Vector3d(0, 0.1, 0)}});
  ContactScene scene(spec, {box_body()});
  scene.set_solver(c.method, c.iterations, c.converged);
  double peak = 0.0, late = 0.0, barrier_peak = 0.0;
  double previous = std::numeric_limits<double>::infinity();
  double growth = 0.0;                  // the largest rise of the total from a step to the next
  double growth_without_barrier = 0.0;  // the same of the total left without it
  double previous_without = std::numeric_limits<double>::infinity();
  for (int step = 0; step < 300; ++step) {
    const StepSummary& summary = scene.step();
    ASSERT_TRUE(summary.ok) << step;
    ASSERT_GT(summary.min_distance, 0.0) << step;
    const sim::Diagnostics& d = scene.last_report().diagnostics;
    const double kinetic = d.kinetic_energy;
    peak = std::max(peak, kinetic);
    if (step >= 250) late = std::max(late, kinetic);
    barrier_peak = std::max(barrier_peak, d.contact_energy);
    EXPECT_DOUBLE_EQ(d.total_energy, d.kinetic_energy + d.elastic_energy + d.gravity_potential +
                                         d.spring_energy + d.contact_energy);
    EXPECT_LE(d.total_energy, previous + sim::allowed_energy_gain(previous, d.total_energy, 0.0))
        << step;
    growth = std::max(growth, d.total_energy - previous);
    const double without = d.total_energy - d.contact_energy;
    growth_without_barrier = std::max(growth_without_barrier, without - previous_without);
    previous = d.total_energy;
    previous_without = without;
  }
  std::printf(
      "barrier energy up to %.3g J; the total rose by up to %.3g J a step, without it %.3g J\n",
      barrier_peak, growth, growth_without_barrier);
  EXPECT_GT(barrier_peak, 1e-3 * peak);
  // Measured: never rose at all (the total without the barrier rose by 0.09 J a step).
  EXPECT_LT(growth, 1e-6 * peak);
  EXPECT_GT(growth_without_barrier, 1e-4 * peak);
  EXPECT_GT(peak, 10.0);  // it fell: 160 kg over 10 cm
  EXPECT_LT(late, 1e-6 * peak);
  // Resting within the barrier's reach, not sunk into it.
  EXPECT_LT(scene.measure().min_distance, scene.parameters().activation);
  EXPECT_GT(scene.measure().active, 0);
  // At rest the box presses on the ground with its weight.
  const Eigen::Vector3d weight = scene.body_mass(0) * scene.settings().gravity;
  const Eigen::Vector3d on_ground = scene.obstacle_forces().front();
  EXPECT_LT((on_ground - weight).norm(), 1e-3 * weight.norm()) << on_ground.transpose();
}

INSTANTIATE_TEST_SUITE_P(Solvers, DropTest,
                         ::testing::Values(SolverCase{sim::SolverMethod::mfem, 1, false},
                                           SolverCase{sim::SolverMethod::mfem, 2, false},
                                           SolverCase{sim::SolverMethod::fem, 2, false},
                                           SolverCase{sim::SolverMethod::mfem, 50, true}));

// A box, soft at one end (1e5 Pa) and stiff at the other (1e8 Pa), dropped onto a slope so that
// an edge lands first, from five heights: the converged step sinks it into its landing and it
// tumbles down the slope (lowest centroid -0.44 to -0.51 m, rebound 98 to 311 J). At 2
// iterations (8 on an impact, sim/simulator.hpp) most landings keep a quarter of the converged
// rebound or more: 4 of these 5 heights, 7 of 11 from 0.8 to 1.3 m (friction.hpp); from the
// others it keeps 4 to 19 % and the box stops up to 12 cm higher on the slope. At 1 iteration (4
// on an impact) 4 of the 5 keep a quarter, but every landing stops higher on the slope: 6 to 17
// cm above the converged lowest point (2026-11-28), hence the wider bound there. Before the impact
// rule a landing stopped dead where it touched (0.57 J of 184). This checked a single height
// until that height's luck ran out: tumbling down a slope is chaotic, so only several heights
// together say how landings fare.
TEST(ContactScene, LandingsAtOneAndTwoIterationsSinkInAndMostKeepTheirRebound) {
  struct Landing {
    double lowest = 0.0;   // of the centroid, m
    double rebound = 0.0;  // largest kinetic energy after the lowest point, J
  };
  const auto land = [](double height, int iterations, bool converged) {
    contact::Obstacle slope = ground();
    slope.normal = Eigen::Vector3d(0.3, 1, 0.2).normalized();
    ContactSceneSpec spec = spec_with({slope}, {{Eigen::Vector3d(0, height, 0)}});
    spec.friction = 0.5;
    sim::BoxModelOptions options = sim::test::small_box();
    options.ny = 2;
    options.nz = 2;
    options.youngs[0] = 1e5;
    options.youngs[1] = 1e8;
    options.mode_count = 6;
    ContactScene scene(spec, {sim::make_box_model(options).model});
    scene.set_solver(sim::SolverMethod::mfem, iterations, converged);
    std::vector<double> heights, kinetic;
    for (int step = 0; step < 90; ++step) {
      scene.step();
      heights.push_back(scene.body_centroid(0).y());
      kinetic.push_back(scene.last_report().diagnostics.kinetic_energy);
    }
    const auto lowest = std::min_element(heights.begin(), heights.end());
    return Landing{*lowest,
                   *std::max_element(kinetic.begin() + (lowest - heights.begin()), kinetic.end())};
  };
  std::map<int, int> kept;  // landings that keep a quarter of the rebound, by iterations
  for (const double height : {0.8, 0.9, 1.0, 1.1, 1.2}) {
    const Landing reference = land(height, 100, true);
    std::printf("dropped from %.1f m: converged lowest %.3f m, rebound %.0f J", height,
                reference.lowest, reference.rebound);
    for (const int iterations : {1, 2}) {
      const Landing fast = land(height, iterations, false);
      std::printf("; %d iteration(s) %.3f m, %.0f J", iterations, fast.lowest, fast.rebound);
      EXPECT_NEAR(fast.lowest, reference.lowest, iterations == 1 ? 0.2 : 0.15)
          << height << " m, " << iterations;
      if (fast.rebound > 0.25 * reference.rebound) ++kept[iterations];
    }
    std::printf("\n");
  }
  EXPECT_GE(kept[1], 3) << "of 5 heights at 1 iteration";
  EXPECT_GE(kept[2], 3) << "of 5 heights at 2 iterations";
}

// A box dropped 10 cm onto one of two boxes that rest side by side on the ground, all three one
// island: its landing is an impact whose further iterations (sim/simulator.hpp) move the two
// boxes that approach and hold the one beside. At 2 iterations the dropped box sinks as deep as
// the converged step takes it and keeps its rebound, and the box beside, pushed aside by its
// neighbour as the landing squashes it, moves as far as the converged run moves it (measured
// 2026-11-28: lowest 0.2832 m converged, 0.2849 m at 2 iterations; rebound 36.4 J, 38.7 J; the
// box beside 2.7 cm, 2.1 cm).
TEST(ContactScene, ALandingOnAPileMovesAsTheConvergedOne) {
  struct Landing {
    double lowest = 0.0;   // of the dropped box's centroid, m
    double rebound = 0.0;  // its largest kinetic energy after the lowest point, J
    double beside = 0.0;   // how far the box beside moved at most, m
  };
  const auto land = [](int iterations, bool converged) {
    const double resting = -0.048;  // 2 mm above the ground
    ContactSceneSpec spec = spec_with({ground()}, {{Eigen::Vector3d(0, resting, 0)},
                                                   {Eigen::Vector3d(0, resting, 0.403)},
                                                   {Eigen::Vector3d(0, 0.45, 0)}});
    ContactScene scene(spec, {box_body(1e5), box_body(1e5), box_body(1e5)});
    scene.set_solver(sim::SolverMethod::mfem, iterations, converged);
    const Eigen::Vector3d start = scene.body_centroid(1);
    std::vector<double> heights, kinetic;
    Landing landing;
    for (int step = 0; step < 40; ++step) {
      const StepSummary& summary = scene.step();
      EXPECT_TRUE(summary.ok) << step;
      EXPECT_GT(summary.min_distance, 0.0) << step;
      heights.push_back(scene.body_centroid(2).y());
      kinetic.push_back(scene.body_kinetic(2));
      landing.beside = std::max(landing.beside, (scene.body_centroid(1) - start).norm());
    }
    const auto lowest = std::min_element(heights.begin(), heights.end());
    landing.lowest = *lowest;
    landing.rebound =
        *std::max_element(kinetic.begin() + (lowest - heights.begin()), kinetic.end());
    return landing;
  };
  const Landing reference = land(100, true);
  const Landing fast = land(2, false);
  std::printf(
      "converged: lowest %.4f m, rebound %.2f J, beside %.2e m; 2 iterations: %.4f m, "
      "%.2f J, %.2e m\n",
      reference.lowest, reference.rebound, reference.beside, fast.lowest, fast.rebound,
      fast.beside);
  EXPECT_NEAR(fast.lowest, reference.lowest, 0.01);
  EXPECT_GT(fast.rebound, 0.25 * reference.rebound);
  EXPECT_NEAR(fast.beside, reference.beside, 0.01);
}

// A violent throw at the ground and at a sphere: still no penetration.
TEST(ContactScene, ViolentThrowNeverPenetrates) {
  contact::Obstacle sphere;
  sphere.kind = contact::ObstacleKind::sphere;
  sphere.point = {0.7, -0.1, 1.2};
  sphere.radius = 0.3;
  ContactSceneSpec spec =
      spec_with({ground(), sphere}, {{Eigen::Vector3d(0, 0.3, 0), Eigen::Vector3d(0, -20, 30)}});
  ContactScene scene(spec, {box_body(1e5)});
  for (int step = 0; step < 150; ++step) {
    const StepSummary& summary = scene.step();
    ASSERT_GT(summary.min_distance, 0.0) << step;
  }
}

// Dragged down into the ground by a spring a thousand times its weight: still no penetration.
TEST(ContactScene, ViolentDragNeverPenetrates) {
  ContactScene scene(spec_with({ground()}, {{Eigen::Vector3d(0, 0.1, 0)}}), {box_body(1e5)});
  scene.drag_start(0, 0, Eigen::Vector3d(0.3, -2.0, 0.2), 2e6);
  for (int step = 0; step < 100; ++step) {
    if (step == 50) scene.drag_move(Eigen::Vector3d(3.0, -5.0, -1.0));
    const StepSummary& summary = scene.step();
    ASSERT_TRUE(summary.ok) << step;
    ASSERT_GT(summary.min_distance, 0.0) << step;
  }
  scene.drag_end();
  EXPECT_THROW(scene.drag_start(1, 0, Eigen::Vector3d::Zero(), 1.0), std::out_of_range);
  EXPECT_THROW(scene.drag_start(0, 1 << 20, Eigen::Vector3d::Zero(), 1.0), std::out_of_range);
}

// Tilted gravity on a flat ground is a slope of angle theta. A stiff block stays put for
// mu > tan(theta) and slides at g (sin theta - mu cos theta) for mu < tan(theta).
double slope_acceleration(double mu, double theta) {
  ContactSceneSpec spec = spec_with({ground()}, {{Eigen::Vector3d(0, 0.002, 0)}});
  spec.gravity = 9.81 * Eigen::Vector3d(std::sin(theta), -std::cos(theta), 0);
  spec.friction = mu;
  ContactScene scene(spec, {box_body(1e8, 1)});
  scene.set_solver(sim::SolverMethod::mfem, 50, true);
  // Let it land and settle its normal contact, then time the slide.
  for (int step = 0; step < 30; ++step) scene.step();
  const double x0 = scene.body_centroid(0).x();
  const double v0 = scene.body_momentum(0).x();
  const int steps = 50;
  for (int step = 0; step < steps; ++step) {
    EXPECT_GT(scene.step().min_distance, 0.0);
  }
  const double t = steps * spec.timestep;
  const double mass = scene.body_mass(0);
  const double x1 = scene.body_centroid(0).x();
  // x1 = x0 + v0 t + a t^2 / 2.
  return 2.0 * (x1 - x0 - v0 / mass * t) / (t * t);
}

TEST(ContactScene, BlockOnASlopeSticksOrSlidesAsCoulombSays) {
  const double theta = 0.35;  // tan = 0.365
  const double g = 9.81;
  EXPECT_LT(std::abs(slope_acceleration(0.5, theta)), 0.01 * g);
  const double mu = 0.2;
  const double expected = g * (std::sin(theta) - mu * std::cos(theta));
  EXPECT_NEAR(slope_acceleration(mu, theta), expected, 0.05 * expected);
  EXPECT_NEAR(slope_acceleration(0.0, theta), g * std::sin(theta), 0.05 * g * std::sin(theta));
}

// A slope of tan 0.365 whose friction holds a block at a load ratio r of mu N.
ContactSceneSpec slope_holding_at(double r) {
  const double theta = 0.35;
  ContactSceneSpec spec = spec_with({ground()}, {{Eigen::Vector3d(0, 0.002, 0)}});
  spec.gravity = 9.81 * Eigen::Vector3d(std::sin(theta), -std::cos(theta), 0);
  spec.friction = std::tan(theta) / r;
  return spec;
}

// Static friction is smoothed (friction.hpp): under a tangential load of a fraction r of mu N a
// contact slips eps (1 - sqrt(1 - r)) a step, so a block held on a slope creeps at
// slip (1 - sqrt(1 - r)), never faster than the scene's slip speed. Checked at the page's 2
// iterations at r = 0.9 (creep 0.68 slip), against the prediction within 30 %.
TEST(ContactScene, StaticFrictionCreepsAsItsSmoothingSays) {
  const double r = 0.9;
  const ContactSceneSpec spec = slope_holding_at(r);
  ContactScene scene(spec, {box_body(1e8, 1)});
  scene.set_solver(sim::SolverMethod::mfem, 2, false);
  scene.set_sleeping(false);  // a sleeping block would not creep at all
  for (int step = 0; step < 60; ++step) scene.step();
  const double x0 = scene.body_centroid(0).x();
  const int steps = 100;
  for (int step = 0; step < steps; ++step) scene.step();
  const double creep = (scene.body_centroid(0).x() - x0) / (steps * spec.timestep);
  const double slip = scene.parameters().slip;
  EXPECT_LT(creep, slip);
  EXPECT_NEAR(creep, slip * (1.0 - std::sqrt(1.0 - r)), 0.3 * slip * (1.0 - std::sqrt(1.0 - r)));
}

// That creep is the smoothing's, not Coulomb's: the block held at r = 0.9 falls asleep and
// stays where it is (with the sleep speed at half the slip speed it crept at 0.68 of it for ever,
// as the settled piles of 20 and 30 cubes did). Its last second: asleep, not a micron moved.
TEST(ContactScene, ABlockHeldNearTheFrictionLimitSleeps) {
  ContactScene scene(slope_holding_at(0.9), {box_body(1e8, 1)});
  scene.set_solver(sim::SolverMethod::mfem, 2, false);
  for (int step = 0; step < 100; ++step) scene.step();
  const Eigen::Vector3d held = scene.body_centroid(0);
  for (int step = 0; step < 100; ++step) scene.step();
  EXPECT_TRUE(scene.body_asleep(0));
  EXPECT_LT((scene.body_centroid(0) - held).norm(), 1e-6);
}

// Resting contact with friction is where a pile spends its time. Once a dropped soft box has
// settled, each step at the page's 2 iterations is taken as it is: the energy check retries
// none. (With eps_v = 1e-3 m/s, friction's static zone, 10 um a step, was narrower than the
// settling wobble: Newton's steps were refused and the 3e4 Pa box was retried 3 times in its
// last 150 steps; the shipped jelly cube, 38 times in 90.)
TEST(ContactScene, ARestingBoxWithFrictionNeedsNoRetries) {
  for (const double youngs : {1e5, 3e4, 1e4}) {
    ContactSceneSpec spec = spec_with({ground()}, {{Eigen::Vector3d(0, 0.1, 0)}});
    spec.friction = 0.5;
    ContactScene scene(spec, {box_body(youngs)});
    scene.set_solver(sim::SolverMethod::mfem, 2, false);
    scene.set_sleeping(false);  // a sleeping box is not stepped at all
    int retried = 0;
    for (int step = 0; step < 300; ++step) {
      ASSERT_TRUE(scene.step().ok) << step;
      if (step >= 150 && scene.last_report().retries > 0) ++retried;
    }
    EXPECT_EQ(retried, 0) << "E = " << youngs << " Pa";
  }
}

// A floor that starts to move carries the box resting on it: friction accelerates the box to the
// floor's 0.2 m/s within a few steps (mu g = 4.9 m/s^2: 4 mm of slip) and holds it there. The
// energy friction puts into the box counts as the moving floor's work in the energy check
// (sim/simulator.hpp), so no step is retried for it (without it the check retried 13 and 50 of
// the 100 steps).
TEST(ContactScene, AMovingFloorCarriesTheBoxOnItWithoutRetries) {
  for (const double youngs : {1e6, 3e4}) {
    contact::Obstacle floor = ground();
    floor.path.times = {0.0, 1.0, 2.0};
    floor.path.offsets = {Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(),
                          Eigen::Vector3d(0.2, 0.0, 0.0)};
    ContactSceneSpec spec = spec_with({floor}, {{Eigen::Vector3d(0, 0.05, 0)}});
    spec.friction = 0.5;
    ContactScene scene(spec, {box_body(youngs)});
    scene.set_solver(sim::SolverMethod::mfem, 2, false);
    for (int step = 0; step < 100; ++step) ASSERT_TRUE(scene.step().ok) << step;
    const double x0 = scene.body_centroid(0).x();
    int retried = 0;
    for (int step = 100; step < 200; ++step) {
      ASSERT_TRUE(scene.step().ok) << step;
      if (scene.last_report().retries > 0) ++retried;
    }
    const double carried = scene.body_centroid(0).x() - x0;
    std::printf("[ measured ] E = %g Pa: carried %.4f m of the floor's 0.2, %d steps retried\n",
                youngs, carried, retried);
    EXPECT_NEAR(carried, 0.2 - 0.004, 0.01) << "E = " << youngs << " Pa";
    EXPECT_EQ(retried, 0) << "E = " << youngs << " Pa";
  }
}

// The box of box_body() with a vertex at the middle of each face (2 x 2 cubes across it): a
// sphere meets it there face on, not at its corners.
sim::ReducedModel faced_box() {
  sim::BoxModelOptions options = sim::test::small_box();
  options.ny = options.nz = 2;
  return sim::make_box_model(options).model;
}

// A 20 cm sphere 5 cm short of a faced box's near face (x = 0.2), swept along +x at 1 m/s
// (and down at `sink` m/s, starting that much higher).
contact::Obstacle swept_sphere(double sink = 0.0) {
  contact::Obstacle ball;
  ball.kind = contact::ObstacleKind::sphere;
  ball.point = {-0.05, sink, 0.3};
  ball.radius = 0.2;
  ball.path.times = {0.0, 2.0};
  ball.path.offsets = {Eigen::Vector3d::Zero(), Eigen::Vector3d(2.0, -2.0 * sink, 0.0)};
  return ball;
}

// A wall facing -x at `x`.
contact::Obstacle wall_at(double x) {
  contact::Obstacle wall;
  wall.point = {x, 0.0, 0.0};
  wall.normal = {-1.0, 0.0, 0.0};
  return wall;
}

// A sphere on a path pushes the free box in its way ahead of it (obstacle_push.hpp) at the
// page's 2 iterations: the box (1 m long, on a frictionless floor) leaves at the sphere's 1 m/s
// and the sphere keeps to its path; swept slightly downwards, the push slides the box along the
// floor instead of into it. Before, the sphere stalled at the box, held back where it would come
// too near a sample, and the barrier alone moved the box: 5 cm/s (docs/contact.md).
TEST(ContactScene, AnObstacleOnAPathPushesAFreeBodyAhead) {
  for (const double sink : {0.0, 0.1}) {  // m/s downwards
    ContactSceneSpec spec =
        spec_with({ground(-0.201), swept_sphere(sink)}, {{Eigen::Vector3d::Zero()}});
    ContactScene scene(spec, {faced_box()});
    scene.set_solver(sim::SolverMethod::mfem, 2, false);
    const Eigen::Vector3d start = scene.body_centroid(0);
    for (int step = 0; step < 100; ++step) {
      const StepSummary& summary = scene.step();
      ASSERT_TRUE(summary.ok) << step;
      ASSERT_GT(summary.min_distance, 0.0) << step;
    }
    const Eigen::Vector3d moved = scene.body_centroid(0) - start;
    const double speed = scene.body_momentum(0).x() / scene.body_mass(0);
    std::printf(
        "[ measured ] sinking %.1f m/s: sphere at %.4f m of its path's 1, box moved %.4f m "
        "at %.3f m/s, %.2g m up, %.2g m aside\n",
        sink, scene.obstacles().back().offset.x(), moved.x(), speed, moved.y(), moved.z());
    EXPECT_NEAR(scene.obstacles().back().offset.x(), 1.0, 0.01) << sink;
    EXPECT_GT(moved.x(), 0.9) << sink;  // struck after 5 cm
    // Face on, at the sphere's speed; struck by a sphere coming down over its face, faster: a
    // frictionless push along the normal, which points down into the floor there, wedges it
    // forwards (at normal n, until v . n = V . n: v_x = 1 + 0.1 |n_y| / n_x).
    EXPECT_GE(speed, 0.99) << sink;
    EXPECT_LT(speed, sink > 0.0 ? 1.2 : 1.01) << sink;
    EXPECT_LT(std::abs(moved.z()), 0.01) << sink;  // struck in the middle of its face: straight on
    EXPECT_LT(std::abs(moved.y()), 0.01) << sink;  // on the floor, neither in it nor lifted
  }
}

// The push passes on: a row of three boxes on a frictionless floor, 2 cm apart, goes ahead of the
// sphere together once the first meets the second, each at the sphere's speed, and the sphere
// keeps to its path. Before, a box the push would bring near another held the sphere back, and
// the barrier alone moved the row (the sphere made 0.43 m of its 1, the first box crept at
// 0.42 m/s).
TEST(ContactScene, AnObstacleOnAPathPushesARowOfBodiesAhead) {
  ContactSceneSpec spec =
      spec_with({ground(-0.201), swept_sphere()}, {{Eigen::Vector3d::Zero()},
                                                   {Eigen::Vector3d(1.02, 0.0, 0.0)},
                                                   {Eigen::Vector3d(2.04, 0.0, 0.0)}});
  ContactScene scene(spec, {faced_box(), faced_box(), faced_box()});
  scene.set_solver(sim::SolverMethod::mfem, 2, false);
  std::vector<Eigen::Vector3d> start;
  for (int b = 0; b < 3; ++b) start.push_back(scene.body_centroid(b));
  for (int step = 0; step < 100; ++step) {
    const StepSummary& summary = scene.step();
    ASSERT_TRUE(summary.ok) << step;
    ASSERT_GT(summary.min_distance, 0.0) << step;
  }
  std::printf("[ measured ] sphere at %.4f m of its path's 1; boxes moved",
              scene.obstacles().back().offset.x());
  for (int b = 0; b < 3; ++b) {
    const Eigen::Vector3d moved = scene.body_centroid(b) - start[static_cast<std::size_t>(b)];
    const double speed = scene.body_momentum(b).x() / scene.body_mass(b);
    std::printf(" %.4f m at %.3f m/s (%.2g m aside)", moved.x(), speed, moved.z());
    // Struck after 5 cm, the next ones after 2 and 4 cm more.
    EXPECT_GT(moved.x(), 0.88) << b;
    EXPECT_GE(speed, 0.99) << b;
    EXPECT_LT(speed, 1.01) << b;
    EXPECT_LT(std::abs(moved.z()), 0.01) << b;
    EXPECT_LT(std::abs(moved.y()), 0.01) << b;
  }
  std::printf("\n");
  EXPECT_NEAR(scene.obstacles().back().offset.x(), 1.0, 0.01);
}

// A floor rising like a lift at 1 m/s carries a stack of two boxes up at its speed, the upper one
// with the lower. Before, the upper box held the floor back where it would have pushed the lower
// one near it, and the barrier alone lifted the stack: the floor made 5.5 cm of its 20 and the
// boxes rose at 0.29 m/s.
TEST(ContactScene, ARisingFloorLiftsAStack) {
  contact::Obstacle floor = ground(-0.201);
  floor.path.times = {0.0, 0.5, 0.7};
  floor.path.offsets = {Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(),
                        Eigen::Vector3d(0.0, 0.2, 0.0)};
  ContactSceneSpec spec =
      spec_with({floor}, {{Eigen::Vector3d::Zero()}, {Eigen::Vector3d(0.0, 0.402, 0.0)}});
  spec.friction = 0.5;
  ContactScene scene(spec, {box_body(1e6), box_body(1e6)});
  scene.set_solver(sim::SolverMethod::mfem, 2, false);
  for (int step = 0; step < 50; ++step) ASSERT_TRUE(scene.step().ok) << step;  // settled
  const Eigen::Vector3d lower = scene.body_centroid(0), upper = scene.body_centroid(1);
  for (int step = 50; step < 70; ++step) {
    const StepSummary& summary = scene.step();
    ASSERT_TRUE(summary.ok) << step;
    ASSERT_GT(summary.min_distance, 0.0) << step;
  }
  const Eigen::Vector3d lifted_lower = scene.body_centroid(0) - lower;
  const Eigen::Vector3d lifted_upper = scene.body_centroid(1) - upper;
  std::printf(
      "[ measured ] floor up %.4f m of 0.2; boxes lifted %.4f and %.4f m, at %.3f and "
      "%.3f m/s\n",
      scene.obstacles().front().offset.y(), lifted_lower.y(), lifted_upper.y(),
      scene.body_momentum(0).y() / scene.body_mass(0),
      scene.body_momentum(1).y() / scene.body_mass(1));
  EXPECT_NEAR(scene.obstacles().front().offset.y(), 0.2, 1e-3);
  // Each push leaves a body at the floor's speed, and the step's gravity takes g h = 0.1 m/s from
  // it until the next (flying ahead of the floor by up to a step's 1 cm between pushes).
  for (const double lifted : {lifted_lower.y(), lifted_upper.y()}) EXPECT_NEAR(lifted, 0.2, 0.015);
  for (int b = 0; b < 2; ++b) {
    EXPECT_NEAR(scene.body_momentum(b).y() / scene.body_mass(b), 1.0, 0.11) << b;
  }
}

// A box the push would take into a wall holds the sphere back instead, clear of both.
TEST(ContactScene, ABodyAgainstAWallHoldsAnObstacleOnAPathBack) {
  // The wall 10 cm beyond the box's far face.
  ContactSceneSpec spec =
      spec_with({ground(-0.201), wall_at(1.3), swept_sphere()}, {{Eigen::Vector3d::Zero()}});
  ContactScene scene(spec, {faced_box()});
  scene.set_solver(sim::SolverMethod::mfem, 2, false);
  // 0.4 s: the box meets the wall at about 0.15 s.
  for (int step = 0; step < 40; ++step) {
    const StepSummary& summary = scene.step();
    ASSERT_TRUE(summary.ok) << step;
    ASSERT_GT(summary.min_distance, 0.0) << step;
  }
  // Pushed up to the wall (its far face from 1.2 to 1.3; its centroid a little further, as the
  // sphere then presses into the soft box's near half), and the sphere held back from there, far
  // short of its path's 0.4 m.
  std::printf("[ measured ] box moved %.4f m, sphere at %.4f m of its path's 0.4\n",
              scene.body_centroid(0).x() - 0.7, scene.obstacles().back().offset.x());
  EXPECT_GT(scene.body_centroid(0).x() - 0.7, 0.095);
  EXPECT_LT(scene.body_centroid(0).x() - 0.7, 0.13);
  EXPECT_LT(scene.obstacles().back().offset.x(), 0.3);
  EXPECT_GT(scene.last_step().obstacles_held, 0);
}

// A row the push would take into a wall holds the sphere back as a whole: the far box stops at
// the wall, the near one against it, and the sphere behind them.
TEST(ContactScene, ARowAgainstAWallHoldsAnObstacleOnAPathBack) {
  // The wall 10 cm beyond the far box's far face.
  ContactSceneSpec spec = spec_with({ground(-0.201), wall_at(2.32), swept_sphere()},
                                    {{Eigen::Vector3d::Zero()}, {Eigen::Vector3d(1.02, 0.0, 0.0)}});
  ContactScene scene(spec, {faced_box(), faced_box()});
  scene.set_solver(sim::SolverMethod::mfem, 2, false);
  for (int step = 0; step < 40; ++step) {
    const StepSummary& summary = scene.step();
    ASSERT_TRUE(summary.ok) << step;
    ASSERT_GT(summary.min_distance, 0.0) << step;
  }
  const double near = scene.body_centroid(0).x() - 0.7, far = scene.body_centroid(1).x() - 1.72;
  std::printf("[ measured ] boxes moved %.4f and %.4f m, sphere at %.4f m of its path's 0.4\n",
              near, far, scene.obstacles().back().offset.x());
  EXPECT_GT(far, 0.095);
  EXPECT_LT(far, 0.13);
  // The near box closes its 2 cm gap to the far one, and the sphere presses into its soft near
  // half (as into the lone box's above: its centroid moves on by 1-3 cm).
  EXPECT_GT(near, far + 0.015);
  EXPECT_LT(near, far + 0.06);
  EXPECT_LT(scene.obstacles().back().offset.x(), 0.3);
  EXPECT_GT(scene.last_step().obstacles_held, 0);
}

// A 2 cm plastic bar thrown at 1 m/s along a frictionless table slides as far over a box or a
// capsule as over a plane: 1 m in a second, at the page's 2 iterations. While CCD bounded a
// sample's approach to a box or capsule by its whole motion (ccd.hpp, convex_advancement), a
// sample resting within the barrier's reach slid a fraction of each step, as if braked: 0.24 m
// over the box and over the capsule.
TEST(ContactScene, APebbleSlidesOverABoxOrACapsuleAsOverAPlane) {
  // The test box's grid, 2 x 1 x 1 cm (a 2 x 2 x 2 grid's mass block was singular in wasm).
  sim::BoxModelOptions pebble = sim::test::small_box();
  pebble.lower = Eigen::Vector3d(-0.01, -0.005, -0.005);
  pebble.upper = Eigen::Vector3d(0.01, 0.005, 0.005);
  pebble.youngs[0] = pebble.youngs[1] = 2e8;
  contact::Obstacle table;
  table.kind = contact::ObstacleKind::box;
  table.point = {0.0, -1.006, 0.0};
  table.half_extents = {5.0, 1.0, 5.0};  // its top 1 mm under the pebble's base
  contact::Obstacle log;                 // a long capsule whose top is there too
  log.kind = contact::ObstacleKind::capsule;
  log.point = {-5.0, -2.006, 0.0};
  log.end = {5.0, -2.006, 0.0};
  log.radius = 2.0;
  for (const contact::Obstacle& under : {ground(-0.006), table, log}) {
    ContactSceneSpec spec = spec_with({under}, {{Eigen::Vector3d::Zero()}});
    spec.bodies[0].velocity = {1.0, 0.0, 0.0};
    ContactScene scene(spec, {sim::make_box_model(pebble).model});
    scene.set_solver(sim::SolverMethod::mfem, 2, false);
    const double x0 = scene.body_centroid(0).x();
    for (int step = 0; step < 100; ++step) ASSERT_TRUE(scene.step().ok) << step;
    const double slid = scene.body_centroid(0).x() - x0;
    const char* name = contact::obstacle_kind_name(under.kind).data();
    EXPECT_NEAR(slid, 1.0, 0.01) << name;
    // On it: within the barrier's reach.
    EXPECT_LT(scene.measure().min_distance, scene.parameters().activation) << name;
  }
}

// Two free boxes, one thrown at the other without gravity or friction: the contact forces
// between them are equal and opposite, so the total momentum is kept while it passes.
TEST(ContactScene, TwoBodiesExchangeMomentumSymmetrically) {
  for (const int iterations : {1, 2, 100}) {
    ContactSceneSpec spec =
        spec_with({}, {{Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(2, 0, 0)},
                       {Eigen::Vector3d(1.05, 0.1, 0), Eigen::Vector3d(0, 0, 0)}});
    spec.gravity.setZero();
    ContactScene scene(spec, {box_body(1e6), box_body(1e6)});
    scene.set_solver(sim::SolverMethod::mfem, iterations, iterations == 100);
    const Eigen::Vector3d before = scene.body_momentum(0) + scene.body_momentum(1);
    for (int step = 0; step < 60; ++step) ASSERT_GT(scene.step().min_distance, 0.0);
    const Eigen::Vector3d after = scene.body_momentum(0) + scene.body_momentum(1);
    // The second box was hit: it moves.
    EXPECT_GT(scene.body_momentum(1).x(), 0.3 * before.x()) << iterations;
    EXPECT_LT((after - before).norm(), 1e-6 * before.norm()) << iterations;
  }
}

TEST(ContactScene, RefusesIntersectingStartStates) {
  contact::Obstacle sphere;
  sphere.kind = contact::ObstacleKind::sphere;
  sphere.point = {0.7, 0, 0.3};
  sphere.radius = 0.1;
  EXPECT_THROW(ContactScene(spec_with({sphere}, {{}}), {box_body()}), std::invalid_argument);
  EXPECT_THROW(ContactScene(spec_with({ground(0.0)}, {{}}), {box_body()}), std::invalid_argument);
  // Wholly below the ground: a plane bounds a half-space, so this is inside it.
  try {
    ContactScene(spec_with({ground(2.0)}, {{}}), {box_body()});
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("beyond the plane"), std::string::npos) << e.what();
  }
  // Wholly inside a box, whose centre is then inside the body: the body is what is inside.
  contact::Obstacle box;
  box.kind = contact::ObstacleKind::box;
  box.point = {0.7, 0, 0.3};
  box.half_extents = {1.0, 1.0, 1.0};
  try {
    ContactScene(spec_with({box}, {{}}), {box_body()});
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("starts inside the box obstacle 0"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(
      ContactScene(spec_with({}, {{}, {Eigen::Vector3d(0.5, 0, 0)}}), {box_body(), box_body()}),
      std::invalid_argument);
  // Nested: one body inside the other's surface, no sample near a triangle.
  sim::BoxModelOptions small = sim::test::small_box();
  small.lower = {0.5, -0.05, 0.25};
  small.upper = {0.7, 0.05, 0.35};
  EXPECT_THROW(
      ContactScene(spec_with({}, {{}, {}}), {box_body(), sim::make_box_model(small).model}),
      std::invalid_argument);
  sim::ReducedModel bare = box_body();
  bare.contact = contact::ContactSurface{};
  EXPECT_THROW(ContactScene(spec_with({}, {{}}), {bare}), std::invalid_argument);
}

// d_hat in the wrong unit (centimetres written as metres) is refused with the body's size.
TEST(ContactScene, RefusesAnActivationDistanceNearTheBodiesSize) {
  ContactSceneSpec spec = spec_with({ground(-1.0)}, {{}});
  spec.activation = 1.0;
  try {
    ContactScene(spec, {box_body()});
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "contact.activation_distance 1 m is more than 0.1 of the smallest body's size"),
              std::string::npos)
        << e.what();
  }
  spec.activation = 1e-3;
  EXPECT_NO_THROW(ContactScene(spec, {box_body()}));
}

// A sphere obstacle dragged half a metre into the floor stops on it (the page's Drop keeps it
// where it was drawn): obstacles do not touch each other, so the plane must hold it.
TEST(ContactScene, AnObstacleDraggedIntoTheFloorStaysOnIt) {
  contact::Obstacle sphere;
  sphere.kind = contact::ObstacleKind::sphere;
  sphere.point = {2.0, 0.0, 0.0};
  sphere.radius = 0.1;
  ContactScene scene(spec_with({ground(), sphere}, {{}}), {box_body()});
  scene.move_obstacle(1, Eigen::Vector3d(0.3, -0.5, 0.0));
  for (int step = 0; step < 5; ++step) ASSERT_TRUE(scene.step().ok);
  const contact::Obstacle& moved = scene.obstacles()[1];
  EXPECT_NEAR(moved.offset.x(), 0.3, 1e-12);  // along the floor it goes where it was dragged
  EXPECT_NEAR(contact::clearance_from_plane(scene.obstacles()[0], moved), 0.0, 1e-12);
  // What a hand cannot move, named (the thin bodies' hold_obstacle refuses the same).
  const auto refusal = [&](int o, const Eigen::Vector3d& offset) -> std::string {
    try {
      scene.move_obstacle(o, offset);
    } catch (const std::invalid_argument& error) {
      return error.what();
    }
    return "accepted";
  };
  EXPECT_EQ(refusal(0, Eigen::Vector3d::UnitY()),
            "obstacle 0 is a plane, which is not moved by hand");
  EXPECT_EQ(refusal(2, Eigen::Vector3d::UnitY()), "obstacle 2: there are 2");
  EXPECT_EQ(refusal(-1, Eigen::Vector3d::UnitY()), "no obstacle -1");
  EXPECT_NE(refusal(1, Eigen::Vector3d(0, 1e7, 0)).find("within 1000000 m"), std::string::npos);
  EXPECT_NE(refusal(1, Eigen::Vector3d(0, std::nan(""), 0)).find("finite"), std::string::npos);
  EXPECT_NEAR(scene.obstacles()[1].offset.x(), 0.3, 1e-12);  // refusals move nothing
}

TEST(ContactScene, SceneFileRefusesAKeyGivenTwice) {
  // nlohmann keeps the last of two: the scene ran with friction 0.9 and no word.
  try {
    parse_scene_text(R"({"bodies": [{}], "friction": 0.4, "friction": 0.9})", "scene.json");
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "scene.json: the key \"friction\" appears twice in one object");
  }
  try {
    parse_scene_text("{\"bodies\": [", "scene.json");
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("scene.json: invalid JSON: ", 0), 0u) << e.what();
  }
  EXPECT_EQ(parse_scene_text(R"({"bodies": [{"x": 1}, {"x": 2}]})", "scene.json")["bodies"].size(),
            2u);
}

TEST(ContactScene, SceneFileRefusesAbsurdValues) {
  const auto read = [](const char* text) {
    return read_contact_scene(nlohmann::json::parse(text), "scene.json");
  };
  EXPECT_NO_THROW(read(R"({"bodies": [{}], "obstacles": [{"type": "plane", "point": [0, 0, 0],
                           "normal": [0, 2, 0]}]})"));
  EXPECT_THROW(read(R"({"bodies": [{}], "contact": {"activation_distance": 0}})"),
               std::invalid_argument);
  // A barrier stiffer than any material froze the body at d_hat, every step reported ok.
  EXPECT_NO_THROW(read(R"({"bodies": [{}], "contact": {"stiffness": 1e13}})"));
  try {
    read(R"({"bodies": [{}], "contact": {"stiffness": 1e300}})");
    ADD_FAILURE() << "a barrier stiffness of 1e300 Pa was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(
        std::string(e.what()).find("contact.stiffness: must be positive and at most 1e+13 Pa"),
        std::string::npos)
        << e.what();
  }
  EXPECT_THROW(read(R"({"bodies": [{}], "friction": 1e9})"), std::invalid_argument);
  EXPECT_THROW(read(R"({"bodies": [{}], "friction": -1})"), std::invalid_argument);
  EXPECT_THROW(read(R"({"bodies": []})"), std::invalid_argument);
  EXPECT_THROW(read(R"({"bodies": [{}], "obstacles": [{"type": "cone"}]})"), std::invalid_argument);
  EXPECT_THROW(read(R"({"bodies": [{}], "obstacles": [{"type": "sphere", "center": [0, 0, 0],
                        "radius": -1}]})"),
               std::invalid_argument);
  EXPECT_THROW(read(R"({"bodies": [{}], "timestep": -1})"), std::invalid_argument);
  // Messages in the key's own terms: a velocity in m/s, an obstacle named without a stray dot.
  const auto refusal_of = [&](const char* text) {
    try {
      read(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal_of(R"({"bodies": [{"velocity": [2e6, 0, 0]}]})"),
            "scene.json: bodies[0].velocity: is beyond 1000000 m/s");
  EXPECT_EQ(refusal_of(R"({"bodies": [{"asset": "a.smfem", "recipe": "a.json"}]})"),
            "scene.json: bodies[0].asset: a body has an \"asset\" or a \"recipe\", not both");
  EXPECT_EQ(refusal_of(R"({"bodies": [{}], "obstacles": [{"type": "sphere", "center": [0, 0, 0],
                         "radius": -1}]})")
                .rfind("scene.json: obstacles[0]: ", 0),
            0u);
  // Beyond the solver's range: each body's solver clamped it while the scene's clock kept it.
  try {
    read(R"({"bodies": [{}], "timestep": 0.5})");
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("timestep: must lie in [1e-05, 0.1] s, not 0.5"),
              std::string::npos)
        << e.what();
  }
  EXPECT_DOUBLE_EQ(read(R"({"bodies": [{}], "timestep": 0.1})").timestep, 0.1);
  // Gravity's length within the solver's range (solver_limits.json), in its own unit.
  try {
    read(R"({"bodies": [{}], "gravity": [0, -1e12, 0]})");
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("gravity: must be at most 1000 m/s^2 long, not 1e+12"),
              std::string::npos)
        << e.what();
  }
  EXPECT_DOUBLE_EQ(read(R"({"bodies": [{}], "gravity": [0, -1000, 0]})").gravity.y(), -1000.0);
  EXPECT_THROW(read(R"({"bodies": [{"translation": [0, 1e300, 0]}]})"), std::invalid_argument);
  EXPECT_THROW(read(R"({"bodies": [{"localDeformations": "yes"}]})"), std::invalid_argument);
  EXPECT_TRUE(read(R"({"bodies": [{"localDeformations": true}]})").bodies[0].local_deformations);
  EXPECT_FALSE(read(R"({"bodies": [{}]})").bodies[0].local_deformations);
  // A key the format does not have is named, with the keys that belong there.
  for (const auto& [text, key] :
       {std::pair{R"({"bodies": [{}], "obstacels": []})", "obstacels"},
        std::pair{R"({"bodies": [{"recipe": "a.json", "transaltion": [0, 0, 0]}]})",
                  "bodies[0].transaltion"},
        std::pair{R"({"bodies": [{}], "contact": {"dhat": 1}})", "contact.dhat"},
        std::pair{R"({"bodies": [{}], "obstacles": [{"type": "sphere", "center": [0, 0, 0],
                      "radius": 1, "normal": [0, 1, 0]}]})",
                  "obstacles[0].normal"}}) {
    try {
      read(text);
      ADD_FAILURE() << key;
    } catch (const std::invalid_argument& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(key), std::string::npos) << message;
      EXPECT_NE(message.find("the keys are"), std::string::npos) << message;
    }
  }
  try {
    read(R"({"bodies": [{}], "contact": {"activation_distance": -1}})");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("activation_distance"), std::string::npos);
  }
}

}  // namespace
}  // namespace smfem::multibody
