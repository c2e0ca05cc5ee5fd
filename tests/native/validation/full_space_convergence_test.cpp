// The subspace solution approaches the full-space one as the subspace grows (paper 000, §4-5;
// the full-space reference is wasm/src/smfem/full/): a cantilever pinned at one end sags under
// gravity (large implicit Euler steps, so it settles); the same recipe baked with growing m and |C|
// gives the same tet mesh (the full-space model) and the skinning subspaces. Every run is converged
// at every step, so the differences are the subspace's and the cubature's, not the solver's. Two
// separate limits: with exact integration (every tet a cubature tet) the error to the full-space
// solution falls as m grows; at fixed m the error to the exactly integrated subspace solution falls
// as |C| grows (few clusters under-integrate and soften the body, paper 000 Fig. 14). Every figure
// is printed.
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "smfem/full/full_simulator.hpp"
#include "smfem/sim/simulator.hpp"
#include "validation/baked_model.hpp"

namespace smfem::sim {
namespace {

constexpr int kSagSteps = 30;  // 3 s of 0.1 s steps: the bar settles into its sag
constexpr int kSagThreads = 2;

nlohmann::json cantilever(int modes, int cubature) {
  const auto box = [](double x, double half_x, double half_yz) {
    return nlohmann::json{
        {"box", {{"center", {x, 0.0, 0.0}}, {"half_extents", {half_x, half_yz, half_yz}}}}};
  };
  return {
      {"name", "cantilever"},
      {"description", "A bar pinned at its left end."},
      {"geometry", box(0.0, 0.3, 0.05)},
      {"resolution", {{"target_tets", 1500}}},
      {"materials", {{{"name", "bar"}, {"youngs", 2e6}, {"poisson", 0.4}, {"density", 1000}}}},
      {"pins", {{{"where", box(-0.3, 0.01, 1.0)}}}},
      {"subspace", {{"modes", modes}, {"cubature", cubature}}},
      {"solver",
       {{"method", "mfem"},
        {"iterations", 2},
        {"timestep", 0.1},
        {"gravity", {0.0, -9.8, 0.0}},
        {"material_model", "fcr"}}},
  };
}

SolverSettings converging(const SolverSettings& defaults) {
  SolverSettings settings = defaults;
  settings.iterations = 200;
  settings.until_converged = true;
  settings.relative_tolerance = 1e-8;
  settings.absolute_tolerance = 1e-20;
  return settings;
}

std::string describe(const StepStats& stats) {
  return std::to_string(stats.iterations) + " iterations, decrement " +
         std::to_string(stats.first_decrement) + " -> " + std::to_string(stats.decrement);
}

// Vertex displacements (n x 3) per step.
using VertexTrajectory = std::vector<Eigen::MatrixXd>;

VertexTrajectory run_full_space(const full::FullModel& model) {
  full::FullSimulator simulator(model, converging(model.defaults), kSagThreads);
  VertexTrajectory out;
  for (int step = 0; step < kSagSteps; ++step) {
    const full::FullStepReport& report = simulator.step();
    EXPECT_TRUE(report.ok && report.stats.converged)
        << "full space, step " << step << ": " << describe(report.stats);
    out.push_back(simulator.displacements());
  }
  return out;
}

VertexTrajectory run_subspace(const test::BakedScene& scene) {
  Simulator simulator(scene.reduced, converging(scene.reduced.defaults), kSagThreads);
  VertexTrajectory out;
  for (int step = 0; step < kSagSteps; ++step) {
    const StepReport& report = simulator.step();
    EXPECT_TRUE(report.ok && report.stats.converged)
        << "m = " << scene.reduced.mode_count() << ", |C| = " << scene.reduced.cubature_count()
        << ", step " << step << ": " << describe(report.stats);
    out.push_back(scene.vertex_basis * simulator.coordinates());  // row v: U^T b_v
  }
  return out;
}

// sqrt(sum over steps and vertices of m_v |a - b|^2 / sum m_v |b|^2).
double relative_error(const VertexTrajectory& a, const VertexTrajectory& b,
                      const Eigen::VectorXd& mass) {
  double difference = 0.0, norm = 0.0;
  for (std::size_t step = 0; step < b.size(); ++step) {
    difference += (mass.asDiagonal() * (a[step] - b[step]).rowwise().squaredNorm()).sum();
    norm += (mass.asDiagonal() * b[step].rowwise().squaredNorm()).sum();
  }
  return std::sqrt(difference / norm);
}

double tip_sag(const VertexTrajectory& trajectory) { return -trajectory.back().col(1).minCoeff(); }

struct Baked {
  test::BakedScene scene;
  VertexTrajectory trajectory;
};

// Bakes (and runs) each (m, |C|) once for both tests; |C| = 0 means every tet.
const Baked& baked(int modes, int cubature) {
  static std::map<std::pair<int, int>, Baked> cache;
  const auto key = std::pair{modes, cubature};
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  const int tets = cubature == 0 ? baked(4, 40).scene.full.tet_count() : cubature;
  test::BakedScene scene = test::bake_scene(
      "cantilever-" + std::to_string(modes) + "-" + std::to_string(tets), cantilever(modes, tets));
  VertexTrajectory trajectory = run_subspace(scene);
  return cache.emplace(key, Baked{std::move(scene), std::move(trajectory)}).first->second;
}

const full::FullModel& mesh() { return baked(4, 40).scene.full; }

const Eigen::VectorXd& vertex_mass() {
  static const Eigen::VectorXd mass = full::lumped_vertex_mass(mesh());
  return mass;
}

const VertexTrajectory& full_space() {
  static const VertexTrajectory trajectory = run_full_space(mesh());
  return trajectory;
}

TEST(FullSpaceConvergence, WithExactIntegrationTheSubspaceApproachesTheFullSpaceAsModesGrow) {
  std::printf("cantilever: %d tets, %d vertices; full-space tip sag %.4f m\n", mesh().tet_count(),
              mesh().vertex_count(), tip_sag(full_space()));
  ASSERT_GT(tip_sag(full_space()), 0.02) << "the bar should bend visibly";
  std::vector<double> errors;
  for (const int modes : {4, 8, 16}) {
    const Baked& subspace = baked(modes, 0);
    ASSERT_EQ(subspace.scene.full.positions, mesh().positions) << "the same mesh every time";
    errors.push_back(relative_error(subspace.trajectory, full_space(), vertex_mass()));
    std::printf("  m = %2d, every tet: error to the full space %.4f, tip sag %.4f m\n", modes,
                errors.back(), tip_sag(subspace.trajectory));
  }
  EXPECT_LT(errors[1], 0.7 * errors[0]);
  EXPECT_LT(errors[2], 0.7 * errors[1]);
  EXPECT_LT(errors[2], 0.12);
}

TEST(FullSpaceConvergence, AtFixedModesTheCubatureApproachesExactIntegrationAsClustersGrow) {
  const VertexTrajectory& exact = baked(16, 0).trajectory;
  std::vector<double> errors;
  for (const int clusters : {240, 480, 960}) {
    const Baked& subspace = baked(16, clusters);
    ASSERT_EQ(subspace.scene.full.positions, mesh().positions) << "the same mesh every time";
    errors.push_back(relative_error(subspace.trajectory, exact, vertex_mass()));
    std::printf("  m = 16, |C| = %4d: error to exact integration %.4f, tip sag %.4f m\n", clusters,
                errors.back(), tip_sag(subspace.trajectory));
  }
  EXPECT_LT(errors[1], 0.7 * errors[0]);
  EXPECT_LT(errors[2], 0.7 * errors[1]);
}

}  // namespace
}  // namespace smfem::sim
