#include "smfem/subspace/lumped_mass.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

#include "subspace/box_mesh.hpp"

namespace smfem::subspace {
namespace {

TEST(LumpedMass, VolumesFillTheBox) {
  const mesh::TetMesh box = test::box_mesh({3, 2, 4}, {1.5, 0.5, 2.0});
  const Eigen::VectorXd volumes = tet_rest_volumes(box);
  ASSERT_EQ(volumes.size(), box.tets.rows());
  EXPECT_GT(volumes.minCoeff(), 0.0);
  EXPECT_NEAR(volumes.sum(), 1.5 * 0.5 * 2.0, 1e-12);
}

TEST(LumpedMass, EachTetGivesAQuarterOfItsMassToEachCorner) {
  const mesh::TetMesh box = test::box_mesh({2, 2, 2}, {1.0, 1.0, 1.0});
  // Two materials: the half x < 0.5 is ten times denser.
  Eigen::VectorXd density(box.tets.rows());
  for (Eigen::Index t = 0; t < box.tets.rows(); ++t) {
    density(t) = test::tet_centroid(box, t).x() < 0.5 ? 10000.0 : 1000.0;
  }
  const Eigen::VectorXd mass = lumped_mass(box, density);
  EXPECT_NEAR(mass.sum(), 0.5 * 10000.0 + 0.5 * 1000.0, 1e-9);
  // Every Kuhn tet joins its cube's lowest and highest corners: the box corner (0,0,0) lies in
  // all six tets (1/48 of the unit box each) of a heavy cube.
  EXPECT_NEAR(mass(0), 10000.0 * 6.0 * (1.0 / 48.0) / 4.0, 1e-9);
  // The box corner (1,0,0) (vertex 2) is the first step along x: two tets of a light cube.
  EXPECT_NEAR(mass(2), 1000.0 * 2.0 * (1.0 / 48.0) / 4.0, 1e-9);
}

TEST(LumpedMass, AVertexOfNoTetGetsNoMass) {
  mesh::TetMesh box = test::box_mesh({1, 1, 1}, {1, 1, 1});
  box.vertices.conservativeResize(box.vertices.rows() + 1, 3);
  box.vertices.row(box.vertices.rows() - 1) << 5, 5, 5;
  const Eigen::VectorXd mass = lumped_mass(box, Eigen::VectorXd::Ones(box.tets.rows()));
  EXPECT_EQ(mass(mass.size() - 1), 0.0);
}

TEST(LumpedMass, RefusesBadDensities) {
  const mesh::TetMesh box = test::box_mesh({1, 1, 1}, {1, 1, 1});
  const Eigen::VectorXd density = Eigen::VectorXd::Ones(box.tets.rows());
  EXPECT_THROW(lumped_mass(box, density.head(3)), std::invalid_argument);
  Eigen::VectorXd bad = density;
  bad(4) = -1.0;
  EXPECT_THROW(lumped_mass(box, bad), std::invalid_argument);
  bad(4) = std::numeric_limits<double>::infinity();
  EXPECT_THROW(lumped_mass(box, bad), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::subspace
