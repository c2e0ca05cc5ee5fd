#include "smfem/fem/linear_tet.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

namespace smfem::fem {
namespace {

TetCorners unit_corner_tet() {
  TetCorners X;
  X << 0, 0, 0,  //
      1, 0, 0,   //
      0, 1, 0,   //
      0, 0, 1;
  return X;
}

// A deliberately skewed tet, positively oriented, far from the origin.
TetCorners skewed_tet() {
  TetCorners X;
  X << 10.0, -3.0, 2.0,  //
      10.7, -2.9, 2.1,   //
      10.2, -2.1, 1.9,   //
      10.3, -2.8, 2.6;
  return X;
}

TEST(LinearTet, VolumeOfTheUnitCornerTetIsOneSixth) {
  EXPECT_DOUBLE_EQ(linear_tet_volume(unit_corner_tet()), 1.0 / 6.0);
}

TEST(LinearTet, VolumeIsSignedAndScalesWithTheCube) {
  TetCorners X = skewed_tet();
  const double volume = linear_tet_volume(X);
  ASSERT_GT(volume, 0.0);
  EXPECT_NEAR(linear_tet_volume(2.5 * X), 2.5 * 2.5 * 2.5 * volume, 1e-12 * volume);
  X.row(1).swap(X.row(2));
  EXPECT_NEAR(linear_tet_volume(X), -volume, 1e-14);
}

TEST(LinearTet, ShapeGradientsSumToZeroAndReproduceLinearFields) {
  const TetCorners X = skewed_tet();
  const TetCorners G = linear_tet_dphi_dX(X);
  // Partition of unity: the gradients sum to zero.
  EXPECT_LT(G.colwise().sum().norm(), 1e-12 * G.norm());
  // The interpolated identity field X has gradient I.
  EXPECT_LT((X.transpose() * G - Eigen::Matrix3d::Identity()).norm(), 1e-12);
  // phi_j is 1 at corner j and 0 at the others: grad phi_j . (X_k - X_0) = delta_jk - delta_j0.
  for (int j = 0; j < 4; ++j) {
    for (int k = 1; k < 4; ++k) {
      const double expected = (j == k ? 1.0 : 0.0) - (j == 0 ? 1.0 : 0.0);
      EXPECT_NEAR(G.row(j).dot(X.row(k) - X.row(0)), expected, 1e-12);
    }
  }
}

TEST(LinearTet, DeformationGradientOfAnAffineMapIsItsLinearPart) {
  const TetCorners X = skewed_tet();
  Eigen::Matrix3d A;
  A << 1.2, 0.3, -0.1,  //
      -0.4, 0.9, 0.2,   //
      0.05, 0.6, 1.4;
  const Eigen::Vector3d b(0.5, -7.0, 3.0);
  TetCorners x;
  for (int j = 0; j < 4; ++j) x.row(j) = (A * X.row(j).transpose() + b).transpose();
  const Eigen::Matrix3d F = linear_tet_deformation_gradient(x, linear_tet_dphi_dX(X));
  EXPECT_LT((F - A).norm(), 1e-12);
}

TEST(LinearTet, ShapeGradientsRotateWithTheTet) {
  const TetCorners X = skewed_tet();
  const Eigen::Matrix3d R =
      Eigen::AngleAxisd(0.7, Eigen::Vector3d(1.0, -2.0, 0.5).normalized()).toRotationMatrix();
  const TetCorners rotated = X * R.transpose();
  EXPECT_LT((linear_tet_dphi_dX(rotated) - linear_tet_dphi_dX(X) * R.transpose()).norm(), 1e-10);
  EXPECT_NEAR(linear_tet_volume(rotated), linear_tet_volume(X), 1e-14);
}

}  // namespace
}  // namespace smfem::fem
