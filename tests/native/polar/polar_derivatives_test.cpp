#include "smfem/polar/polar_derivatives.hpp"

#include <random>

#include <gtest/gtest.h>

#include "polar/deformation_samples.hpp"
#include "polar/finite_differences.hpp"
#include "smfem/polar/polar.hpp"

namespace smfem::test {
namespace {

using Vector6d = Eigen::Matrix<double, 6, 1>;

// Finite differences are exact enough to ask for 1e-7 with the fourth-order stencil; the worst
// errors seen are reported on stdout.
constexpr double kTolerance = 1e-7;

std::vector<Deformation> fd_deformations() {
  std::vector<Deformation> cases = smooth_deformations();
  for (auto& c : repeated_singular_values()) cases.push_back(c);
  return cases;
}

TEST(PolarDerivatives, RotationDerivativeMatchesFiniteDifferences) {
  double worst = 0.0;
  for (const auto& [name, F] : fd_deformations()) {
    SCOPED_TRACE(name);
    const Eigen::MatrixXd fd = fd_jacobian(
        [](const Eigen::VectorXd& x) { return vec(polar::polar_rotation<double>(unvec(x))); },
        vec(F), fd_step(vec(F)));
    const Eigen::Matrix<double, 9, 9> dR = polar::drotation_dF<double>(F);
    const double error = relative_error(dR, fd);
    worst = std::max(worst, error);
    EXPECT_LT(error, kTolerance);
    EXPECT_EQ(dR, dR.transpose());
  }
  report_worst("drotation_dF", worst);
}

TEST(PolarDerivatives, StretchJacobianMatchesFiniteDifferences) {
  double worst = 0.0;
  for (const auto& [name, F] : fd_deformations()) {
    SCOPED_TRACE(name);
    const Eigen::MatrixXd fd = fd_jacobian(
        [](const Eigen::VectorXd& x) {
          return Eigen::VectorXd(polar::symmetric_stretch<double>(unvec(x)));
        },
        vec(F), fd_step(vec(F)));
    const double error = relative_error(polar::dstretch_dF<double>(F), fd);
    worst = std::max(worst, error);
    EXPECT_LT(error, kTolerance);
  }
  report_worst("dstretch_dF", worst);
}

TEST(PolarDerivatives, ContractedStretchHessianMatchesFiniteDifferences) {
  std::mt19937 rng(42);
  double worst = 0.0;
  for (const auto& [name, F] : fd_deformations()) {
    SCOPED_TRACE(name);
    const Vector6d m = random_multiplier(rng);
    const Eigen::MatrixXd fd = fd_jacobian(
        [&m](const Eigen::VectorXd& x) {
          return Eigen::VectorXd(polar::dstretch_dF<double>(unvec(x)).transpose() * m);
        },
        vec(F), fd_step(vec(F)));
    const Eigen::Matrix<double, 9, 9> H = polar::d2stretch_dF2_contract<double>(F, m);
    const double error = relative_error(H, fd);
    worst = std::max(worst, error);
    EXPECT_LT(error, kTolerance);
    EXPECT_EQ(H, H.transpose());
  }
  report_worst("d2stretch_dF2_contract", worst);
}

TEST(PolarDerivatives, ContractedStretchHessianIsLinearInTheMultiplier) {
  std::mt19937 rng(8);
  const Eigen::Matrix3d F = with_singular_values(rng, {1.7, 1.1, -0.6});
  Eigen::Matrix<double, 9, 9> sum = Eigen::Matrix<double, 9, 9>::Zero();
  Vector6d m = random_multiplier(rng);
  for (int k = 0; k < 6; ++k) {
    sum += m(k) * polar::d2stretch_dF2_contract<double>(F, Vector6d::Unit(k));
  }
  EXPECT_LT((polar::d2stretch_dF2_contract<double>(F, m) - sum).norm(), 1e-13 * sum.norm());
}

TEST(PolarDerivatives, SvdFormsEqualFForms) {
  std::mt19937 rng(9);
  const Eigen::Matrix3d F = with_singular_values(rng, {1.7, 1.1, 0.6});
  const Vector6d m = random_multiplier(rng);
  const auto svd = polar::signed_svd<double>(F);
  EXPECT_EQ(polar::drotation_dF<double>(svd), polar::drotation_dF<double>(F));
  EXPECT_EQ(polar::dstretch_dF<double>(svd), polar::dstretch_dF<double>(F));
  EXPECT_EQ(polar::d2stretch_dF2_contract<double>(svd, m),
            polar::d2stretch_dF2_contract<double>(F, m));
}

TEST(PolarDerivatives, DegenerateInputsGiveFiniteOutputs) {
  std::mt19937 rng(10);
  for (const auto& [name, F] : degenerate_deformations()) {
    SCOPED_TRACE(name);
    const Vector6d m = random_multiplier(rng);
    EXPECT_TRUE(polar::drotation_dF<double>(F).allFinite());
    EXPECT_TRUE(polar::dstretch_dF<double>(F).allFinite());
    EXPECT_TRUE(polar::d2stretch_dF2_contract<double>(F, m).allFinite());
  }
}

TEST(PolarDerivatives, FloatAgreesWithDouble) {
  std::mt19937 rng(12);
  for (const auto& [name, F] : smooth_deformations()) {
    SCOPED_TRACE(name);
    const Vector6d m = random_multiplier(rng);
    const Eigen::Matrix3f Ff = F.cast<float>();
    EXPECT_LT(
        relative_error(polar::dstretch_dF<float>(Ff).cast<double>(), polar::dstretch_dF<double>(F)),
        1e-5);
    EXPECT_LT(
        relative_error(polar::d2stretch_dF2_contract<float>(Ff, m.cast<float>()).cast<double>(),
                       polar::d2stretch_dF2_contract<double>(F, m)),
        1e-5);
  }
}

}  // namespace
}  // namespace smfem::test
