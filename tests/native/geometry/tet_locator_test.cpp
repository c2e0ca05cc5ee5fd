// The tet a point sits in, on two tets sharing a face: inside, on the shared face, outside.
// (The bake's embedding runs it on whole meshes: tests/native/render/tet_embedding_test.cpp.)
#include "smfem/geometry/tet_locator.hpp"

#include <stdexcept>

#include <gtest/gtest.h>

namespace smfem::geometry {
namespace {

using Eigen::Vector3d;

struct TwoTets {
  TetLocator::Vertices vertices{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, -1}};
  TetLocator::Tets tets{{0, 1, 2, 3}, {0, 2, 1, 4}};  // sharing the face z = 0
};

Vector3d reproduced(const TwoTets& mesh, const TetLocator::Location& where) {
  Vector3d p = Vector3d::Zero();
  for (int k = 0; k < 4; ++k) {
    p += where.barycentric(k) * mesh.vertices.row(mesh.tets(where.tet, k)).transpose();
  }
  return p;
}

TEST(TetLocator, FindsTheTetHoldingAPointAndItsCoordinates) {
  const TwoTets mesh;
  const TetLocator locator(mesh.vertices, mesh.tets);
  const Vector3d above(0.2, 0.2, 0.3), below(0.2, 0.2, -0.3);
  EXPECT_EQ(locator.locate(above).tet, 0);
  EXPECT_EQ(locator.locate(below).tet, 1);
  for (const Vector3d& p : {above, below, Vector3d(0.2, 0.3, 0.0)}) {
    const TetLocator::Location where = locator.locate(p);
    EXPECT_EQ(where.distance, 0.0);
    EXPECT_NEAR(where.barycentric.sum(), 1.0, 1e-14);
    EXPECT_GE(where.barycentric.minCoeff(), -1e-9);
    EXPECT_LT((reproduced(mesh, where) - p).norm(), 1e-14);
  }
}

TEST(TetLocator, OutsideTakesTheNearestTetWithExtrapolatedCoordinates) {
  const TwoTets mesh;
  const TetLocator locator(mesh.vertices, mesh.tets);
  // 0.1 beyond the upper tet's slanted face x + y + z = 1, above the plane z = 0.
  const Vector3d p = Vector3d(0.2, 0.2, 0.6) + 0.1 * Vector3d::Ones().normalized();
  const TetLocator::Location where = locator.locate(p);
  EXPECT_EQ(where.tet, 0);
  EXPECT_NEAR(where.distance, 0.1, 1e-12);
  EXPECT_LT(where.barycentric.minCoeff(), 0.0);
  EXPECT_LT((reproduced(mesh, where) - p).norm(), 1e-14);
}

TEST(TetLocator, RefusesAMeshWithoutTets) {
  const TetLocator::Vertices vertices{{0, 0, 0}};
  const TetLocator::Tets tets(0, 4);
  EXPECT_THROW(TetLocator(vertices, tets), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::geometry
