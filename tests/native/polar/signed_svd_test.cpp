#include "smfem/polar/signed_svd.hpp"

#include <cmath>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "polar/deformation_samples.hpp"

namespace smfem::test {
namespace {

TEST(PolarSignedSvd, ReconstructsFWithRotationsAndSignedSingularValues) {
  for (const auto& [name, F] : all_deformations()) {
    SCOPED_TRACE(name);
    const auto svd = polar::signed_svd<double>(F);
    const double scale = std::max(F.norm(), std::numeric_limits<double>::min());
    EXPECT_LT((svd.U * svd.sigma.asDiagonal() * svd.V.transpose() - F).norm(), 1e-14 * scale);
    for (const Eigen::Matrix3d& Q : {svd.U, svd.V}) {
      EXPECT_LT((Q.transpose() * Q - Eigen::Matrix3d::Identity()).norm(), 1e-14);
      EXPECT_NEAR(Q.determinant(), 1.0, 1e-14);
    }
    EXPECT_GE(svd.sigma(0), svd.sigma(1));
    EXPECT_GE(svd.sigma(1), std::abs(svd.sigma(2)));
    if (std::abs(F.determinant()) > 1e-12 * std::pow(scale, 3)) {
      EXPECT_EQ(svd.sigma(2) < 0, F.determinant() < 0);
    }
  }
}

// Started from another V (a nearby F's, or any rotation), the result is as good, with the same
// singular values, and where they are unique the same rotation R = U V^T and stretch
// S = V diag(sigma) V^T, to rounding.
TEST(PolarSignedSvd, AWarmStartGivesTheSameDecomposition) {
  std::mt19937 rng(11);
  for (const auto& [name, F] : all_deformations()) {
    SCOPED_TRACE(name);
    const auto cold = polar::signed_svd<double>(F);
    const Eigen::Matrix3d nearby = F + 1e-3 * F.norm() * random_rotation(rng);
    for (const Eigen::Matrix3d& V_start :
         {polar::signed_svd<double>(nearby).V, random_rotation(rng)}) {
      const auto warm = polar::signed_svd<double>(F, V_start);
      const double scale = std::max(F.norm(), std::numeric_limits<double>::min());
      EXPECT_LT((warm.U * warm.sigma.asDiagonal() * warm.V.transpose() - F).norm(), 1e-14 * scale);
      for (const Eigen::Matrix3d& Q : {warm.U, warm.V}) {
        EXPECT_LT((Q.transpose() * Q - Eigen::Matrix3d::Identity()).norm(), 1e-14);
        EXPECT_NEAR(Q.determinant(), 1.0, 1e-14);
      }
      EXPECT_LT((warm.sigma - cold.sigma).norm(), 1e-14 * scale);
      // R and S are unique only where every pair sum is well away from zero (F = -I, say, has
      // a whole family of signed polar decompositions).
      if (polar::clamped_pair_sums(cold).minCoeff() > 1e-3 * scale) {
        const Eigen::Matrix3d stretch = warm.V * warm.sigma.asDiagonal() * warm.V.transpose();
        EXPECT_LT((stretch - cold.V * cold.sigma.asDiagonal() * cold.V.transpose()).norm(),
                  1e-12 * scale);
        EXPECT_LT((warm.U * warm.V.transpose() - cold.U * cold.V.transpose()).norm(), 1e-12);
      }
    }
  }
}

TEST(PolarSignedSvd, PairSumsAreExactAwayFromZeroAndPositiveNearIt) {
  const polar::SignedSvd<double> smooth{
      Eigen::Matrix3d::Identity(), {3.0, 2.0, -0.5}, Eigen::Matrix3d::Identity()};
  EXPECT_EQ(polar::clamped_pair_sums(smooth), Eigen::Vector3d(1.5, 2.5, 5.0));

  const polar::SignedSvd<double> cancelling{
      Eigen::Matrix3d::Identity(), {3.0, 2.0, -2.0}, Eigen::Matrix3d::Identity()};
  const Eigen::Vector3d kappa = polar::clamped_pair_sums(cancelling);
  EXPECT_NEAR(kappa(0), std::sqrt(std::numeric_limits<double>::epsilon()) * 3.0, 1e-20);
  EXPECT_EQ(kappa.tail<2>(), Eigen::Vector2d(1.0, 5.0));

  const polar::SignedSvd<double> zero{Eigen::Matrix3d::Identity(), Eigen::Vector3d::Zero(),
                                      Eigen::Matrix3d::Identity()};
  EXPECT_GT(polar::clamped_pair_sums(zero).minCoeff(), 0.0);
}

TEST(PolarSignedSvd, FloatAgreesWithDouble) {
  for (const auto& [name, F] : smooth_deformations()) {
    SCOPED_TRACE(name);
    const auto svd = polar::signed_svd<float>(F.cast<float>());
    const Eigen::Matrix3d back =
        (svd.U * svd.sigma.asDiagonal() * svd.V.transpose()).cast<double>();
    EXPECT_LT((back - F).norm(), 1e-5 * F.norm());
    EXPECT_LT((svd.sigma.cast<double>() - polar::signed_svd<double>(F).sigma).norm(),
              1e-5 * F.norm());
  }
}

}  // namespace
}  // namespace smfem::test
