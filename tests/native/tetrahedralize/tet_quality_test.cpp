#include "smfem/tetrahedralize/tet_quality.hpp"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

namespace smfem::tetrahedralize {
namespace {

using Eigen::Vector3d;

constexpr double kDeg = 180.0 / 3.14159265358979323846;

TEST(TetQuality, RegularAndCornerTets) {
  const Vector3d a(1, 1, 1), b(1, -1, -1), c(-1, 1, -1), d(-1, -1, 1);
  const double regular = std::acos(1.0 / 3.0) * kDeg;  // 70.53
  for (double angle : dihedral_angles_deg(a, b, c, d)) EXPECT_NEAR(angle, regular, 1e-10);
  EXPECT_NEAR(min_dihedral_sine(a, b, c, d), std::sqrt(8.0 / 9.0), 1e-12);
  EXPECT_NEAR(std::abs(signed_volume(a, b, c, d)), 8.0 / 3.0, 1e-12);

  const auto corner = dihedral_angles_deg(Vector3d::Zero(), Vector3d::UnitX(), Vector3d::UnitY(),
                                          Vector3d::UnitZ());
  // At the edges from the origin 90 degrees; along the slanted face acos(1/sqrt(3)).
  for (int e : {0, 1, 2}) EXPECT_NEAR(corner[e], 90.0, 1e-10);
  for (int e : {3, 4, 5}) EXPECT_NEAR(corner[e], std::acos(1 / std::sqrt(3.0)) * kDeg, 1e-10);
  EXPECT_NEAR(
      signed_volume(Vector3d::Zero(), Vector3d::UnitX(), Vector3d::UnitY(), Vector3d::UnitZ()),
      1.0 / 6.0, 1e-15);
}

TEST(TetQuality, SineMatchesTheAnglesAndFlatTetsGiveZero) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < 200; ++i) {
    const Vector3d a(u(rng), u(rng), u(rng)), b(u(rng), u(rng), u(rng)), c(u(rng), u(rng), u(rng)),
        d(u(rng), u(rng), u(rng));
    double smallest = 1.0;
    for (double angle : dihedral_angles_deg(a, b, c, d)) {
      smallest = std::min(smallest, std::sin(angle / kDeg));
    }
    EXPECT_NEAR(min_dihedral_sine(a, b, c, d), smallest, 1e-9);
  }
  EXPECT_EQ(
      min_dihedral_sine(Vector3d::Zero(), Vector3d::UnitX(), Vector3d::UnitY(), Vector3d(1, 1, 0)),
      0.0);
}

TEST(TetQuality, MeasuresAMesh) {
  mesh::TetMesh mesh;
  mesh.vertices.resize(5, 3);
  mesh.vertices << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1;
  mesh.tets.resize(2, 4);
  mesh.tets << 0, 1, 2, 3, 1, 2, 3, 4;
  const double second =
      signed_volume(Vector3d(1, 0, 0), Vector3d(0, 1, 0), Vector3d(0, 0, 1), Vector3d(1, 1, 1));
  const TetQuality q = measure_quality(mesh);
  EXPECT_NEAR(q.total_volume, 1.0 / 6.0 + second, 1e-15);
  EXPECT_NEAR(q.min_volume, std::min(1.0 / 6.0, second), 1e-15);
  EXPECT_NEAR(q.max_dihedral_deg, 90.0, 1e-9);
  // The corner tet's slanted face meets the others at acos(1 / sqrt(3)); the other is regular.
  EXPECT_NEAR(q.min_dihedral_deg, std::acos(1.0 / std::sqrt(3.0)) * kDeg, 1e-9);
}

}  // namespace
}  // namespace smfem::tetrahedralize
