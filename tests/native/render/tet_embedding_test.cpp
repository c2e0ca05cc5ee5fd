#include "smfem/render/tet_embedding.hpp"

#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "smfem/geometry/point_triangle.hpp"
#include "smfem/geometry/sdf.hpp"
#include "smfem/render/boundary_surface.hpp"
#include "smfem/tetrahedralize/isosurface_stuffing.hpp"

namespace smfem::render {
namespace {

using Eigen::Vector3d;

mesh::TetMesh stuffed_sphere() {
  tetrahedralize::StuffingOptions options;
  options.edge_length = 0.25;
  return tetrahedralize::stuff_isosurface(
      geometry::capsule(Vector3d::Zero(), Vector3d::Zero(), 1.0), options);
}

Vector3d reproduced(const mesh::TetMesh& m, const TetEmbedding& e, Eigen::Index i) {
  Vector3d p = Vector3d::Zero();
  for (int k = 0; k < 4; ++k) {
    p += e.barycentric(i, k) * m.vertices.row(m.tets(e.tet[i], k)).transpose();
  }
  return p;
}

TEST(TetEmbedding, InsidePointsGetTheirTetAndExactCoordinates) {
  const mesh::TetMesh m = stuffed_sphere();
  std::mt19937 rng(8);
  std::normal_distribution<double> n(0, 1);
  std::uniform_real_distribution<double> u(0, 0.9);
  geometry::Points points(500, 3);
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    points.row(i) = (Vector3d(n(rng), n(rng), n(rng)).normalized() * u(rng)).transpose();
  }
  const TetEmbedding e = embed_points(m, points);
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    EXPECT_NEAR(e.barycentric.row(i).sum(), 1.0, 1e-12);
    EXPECT_GE(e.barycentric.row(i).minCoeff(), -1e-9);
    EXPECT_LE(e.barycentric.row(i).maxCoeff(), 1.0 + 1e-9);
    EXPECT_EQ(e.distance[i], 0.0);
    EXPECT_LT((reproduced(m, e, i) - points.row(i).transpose()).norm(), 1e-12);
  }
  // The mesh's own vertices sit on tet corners.
  const TetEmbedding corners = embed_points(m, m.vertices.topRows(50));
  for (Eigen::Index i = 0; i < 50; ++i) {
    EXPECT_NEAR(corners.barycentric.row(i).maxCoeff(), 1.0, 1e-9);
  }
}

TEST(TetEmbedding, OutsidePointsUseTheNearestTetAndStillReproduce) {
  const mesh::TetMesh m = stuffed_sphere();
  geometry::Points points(3, 3);
  points << 1.02, 0, 0, 0, -1.03, 0.01, 0.6, 0.6, 0.6;  // just beyond the sphere
  const TetEmbedding e = embed_points(m, points);
  const BoundarySurface boundary = boundary_surface(m);
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    EXPECT_GT(e.distance[i], 0.0);
    EXPECT_LT(e.distance[i], 0.1);
    EXPECT_LT(e.barycentric.row(i).minCoeff(), 0.0);  // extrapolated
    EXPECT_LT((reproduced(m, e, i) - points.row(i).transpose()).norm(), 1e-12);
    // The chosen tet is at the mesh's distance: the nearest boundary face, by brute force.
    double nearest = 1e300;
    for (Eigen::Index f = 0; f < boundary.triangles.rows(); ++f) {
      const auto corner = [&](int k) -> Vector3d {
        return boundary.vertices.row(boundary.triangles(f, k)).transpose();
      };
      const Vector3d p = points.row(i).transpose();
      nearest = std::min(
          nearest,
          (geometry::closest_point_on_triangle(p, corner(0), corner(1), corner(2)) - p).norm());
    }
    EXPECT_NEAR(e.distance[i], nearest, 1e-12);
  }
}

}  // namespace
}  // namespace smfem::render
