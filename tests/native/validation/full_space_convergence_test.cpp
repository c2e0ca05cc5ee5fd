// The subspace solution approaches the full-space one as the subspace grows (Subspace MFEM,
// Trusty et al. 2023, §4-5; the full-space reference is wasm/src/smfem/full/): a cantilever pinned
// at one end sags under gravity (large implicit Euler steps, so it settles); the same recipe baked
// with growing m and |C| gives the same tet mesh (the full-space model) and the skinning subspaces.
// Every run is converged at every step, so the differences are the subspace's and the cubature's,
// not the solver's. Two separate limits: with exact integration (every tet a cubature tet) the
// error to the full-space solution falls as m grows; at fixed m the error to the exactly integrated
// subspace solution falls as |C| grows (few clusters under-integrate and soften the body,
// Trusty et al. 2023, Fig. 14). Every figure is printed.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "smfem/config.hpp"
#include "smfem/study/subspace_study.hpp"

namespace smfem {
namespace {

using study::relative_error;
using study::tip_sag;

constexpr int kSagSteps = 30;  // 3 s of 0.1 s steps: the bar settles into its sag
constexpr int kSagThreads = 2;

// The report's cantilever (assets/scenes/report/cantilever.json) at m modes and |C| clusters.
study::BakedScene cantilever(int modes, int cubature) {
  bake::BakeSettings settings;
  settings.modes = modes;
  settings.cubature = cubature;
  return study::bake_scene(
      std::filesystem::path(config::source_dir) / "assets/scenes/report/cantilever.json", settings);
}

// The study runs converge every step; say so in the test's terms.
study::VertexTrajectory converged(study::StudyRun run, const std::string& what) {
  EXPECT_TRUE(run.converged) << what << ": a step did not converge";
  return std::move(run.trajectory);
}

struct Baked {
  study::BakedScene scene;
  study::VertexTrajectory trajectory;
};

// Bakes (and runs) each (m, |C|) once for both tests; |C| = 0 means every tet.
const Baked& baked(int modes, int cubature) {
  static std::map<std::pair<int, int>, Baked> cache;
  const auto key = std::pair{modes, cubature};
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  const int tets = cubature == 0 ? baked(4, 40).scene.full.tet_count() : cubature;
  const std::string name = "cantilever-" + std::to_string(modes) + "-" + std::to_string(tets);
  study::BakedScene scene = cantilever(modes, tets);
  study::VertexTrajectory trajectory =
      converged(study::run_subspace(scene, kSagSteps, kSagThreads), name);
  return cache.emplace(key, Baked{std::move(scene), std::move(trajectory)}).first->second;
}

const full::FullModel& mesh() { return baked(4, 40).scene.full; }

const Eigen::VectorXd& vertex_mass() {
  static const Eigen::VectorXd mass = full::lumped_vertex_mass(mesh());
  return mass;
}

const study::VertexTrajectory& full_space() {
  static const study::VertexTrajectory trajectory =
      converged(study::run_full_space(mesh(), kSagSteps, kSagThreads), "full space");
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
  const study::VertexTrajectory& exact = baked(16, 0).trajectory;
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
}  // namespace smfem
