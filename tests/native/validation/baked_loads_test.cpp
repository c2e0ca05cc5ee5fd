// The recipes' forces (assets/scenes/README.md) as the stepper applies them after a real bake:
// signs and conventions from the recipe to the asset to the step (the unit tests of
// scene_loads.hpp check the algebra on hand-built loads).
#include <cmath>

#include <gtest/gtest.h>

#include "smfem/sim/simulator.hpp"
#include "validation/baked_model.hpp"

namespace smfem::sim {
namespace {

nlohmann::json bar_recipe(const nlohmann::json& force, const nlohmann::json& pins) {
  return {
      {"name", "bar"},
      {"description", "A bar with one force."},
      {"geometry", {{"box", {{"center", {0, 0, 0}}, {"half_extents", {0.3, 0.05, 0.05}}}}}},
      {"resolution", {{"target_tets", 1500}}},
      {"materials", {{{"name", "rubber"}, {"youngs", 1e5}, {"poisson", 0.4}, {"density", 1000}}}},
      {"pins", pins},
      {"forces", {force}},
      {"subspace", {{"modes", 6}, {"cubature", 60}}},
      {"solver",
       {{"method", "mfem"},
        {"iterations", 4},
        {"timestep", 0.01},
        {"gravity", {0, 0, 0}},
        {"material_model", "fcr"}}},
  };
}

nlohmann::json end_region(double x) {
  return {{"box", {{"center", {x, 0, 0}}, {"half_extents", {0.05, 0.2, 0.2}}}}};
}

TEST(BakedLoads, ATwistTurnsItsRegionTheRightWayUntilReleased) {
  const nlohmann::json twist = {{"twist",
                                 {{"where", end_region(0.3)},
                                  {"center", {0.3, 0, 0}},
                                  {"axis", {1, 0, 0}},
                                  {"angle_deg", 90},
                                  {"stiffness", 200},
                                  {"release", 0.2}}}};
  const ReducedModel model =
      test::bake_recipe("twist", bar_recipe(twist, {{{"where", end_region(-0.3)}}}));
  ASSERT_EQ(model.loads.size(), 1u);
  EXPECT_EQ(model.loads[0].release, 0.2);
  SolverSettings settings = model.defaults;
  settings.until_converged = true;
  settings.iterations = 100;
  settings.relative_tolerance = 1e-10;
  Simulator simulator(model, settings, 2);
  // Right-handed about +x: the twisted end starts spinning with positive angular momentum, far
  // more about the bar's axis than about the others (which only the mesh's asymmetry feeds;
  // measured: about a fifth).
  for (int step = 0; step < 5; ++step) ASSERT_TRUE(simulator.step().ok);
  const Eigen::Vector3d L = simulator.diagnostics().angular_momentum;
  EXPECT_GT(L.x(), 3.0 * L.tail<2>().norm()) << L.transpose();
  // The springs do work until 0.2 s; then the bar swings freely and implicit Euler only
  // dissipates.
  double energy = simulator.diagnostics().total_energy;
  for (int step = 5; step < 40; ++step) {
    ASSERT_TRUE(simulator.step().ok);
    const double next = simulator.diagnostics().total_energy;
    if (simulator.time() <= 0.2) {
      EXPECT_GT(next, energy) << "step " << step << " (the springs pull)";
    } else if (simulator.time() > 0.21) {
      EXPECT_LE(next, energy * (1.0 + 1e-9)) << "step " << step << " (released)";
    }
    energy = next;
  }
}

TEST(BakedLoads, APeriodicForcePushesAFreeBodyAlongItsDirection) {
  const nlohmann::json periodic = {
      {"periodic",
       {{"where", {{"box", {{"center", {0, 0, 0}}, {"half_extents", {1, 1, 1}}}}}},
        {"amplitude", 5.0},
        {"frequency", 2.0},
        {"direction", {0, 0, 2}}}}};
  const ReducedModel model =
      test::bake_recipe("periodic", bar_recipe(periodic, nlohmann::json::array()));
  Simulator simulator(model, 2);
  // A quarter period (0.125 s): the impulse h sum M a sin(2 pi f t_n), all along +z.
  double expected = 0.0;
  for (int step = 1; step <= 12; ++step) {
    ASSERT_TRUE(simulator.step().ok);
    expected +=
        0.01 * model.total_mass * 5.0 * std::sin(2.0 * 3.14159265358979323846 * 2.0 * 0.01 * step);
  }
  const Eigen::Vector3d momentum = simulator.diagnostics().linear_momentum;
  EXPECT_NEAR(momentum.z(), expected, 1e-6 * expected);
  EXPECT_NEAR(momentum.x(), 0.0, 1e-6 * expected);
}

}  // namespace
}  // namespace smfem::sim
