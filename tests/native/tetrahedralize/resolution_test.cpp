#include "smfem/tetrahedralize/resolution.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "smfem/tetrahedralize/regions.hpp"

namespace smfem::tetrahedralize {
namespace {

using Eigen::Vector3d;

TEST(Resolution, VolumeEstimateAndTetCountTarget) {
  const geometry::Sdf shape =
      geometry::unite({geometry::box(Vector3d::Zero(), Vector3d(1, 0.5, 0.5)),
                       geometry::capsule(Vector3d(1, 0, 0), Vector3d(1, 1, 0), 0.3)});
  const double box_volume = 2.0 * 1.0 * 1.0;
  const double volume = estimate_volume(shape);
  EXPECT_GT(volume, box_volume);
  EXPECT_LT(volume, box_volume + 3.14159 * 0.09 * 1.0 + 4.0 / 3.0 * 3.14159 * 0.027);
  EXPECT_NEAR(estimate_volume(geometry::box(Vector3d(3, 2, 1), Vector3d(1, 2, 3))), 48.0, 0.5);

  for (double target : {2000.0, 20000.0}) {
    StuffingOptions options;
    const mesh::TetMesh mesh = stuff_to_tet_count(shape, target, 0.1, options);
    EXPECT_NEAR(static_cast<double>(mesh.tets.rows()), target, 0.1 * target);
  }
  EXPECT_NEAR(estimate_tet_count(2.0, 0.1), 24000.0, 1e-9);
  EXPECT_NEAR(edge_length_for_tet_count(2.0, 24000.0), 0.1, 1e-12);
}

TEST(Regions, ByCentroid) {
  StuffingOptions options;
  options.edge_length = 0.2;
  mesh::TetMesh mesh =
      stuff_isosurface(geometry::box(Vector3d::Zero(), Vector3d(1, 1, 1)), options);
  const geometry::Points centroids = tet_centroids(mesh);
  ASSERT_EQ(centroids.rows(), mesh.tets.rows());
  EXPECT_TRUE(centroids.row(0).isApprox(
      0.25 * (mesh.vertices.row(mesh.tets(0, 0)) + mesh.vertices.row(mesh.tets(0, 1)) +
              mesh.vertices.row(mesh.tets(0, 2)) + mesh.vertices.row(mesh.tets(0, 3)))));
  assign_regions(mesh, [](const Vector3d& c) { return c.x() < 0 ? 7 : 3; });
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    EXPECT_EQ(mesh.regions[t], centroids(t, 0) < 0 ? 7 : 3);
  }
  EXPECT_GT((mesh.regions.array() == 7).count(), 0);
  EXPECT_GT((mesh.regions.array() == 3).count(), 0);
}

}  // namespace
}  // namespace smfem::tetrahedralize
