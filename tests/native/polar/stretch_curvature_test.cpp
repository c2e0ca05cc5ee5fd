#include "smfem/polar/stretch_curvature.hpp"

#include <random>

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include "polar/deformation_samples.hpp"
#include "polar/finite_differences.hpp"
#include "smfem/polar/polar_derivatives.hpp"
#include "smfem/polar/stretch_vector.hpp"

namespace smfem::test {
namespace {

using Vector6d = Eigen::Matrix<double, 6, 1>;
using Matrix9d = Eigen::Matrix<double, 9, 9>;
using polar::CurvatureProjection;

// m whose matrix G = V diag(g) V^T is coaxial with the stretch of svd.
Vector6d coaxial_multiplier(const polar::SignedSvd<double>& svd, const Eigen::Vector3d& g) {
  const Eigen::Matrix3d G = svd.V * g.asDiagonal() * svd.V.transpose();
  return polar::stretch_from_matrix<double>(G).cwiseProduct(polar::stretch_metric<double>());
}

// The PSD part by a numeric eigendecomposition.
Matrix9d numeric_psd_part(const Matrix9d& H) {
  const Eigen::SelfAdjointEigenSolver<Matrix9d> eigen(H);
  return eigen.eigenvectors() * eigen.eigenvalues().cwiseMax(0.0).asDiagonal() *
         eigen.eigenvectors().transpose();
}

// Smooth, near-degenerate and inverted F (no exactly degenerate ones: there the clamped pair
// sums make the closed form and the numeric Hessian differ by design).
std::vector<Deformation> curvature_samples() {
  std::vector<Deformation> cases = smooth_deformations();
  for (auto& c : repeated_singular_values()) cases.push_back(c);
  return cases;
}

TEST(StretchCurvature, CoaxialClosedFormEqualsTheNumericHessian) {
  std::mt19937 rng(21);
  std::normal_distribution<double> normal;
  double worst = 0.0;
  for (const auto& [name, F] : curvature_samples()) {
    SCOPED_TRACE(name);
    const auto svd = polar::signed_svd<double>(F);
    const Vector6d m = coaxial_multiplier(svd, {normal(rng), normal(rng), normal(rng)});
    const Matrix9d closed = polar::coaxial_stretch_curvature(svd, m, CurvatureProjection::none);
    const Matrix9d numeric = polar::d2stretch_dF2_contract<double>(svd, m);
    const double error = relative_error(closed, numeric);
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-9);
    EXPECT_LT((closed - closed.transpose()).norm(), 1e-14 * closed.norm());
  }
  report_worst("coaxial closed form vs d2stretch_dF2_contract", worst);
}

TEST(StretchCurvature, CoaxialClosedFormMatchesFiniteDifferences) {
  std::mt19937 rng(22);
  std::normal_distribution<double> normal;
  double worst = 0.0;
  for (const auto& [name, F] : smooth_deformations()) {
    SCOPED_TRACE(name);
    const auto svd = polar::signed_svd<double>(F);
    // The multiplier is held fixed while F moves: the Hessian of m^T s(F).
    const Vector6d m = coaxial_multiplier(svd, {normal(rng), normal(rng), normal(rng)});
    const Eigen::MatrixXd fd = fd_jacobian(
        [&](const Eigen::VectorXd& x) {
          return Eigen::VectorXd(polar::dstretch_dF<double>(unvec(x)).transpose() * m);
        },
        vec(F), fd_step(vec(F)));
    const Matrix9d closed = polar::coaxial_stretch_curvature(svd, m, CurvatureProjection::none);
    const double error = relative_error(closed, fd);
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-7);
  }
  report_worst("coaxial closed form vs finite differences", worst);
}

TEST(StretchCurvature, ProjectionEqualsANumericEigendecomposition) {
  std::mt19937 rng(23);
  double worst = 0.0;
  for (const auto& [name, F] : curvature_samples()) {
    SCOPED_TRACE(name);
    const auto svd = polar::signed_svd<double>(F);
    // Any multiplier: the projection is of its coaxial part.
    const Vector6d m = random_multiplier(rng);
    const Matrix9d coaxial = polar::coaxial_stretch_curvature(svd, m, CurvatureProjection::none);
    const Matrix9d projected = polar::coaxial_stretch_curvature(svd, m, CurvatureProjection::psd);
    const double error = (projected - numeric_psd_part(coaxial)).norm() / coaxial.norm();
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-10);
    const Eigen::SelfAdjointEigenSolver<Matrix9d> eigen(projected);
    EXPECT_GT(eigen.eigenvalues().minCoeff(), -1e-12 * coaxial.norm());
  }
  report_worst("analytic PSD projection vs numeric", worst);
}

TEST(StretchCurvature, NonCoaxialPartIsDropped) {
  std::mt19937 rng(24);
  const Eigen::Matrix3d F = with_singular_values(rng, {1.6, 1.1, 0.7});
  const auto svd = polar::signed_svd<double>(F);
  const Vector6d m = random_multiplier(rng);
  const Eigen::Matrix3d G =
      polar::stretch_to_matrix<double>(m.cwiseQuotient(polar::stretch_metric<double>()));
  const Vector6d coaxial = coaxial_multiplier(svd, (svd.V.transpose() * G * svd.V).diagonal());
  for (const auto projection : {CurvatureProjection::none, CurvatureProjection::psd}) {
    EXPECT_LT((polar::coaxial_stretch_curvature(svd, m, projection) -
               polar::coaxial_stretch_curvature(svd, coaxial, projection))
                  .norm(),
              1e-14 * m.norm());
  }
}

TEST(StretchCurvature, DegenerateInputsGiveFiniteOutputs) {
  std::mt19937 rng(25);
  for (const auto& [name, F] : degenerate_deformations()) {
    SCOPED_TRACE(name);
    const auto svd = polar::signed_svd<double>(F);
    const Vector6d m = random_multiplier(rng);
    EXPECT_TRUE(polar::coaxial_stretch_curvature(svd, m, CurvatureProjection::none).allFinite());
    EXPECT_TRUE(polar::coaxial_stretch_curvature(svd, m, CurvatureProjection::psd).allFinite());
  }
}

}  // namespace
}  // namespace smfem::test
