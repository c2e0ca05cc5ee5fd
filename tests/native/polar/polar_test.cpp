#include "smfem/polar/polar.hpp"

#include <limits>

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include "polar/deformation_samples.hpp"
#include "smfem/polar/stretch_vector.hpp"

namespace smfem::test {
namespace {

TEST(PolarDecomposition, ProperRotationTimesSymmetricStretchIsF) {
  for (const auto& [name, F] : all_deformations()) {
    SCOPED_TRACE(name);
    const Eigen::Matrix3d R = polar::polar_rotation<double>(F);
    const Eigen::Matrix3d S = polar::stretch_to_matrix<double>(polar::symmetric_stretch<double>(F));
    EXPECT_LT((R.transpose() * R - Eigen::Matrix3d::Identity()).norm(), 1e-14);
    EXPECT_NEAR(R.determinant(), 1.0, 1e-14);
    const double scale = std::max(F.norm(), std::numeric_limits<double>::min());
    EXPECT_LT((R * S - F).norm(), 1e-14 * scale);
    // det S = det F: the sign of an inversion lives in S, never in R.
    EXPECT_NEAR(S.determinant(), F.determinant(), 1e-13 * std::pow(scale, 3));
  }
}

TEST(PolarDecomposition, InvertedElementHasOneNegativeStretch) {
  std::mt19937 rng(3);
  const Eigen::Matrix3d F = with_singular_values(rng, {1.5, 0.9, -0.4});
  const Eigen::Matrix3d S = polar::stretch_to_matrix<double>(polar::symmetric_stretch<double>(F));
  const Eigen::Vector3d eigenvalues =
      Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(S).eigenvalues();
  EXPECT_NEAR(eigenvalues(0), -0.4, 1e-14);
  EXPECT_NEAR(eigenvalues(1), 0.9, 1e-14);
  EXPECT_NEAR(eigenvalues(2), 1.5, 1e-14);
}

TEST(PolarDecomposition, KnownFactors) {
  std::mt19937 rng(5);
  const Eigen::Matrix3d Q = random_rotation(rng);
  // A rotation is its own rotation factor, with S = I.
  EXPECT_LT((polar::polar_rotation<double>(Q) - Q).norm(), 1e-14);
  EXPECT_LT((polar::symmetric_stretch<double>(Q) - polar::identity_stretch<double>()).norm(),
            1e-14);
  // A symmetric positive definite matrix is its own stretch, with R = I.
  const Eigen::Matrix3d P = Q * Eigen::Vector3d(3.0, 2.0, 0.5).asDiagonal() * Q.transpose();
  EXPECT_LT((polar::polar_rotation<double>(P) - Eigen::Matrix3d::Identity()).norm(), 1e-14);
  EXPECT_LT((polar::stretch_to_matrix<double>(polar::symmetric_stretch<double>(P)) - P).norm(),
            1e-14);
  // Inversion lives in the smallest stretch: diag(2, 1, -0.5) is already R S with R = I, and
  // diag(-2, 1, 0.5) is the half turn about y times diag(2, 1, -0.5).
  Eigen::Matrix<double, 6, 1> s;
  s << 2.0, 1.0, -0.5, 0.0, 0.0, 0.0;
  const Eigen::Matrix3d F = Eigen::Vector3d(2.0, 1.0, -0.5).asDiagonal();
  EXPECT_LT((polar::polar_rotation<double>(F) - Eigen::Matrix3d::Identity()).norm(), 1e-14);
  EXPECT_LT((polar::symmetric_stretch<double>(F) - s).norm(), 1e-14);
  const Eigen::Matrix3d G = Eigen::Vector3d(-2.0, 1.0, 0.5).asDiagonal();
  const Eigen::Matrix3d half_turn = Eigen::Vector3d(-1.0, 1.0, -1.0).asDiagonal();
  EXPECT_LT((polar::polar_rotation<double>(G) - half_turn).norm(), 1e-14);
  EXPECT_LT((polar::symmetric_stretch<double>(G) - s).norm(), 1e-14);
}

TEST(PolarDecomposition, StretchVectorStoresUpperTriangleOnce) {
  Eigen::Matrix<double, 6, 1> s;
  s << 1.0, 2.0, 3.0, 4.0, 5.0, 6.0;
  Eigen::Matrix3d S;
  S << 1.0, 4.0, 5.0, 4.0, 2.0, 6.0, 5.0, 6.0, 3.0;
  EXPECT_EQ(polar::stretch_to_matrix<double>(s), S);
  EXPECT_EQ(polar::stretch_from_matrix<double>(S), s);
  // s^T D t = S : T.
  Eigen::Matrix<double, 6, 1> t;
  t << -1.0, 0.5, 2.0, 3.0, -2.0, 0.25;
  const double frobenius = (S.array() * polar::stretch_to_matrix<double>(t).array()).sum();
  EXPECT_DOUBLE_EQ(s.dot(polar::stretch_metric<double>().cwiseProduct(t)), frobenius);
}

TEST(PolarDecomposition, FloatAgreesWithDouble) {
  for (const auto& [name, F] : smooth_deformations()) {
    SCOPED_TRACE(name);
    const Eigen::Matrix3f Ff = F.cast<float>();
    EXPECT_LT(
        (polar::polar_rotation<float>(Ff).cast<double>() - polar::polar_rotation<double>(F)).norm(),
        1e-5);
    EXPECT_LT(
        (polar::symmetric_stretch<float>(Ff).cast<double>() - polar::symmetric_stretch<double>(F))
            .norm(),
        1e-5 * F.norm());
  }
}

}  // namespace
}  // namespace smfem::test
