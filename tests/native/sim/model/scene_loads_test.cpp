// The scene's baked loads at run time (scene_loads.hpp): read from an asset and refused when
// broken, the anchor springs' energy derivatives, and their physics in the stepper: a pull
// carries the body to its target and lets go at the release time, a periodic acceleration
// changes the momentum by exactly its impulse. The loads are built here from the test mesh's
// vertices with the bake's formulas (assets/FORMAT.md), independently of the bake tool.
#include "smfem/sim/model/scene_loads.hpp"

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "sim/test_model.hpp"
#include "smfem/asset/asset.hpp"
#include "smfem/sim/simulator.hpp"
#include "smfem/sim/step/dynamics.hpp"

namespace smfem::sim {
namespace {

using test::kThreads;

// Zero-length springs from every vertex with rest x >= x_min to rest + offset.
SceneLoad pull_load(const BoxModel& box, double x_min, const Eigen::Vector3d& offset,
                    double stiffness, double release) {
  const Eigen::Index n = box.basis.cols();
  SceneLoad load;
  load.kind = SceneLoad::Kind::springs;
  load.stiffness = stiffness;
  load.release = release;
  load.mass_vector.setZero(n);
  load.mass_block.setZero(n, n);
  load.rest_offset.setZero(n, 3);
  for (Eigen::Index v = 0; v < box.basis.rows(); ++v) {
    if (box.rest(v, 0) < x_min) continue;
    const Eigen::VectorXd b = box.basis.row(v).transpose();
    load.mass_vector += box.vertex_mass(v) * b;
    load.mass_block += box.vertex_mass(v) * b * b.transpose();
    load.rest_offset += box.vertex_mass(v) * b * offset.transpose();
  }
  return load;
}

SceneLoad periodic_load(const BoxModel& box, double amplitude, double frequency) {
  SceneLoad load;
  load.kind = SceneLoad::Kind::periodic;
  load.mass_vector = box.model.mass_vector;  // the whole body
  load.amplitude = amplitude;
  load.frequency = frequency;
  load.direction = Eigen::Vector3d(0.0, 0.0, 1.0);
  return load;
}

SolverSettings weightless(double timestep) {
  SolverSettings settings;
  settings.timestep = timestep;
  settings.gravity.setZero();
  settings.until_converged = true;
  settings.iterations = 100;
  settings.relative_tolerance = 1e-10;
  settings.absolute_tolerance = 1e-24;
  return settings;
}

asset::Asset as_asset(const ReducedModel& model) {
  return asset::Asset::from_bytes(reduced_model_asset_bytes(model), "loads.smfem");
}

TEST(SceneLoads, RoundTripThroughAnAsset) {
  BoxModel box = make_box_model({.mode_count = 3});
  box.model.loads = {periodic_load(box, 2.5, 1.5),
                     pull_load(box, 0.7, Eigen::Vector3d(0.1, 0.0, 0.0), 40.0, 1.25)};
  const ReducedModel read = load_reduced_model(as_asset(box.model));
  ASSERT_EQ(read.loads.size(), 2u);
  EXPECT_EQ(read.loads[0].kind, SceneLoad::Kind::periodic);
  EXPECT_EQ(read.loads[0].mass_vector, box.model.loads[0].mass_vector);
  EXPECT_EQ(read.loads[0].amplitude, 2.5);
  EXPECT_EQ(read.loads[0].frequency, 1.5);
  EXPECT_EQ(read.loads[0].direction, Eigen::Vector3d(0.0, 0.0, 1.0));
  EXPECT_EQ(read.loads[1].kind, SceneLoad::Kind::springs);
  EXPECT_EQ(read.loads[1].stiffness, 40.0);
  EXPECT_EQ(read.loads[1].release, 1.25);
  EXPECT_EQ(read.loads[1].mass_block, box.model.loads[1].mass_block);
  EXPECT_EQ(read.loads[1].rest_offset, box.model.loads[1].rest_offset);
}

// The error of loading the box model with meta "forces" = `forces` and no force.* section.
std::string load_error(const BoxModel& box, const nlohmann::json& forces) {
  try {
    load_reduced_model(asset::Asset::from_bytes(
        reduced_model_asset_bytes(box.model, {{"forces", forces}}), "loads.smfem"));
  } catch (const asset::AssetError& error) {
    return error.what();
  }
  return "";
}

TEST(SceneLoads, BrokenEntriesAreRefusedNamingTheProblem) {
  const BoxModel box = make_box_model({.mode_count = 3});
  EXPECT_NE(load_error(box, {{{"kind", "spin"}}}).find("forces[0]: kind \"spin\""),
            std::string::npos);
  // The meta names a force whose sections the file does not have.
  EXPECT_NE(load_error(box, {{{"kind", "pull"}, {"stiffness", 1.0}}}).find("force.0.mass_vector"),
            std::string::npos);
  EXPECT_NE(load_error(box, {{{"kind", "periodic"},
                              {"amplitude", 1.0},
                              {"frequency", 1.0},
                              {"direction", {0, 0, 0}}}})
                .find("direction must be a nonzero vector"),
            std::string::npos);
  EXPECT_NE(load_error(box, {{{"kind", "pull"}, {"stiffness", -3.0}}}).find("stiffness"),
            std::string::npos);
  EXPECT_NE(load_error(box, nlohmann::json::object()).find("forces is not an array"),
            std::string::npos);
}

TEST(SceneLoads, AnchorGradientAndCurvatureMatchTheEnergy) {
  const BoxModel box = make_box_model({.mode_count = 3});
  const SceneLoad load = pull_load(box, 0.5, Eigen::Vector3d(0.1, -0.2, 0.05), 30.0, 1.0);
  Dynamics dynamics(box.model.mass_block, 0.01);
  Eigen::MatrixXd block;
  ReducedMatrix pull;
  ASSERT_TRUE(active_anchors({load}, 0.0, block, pull));
  dynamics.set_anchors(block, pull);
  const int n = 4 * box.model.mode_count();
  dynamics.begin_step(ReducedMatrix::Zero(n, 3), ReducedMatrix::Zero(n, 3),
                      ReducedMatrix::Zero(n, 3));
  const ReducedMatrix U = test::random_reduced(3, 0.05, 7u);
  const ReducedMatrix dU = test::random_reduced(3, 0.05, 8u);
  ReducedMatrix gradient(n, 3);
  dynamics.gradient(U, gradient);
  const double step = 1e-5;
  const double slope =
      (dynamics.energy(U + step * dU) - dynamics.energy(U - step * dU)) / (2 * step);
  EXPECT_NEAR(gradient.cwiseProduct(dU).sum(), slope, 1e-7 * std::abs(slope));
  const double second =
      (dynamics.energy(U + step * dU) - 2.0 * dynamics.energy(U) + dynamics.energy(U - step * dU)) /
      (step * step);
  EXPECT_NEAR(dynamics.curvature(dU), second, 1e-4 * std::abs(second));
  // And the spring energy itself, summed over the vertices, up to its constant.
  const Eigen::MatrixXd x = box.basis * U;  // displacements
  const auto spring_energy = [&](const Eigen::MatrixXd& displacement) {
    double sum = 0.0;
    for (Eigen::Index v = 0; v < x.rows(); ++v) {
      if (box.rest(v, 0) < 0.5) continue;
      sum += 0.5 * 30.0 * box.vertex_mass(v) *
             (displacement.row(v) - Eigen::RowVector3d(0.1, -0.2, 0.05)).squaredNorm();
    }
    return sum;
  };
  Dynamics anchors_only(box.model.mass_block, 1e6);  // inertia ~ 0
  anchors_only.set_anchors(block, pull);
  anchors_only.begin_step(ReducedMatrix::Zero(n, 3), ReducedMatrix::Zero(n, 3),
                          ReducedMatrix::Zero(n, 3));
  const double constant = spring_energy(Eigen::MatrixXd::Zero(x.rows(), 3));
  EXPECT_NEAR(anchors_only.energy(U) + constant, spring_energy(x), 1e-9 * constant);
}

TEST(SceneLoads, APullCarriesTheBodyToItsTargetThenLetsGoAtRelease) {
  BoxModel box = make_box_model({.mode_count = 3});
  const Eigen::Vector3d offset(0.05, 0.02, 0.0);
  // Every vertex pulled by the same offset: the equilibrium is that translation, exactly.
  box.model.loads = {pull_load(box, -1e9, offset, 400.0, 1e9)};
  Simulator held(box.model, weightless(0.05), kThreads);
  for (int step = 0; step < 200; ++step) ASSERT_TRUE(held.step().ok);
  const Eigen::Vector3d moved = held.diagnostics().centroid - box.model.rest_centroid;
  EXPECT_LT((moved - offset).norm(), 1e-6 * offset.norm()) << moved.transpose();

  // Released at 0.1 s, it keeps the momentum it had (no gravity, no other force).
  box.model.loads[0].release = 0.1;
  Simulator released(box.model, weightless(0.01), kThreads);
  Eigen::Vector3d momentum_at_release = Eigen::Vector3d::Zero();
  for (int step = 1; step <= 40; ++step) {
    ASSERT_TRUE(released.step().ok);
    const Eigen::Vector3d momentum = released.diagnostics().linear_momentum;
    if (step == 11) momentum_at_release = momentum;  // the first step ending after 0.1 s
    if (step > 11) {
      EXPECT_LT((momentum - momentum_at_release).norm(), 1e-8 * momentum_at_release.norm())
          << "step " << step;
    }
  }
  EXPECT_GT(momentum_at_release.x(), 0.0);
}

TEST(SceneLoads, APeriodicAccelerationChangesTheMomentumByItsImpulse) {
  BoxModel box = make_box_model({.mode_count = 3});
  const double amplitude = 3.0, frequency = 2.0, h = 0.01;
  box.model.loads = {periodic_load(box, amplitude, frequency)};
  Simulator simulator(box.model, weightless(h), kThreads);
  Eigen::Vector3d previous = Eigen::Vector3d::Zero();
  for (int step = 1; step <= 50; ++step) {
    ASSERT_TRUE(simulator.step().ok);
    const Eigen::Vector3d momentum = simulator.diagnostics().linear_momentum;
    // Implicit Euler: p_{n+1} - p_n = h f(t_{n+1}), f = M a(t) for a uniform acceleration.
    const double expected = h * box.model.total_mass * amplitude *
                            std::sin(2.0 * 3.14159265358979323846 * frequency * step * h);
    EXPECT_NEAR(momentum.z() - previous.z(), expected, 1e-9 * box.model.total_mass)
        << "step " << step;
    EXPECT_NEAR(momentum.x(), 0.0, 1e-9 * box.model.total_mass);
    previous = momentum;
  }
}

}  // namespace
}  // namespace smfem::sim
