#pragma once
// Properties every material (energies/*.hpp) must have, as a typed test suite: each
// <material>_test.cpp instantiates it with a Model that forwards to the material's functions.
// A Model has static psi(s|F), dpsi_ds, d2psi_ds2, d2psi_ds2_projected, dpsi_dF, d2psi_dF2,
// d2psi_dF2_projected templated on the scalar, and kHasVolumeTerm (whether lambda enters).
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include "polar/deformation_samples.hpp"
#include "polar/finite_differences.hpp"
#include "smfem/energies/lame.hpp"
#include "smfem/polar/polar.hpp"
#include "smfem/polar/polar_derivatives.hpp"
#include "smfem/polar/stretch_vector.hpp"

namespace smfem::test {

using Vector6d = Eigen::Matrix<double, 6, 1>;
using Matrix6d = Eigen::Matrix<double, 6, 6>;
using Matrix9d = Eigen::Matrix<double, 9, 9>;
using Lame = energies::LameParameters<double>;

// Forwards a material namespace's functions as the static members of a Model.
#define SMFEM_MATERIAL_MODEL(Model, material, has_volume_term)                               \
  struct Model {                                                                             \
    static constexpr bool kHasVolumeTerm = has_volume_term;                                  \
    template <typename S>                                                                    \
    static S psi(const Vector6<S>& s, const energies::LameParameters<S>& p) {                \
      return energies::material::psi(s, p);                                                  \
    }                                                                                        \
    template <typename S>                                                                    \
    static Vector6<S> dpsi_ds(const Vector6<S>& s, const energies::LameParameters<S>& p) {   \
      return energies::material::dpsi_ds(s, p);                                              \
    }                                                                                        \
    template <typename S>                                                                    \
    static Matrix6<S> d2psi_ds2(const Vector6<S>& s, const energies::LameParameters<S>& p) { \
      return energies::material::d2psi_ds2(s, p);                                            \
    }                                                                                        \
    template <typename S>                                                                    \
    static Matrix6<S> d2psi_ds2_projected(const Vector6<S>& s,                               \
                                          const energies::LameParameters<S>& p) {            \
      return energies::material::d2psi_ds2_projected(s, p);                                  \
    }                                                                                        \
    template <typename S>                                                                    \
    static S psi(const Matrix3<S>& F, const energies::LameParameters<S>& p) {                \
      return energies::material::psi(F, p);                                                  \
    }                                                                                        \
    template <typename S>                                                                    \
    static Matrix3<S> dpsi_dF(const Matrix3<S>& F, const energies::LameParameters<S>& p) {   \
      return energies::material::dpsi_dF(F, p);                                              \
    }                                                                                        \
    template <typename S>                                                                    \
    static Matrix9<S> d2psi_dF2(const Matrix3<S>& F, const energies::LameParameters<S>& p) { \
      return energies::material::d2psi_dF2(F, p);                                            \
    }                                                                                        \
    template <typename S>                                                                    \
    static Matrix9<S> d2psi_dF2_projected(const Matrix3<S>& F,                               \
                                          const energies::LameParameters<S>& p) {            \
      return energies::material::d2psi_dF2_projected(F, p);                                  \
    }                                                                                        \
  }

// Stiffness scales 1e-3, 1 and 1e3, each moderately and nearly incompressible.
inline std::vector<Lame> material_parameters() {
  std::vector<Lame> params;
  for (const double E : {1e-3, 1.0, 1e3}) {
    for (const double nu : {0.3, 0.49}) params.push_back(energies::lame_from_young_poisson(E, nu));
  }
  return params;
}

inline std::string describe(const Lame& p) {
  return "mu " + std::to_string(p.mu) + ", lambda " + std::to_string(p.lambda);
}

// Stretches to test the stretch forms at: those of the smooth deformations (positive definite,
// nearly singular and indefinite S) and arbitrary symmetric matrices.
inline std::vector<std::pair<std::string, Vector6d>> stretch_samples() {
  std::vector<std::pair<std::string, Vector6d>> samples;
  for (const auto& [name, F] : smooth_deformations()) {
    samples.emplace_back(name, polar::symmetric_stretch<double>(F));
  }
  std::mt19937 rng(99);
  std::normal_distribution<double> normal;
  for (int i = 0; i < 6; ++i) {
    Vector6d s;
    for (double& x : s) x = normal(rng);
    samples.emplace_back("arbitrary symmetric", s);
  }
  return samples;
}

inline double min_eigenvalue(const Eigen::MatrixXd& H) {
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues().minCoeff();
}

// The PSD part of H (negative eigenvalues zeroed) in the metric diag(weights): the reference
// the closed-form projections are checked against.
inline Eigen::MatrixXd eigen_clamped(const Eigen::MatrixXd& H, const Eigen::VectorXd& weights) {
  const Eigen::VectorXd root = weights.cwiseSqrt();
  const Eigen::MatrixXd scaled =
      root.cwiseInverse().asDiagonal() * H * root.cwiseInverse().asDiagonal();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(scaled);
  const Eigen::MatrixXd clamped = eigen.eigenvectors() *
                                  eigen.eigenvalues().cwiseMax(0.0).asDiagonal() *
                                  eigen.eigenvectors().transpose();
  return root.asDiagonal() * clamped * root.asDiagonal();
}

// Finite differences agree to about 1e-10 (fourth-order stencil); the worst errors seen are
// reported on stdout.
constexpr double kFdTolerance = 1e-7;

// Differencing an energy loses what rounding its evaluation costs: about machine epsilon times
// the size of its terms, over the step. That bound, relative to the gradient, is added to the
// tolerance of gradient checks; it matters only where the energy is large and its gradient
// small (stable neo-Hookean compressed a thousandfold sits near lambda / 2 with a tiny slope).
inline double gradient_tolerance(double psi, const Lame& p, double x_norm, double h,
                                 double gradient_norm) {
  const double term_scale = std::abs(psi) + (p.mu + p.lambda) * (1.0 + x_norm * x_norm);
  return kFdTolerance +
         100.0 * std::numeric_limits<double>::epsilon() * term_scale / (h * gradient_norm);
}

template <typename Model>
class MaterialModel : public ::testing::Test {};
TYPED_TEST_SUITE_P(MaterialModel);

TYPED_TEST_P(MaterialModel, StretchGradientMatchesFiniteDifferences) {
  double worst = 0.0;
  double worst_well_conditioned = 0.0;
  for (const Lame& p : material_parameters()) {
    for (const auto& [name, s] : stretch_samples()) {
      SCOPED_TRACE(name + ", " + describe(p));
      const double h = fd_step(s);
      const Eigen::MatrixXd fd = fd_jacobian(
          [&p](const Eigen::VectorXd& x) { return TypeParam::psi(Vector6d(x), p); }, s, h);
      const Vector6d g = TypeParam::dpsi_ds(s, p);
      const double error = relative_error(g.transpose(), fd);
      const double tolerance = gradient_tolerance(TypeParam::psi(s, p), p, s.norm(), h, g.norm());
      worst = std::max(worst, error);
      if (tolerance < 2.0 * kFdTolerance)
        worst_well_conditioned = std::max(worst_well_conditioned, error);
      EXPECT_LT(error, tolerance);
    }
  }
  report_worst("dpsi_ds", worst);
  report_worst("dpsi_ds where rounding allows < 1e-7", worst_well_conditioned);
}

TYPED_TEST_P(MaterialModel, StretchHessianMatchesFiniteDifferences) {
  double worst = 0.0;
  for (const Lame& p : material_parameters()) {
    for (const auto& [name, s] : stretch_samples()) {
      SCOPED_TRACE(name + ", " + describe(p));
      const Eigen::MatrixXd fd = fd_jacobian(
          [&p](const Eigen::VectorXd& x) {
            return Eigen::VectorXd(TypeParam::dpsi_ds(Vector6d(x), p));
          },
          s, fd_step(s));
      const Matrix6d H = TypeParam::d2psi_ds2(s, p);
      const double error = relative_error(H, fd);
      worst = std::max(worst, error);
      EXPECT_LT(error, kFdTolerance);
      EXPECT_EQ(H, H.transpose());
    }
  }
  report_worst("d2psi_ds2", worst);
}

TYPED_TEST_P(MaterialModel, FGradientMatchesFiniteDifferences) {
  double worst = 0.0;
  double worst_well_conditioned = 0.0;
  for (const Lame& p : material_parameters()) {
    for (const auto& [name, F] : smooth_deformations()) {
      SCOPED_TRACE(name + ", " + describe(p));
      const double h = fd_step(vec(F));
      const Eigen::MatrixXd fd = fd_jacobian(
          [&p](const Eigen::VectorXd& x) { return TypeParam::psi(unvec(x), p); }, vec(F), h);
      const Eigen::Matrix3d P = TypeParam::dpsi_dF(F, p);
      const double error = relative_error(vec(P).transpose(), fd);
      const double tolerance = gradient_tolerance(TypeParam::psi(F, p), p, F.norm(), h, P.norm());
      worst = std::max(worst, error);
      if (tolerance < 2.0 * kFdTolerance)
        worst_well_conditioned = std::max(worst_well_conditioned, error);
      EXPECT_LT(error, tolerance);
    }
  }
  report_worst("dpsi_dF", worst);
  report_worst("dpsi_dF where rounding allows < 1e-7", worst_well_conditioned);
}

TYPED_TEST_P(MaterialModel, FHessianMatchesFiniteDifferences) {
  double worst = 0.0;
  for (const Lame& p : material_parameters()) {
    for (const auto& [name, F] : smooth_deformations()) {
      SCOPED_TRACE(name + ", " + describe(p));
      const Eigen::MatrixXd fd = fd_jacobian(
          [&p](const Eigen::VectorXd& x) { return vec(TypeParam::dpsi_dF(unvec(x), p)); }, vec(F),
          fd_step(vec(F)));
      const Matrix9d H = TypeParam::d2psi_dF2(F, p);
      const double error = relative_error(H, fd);
      worst = std::max(worst, error);
      EXPECT_LT(error, kFdTolerance);
      EXPECT_LT((H - H.transpose()).norm(), 1e-15 * H.norm());
    }
  }
  report_worst("d2psi_dF2", worst);
}

TYPED_TEST_P(MaterialModel, RestIsEnergyAndStressFree) {
  const Lame p = energies::lame_from_young_poisson(1e6, 0.45);
  const Vector6d s = polar::identity_stretch<double>();
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  EXPECT_EQ(TypeParam::psi(s, p), 0.0);
  EXPECT_EQ(TypeParam::dpsi_ds(s, p), Vector6d::Zero());
  EXPECT_NEAR(TypeParam::psi(I, p), 0.0, 1e-16 * p.lambda);
  EXPECT_LT(TypeParam::dpsi_dF(I, p).norm(), 1e-16 * p.lambda);
}

TYPED_TEST_P(MaterialModel, LinearizesToLinearElasticity) {
  // At rest the F-form Hessian is that of mu |sym(H)|^2 + lambda / 2 tr(H)^2 (lambda only with a
  // volume term), and the stretch-form Hessian its restriction to symmetric perturbations.
  const Lame p = energies::lame_from_young_poisson(2.0, 0.3);
  Matrix9d symmetrize = Matrix9d::Zero();
  Eigen::Matrix<double, 9, 1> trace = Eigen::Matrix<double, 9, 1>::Zero();
  for (int i = 0; i < 3; ++i) {
    trace(4 * i) = 1.0;
    for (int j = 0; j < 3; ++j) {
      symmetrize(i + 3 * j, i + 3 * j) += 0.5;
      symmetrize(i + 3 * j, j + 3 * i) += 0.5;
    }
  }
  const double lambda = TypeParam::kHasVolumeTerm ? p.lambda : 0.0;
  const Matrix9d linear = 2.0 * p.mu * symmetrize + lambda * trace * trace.transpose();
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  EXPECT_LT((TypeParam::d2psi_dF2(I, p) - linear).norm(), 1e-14);

  const Vector6d trace6 = polar::identity_stretch<double>();
  const Matrix6d linear6 = Matrix6d(2.0 * p.mu * polar::stretch_metric<double>().asDiagonal()) +
                           lambda * trace6 * trace6.transpose();
  const Vector6d rest = polar::identity_stretch<double>();
  EXPECT_LT((TypeParam::d2psi_ds2(rest, p) - linear6).norm(), 1e-14);
}

TYPED_TEST_P(MaterialModel, FFormIsIsotropic) {
  std::mt19937 rng(17);
  const Lame p = energies::lame_from_young_poisson(1e3, 0.4);
  std::vector<Deformation> smooth = smooth_deformations();
  for (auto& c : repeated_singular_values()) smooth.push_back(c);
  std::vector<Deformation> all = smooth;
  for (auto& c : degenerate_deformations()) all.push_back(c);
  for (const auto& [name, F] : all) {
    SCOPED_TRACE(name);
    const Eigen::Matrix3d Q = random_rotation(rng);
    const double psi = TypeParam::psi(F, p);
    // Near-singular cases lose a few digits to cancellation in det(S) - 1; how many depends on
    // the SIMD width Eigen vectorizes with, so wasm and native differ in the last bits.
    const double tolerance = 1e-11 * (std::abs(psi) + p.mu * F.squaredNorm());
    // psi(Q F) = psi(F) (frame indifference) and psi(F Q) = psi(F) (isotropy).
    EXPECT_NEAR(TypeParam::psi(Eigen::Matrix3d(Q * F), p), psi, tolerance);
    EXPECT_NEAR(TypeParam::psi(Eigen::Matrix3d(F * Q), p), psi, tolerance);
  }
  // The stress turns with the frame, P(Q F) = Q P(F), wherever it is unique (R is not when a
  // pairwise sum of singular values vanishes).
  for (const auto& [name, F] : smooth) {
    SCOPED_TRACE(name);
    const Eigen::Matrix3d Q = random_rotation(rng);
    const Eigen::Matrix3d P = TypeParam::dpsi_dF(F, p);
    const Eigen::Matrix3d P_rotated = TypeParam::dpsi_dF(Eigen::Matrix3d(Q * F), p);
    EXPECT_LT((P_rotated - Q * P).norm(), 1e-12 * P.norm() + 1e-14 * p.mu * F.norm());
  }
}

TYPED_TEST_P(MaterialModel, StretchAndFFormsAgree) {
  // psi(F) = psi(s(F)) and, by the chain rule through s(F),
  //   dpsi/dF = (ds/dF)^T dpsi/ds,  d2psi/dF2 = (ds/dF)^T d2psi/ds2 (ds/dF) + sum_k dpsi/ds_k
  //   d2s_k/dF2.
  double worst = 0.0;
  for (const Lame& p : material_parameters()) {
    for (const auto& [name, F] : smooth_deformations()) {
      SCOPED_TRACE(name + ", " + describe(p));
      const Vector6d s = polar::symmetric_stretch<double>(F);
      const double psi = TypeParam::psi(F, p);
      EXPECT_NEAR(TypeParam::psi(s, p), psi, 1e-11 * std::abs(psi));
      const Eigen::Matrix<double, 6, 9> J = polar::dstretch_dF<double>(F);
      const Vector6d g = TypeParam::dpsi_ds(s, p);
      const double gradient_error =
          relative_error(J.transpose() * g, vec(TypeParam::dpsi_dF(F, p)));
      const Matrix9d chain = J.transpose() * TypeParam::d2psi_ds2(s, p) * J +
                             polar::d2stretch_dF2_contract<double>(F, g);
      const double hessian_error = relative_error(chain, TypeParam::d2psi_dF2(F, p));
      worst = std::max({worst, gradient_error, hessian_error});
      EXPECT_LT(gradient_error, 1e-10);
      EXPECT_LT(hessian_error, 1e-9);
    }
  }
  report_worst("chain rule through s(F)", worst);
}

TYPED_TEST_P(MaterialModel, ProjectedHessiansArePsdAndExactEigenClamps) {
  const Eigen::VectorXd flat = Eigen::VectorXd::Ones(9);
  const Eigen::VectorXd metric = polar::stretch_metric<double>();
  double worst = 0.0;
  for (const Lame& p : material_parameters()) {
    for (const auto& [name, F] : smooth_deformations()) {
      SCOPED_TRACE(name + ", " + describe(p));
      const Matrix9d H = TypeParam::d2psi_dF2(F, p);
      const Matrix9d projected = TypeParam::d2psi_dF2_projected(F, p);
      EXPECT_GE(min_eigenvalue(projected), -1e-10 * H.norm());
      EXPECT_LT((projected - projected.transpose()).norm(), 1e-15 * projected.norm());
      const double error = relative_error(projected, eigen_clamped(H, flat));
      worst = std::max(worst, error);
      EXPECT_LT(error, 1e-9);
    }
    for (const auto& [name, s] : stretch_samples()) {
      SCOPED_TRACE(name + ", " + describe(p));
      const Matrix6d H = TypeParam::d2psi_ds2(s, p);
      const Matrix6d projected = TypeParam::d2psi_ds2_projected(s, p);
      EXPECT_GE(min_eigenvalue(projected), -1e-10 * H.norm());
      EXPECT_LT((projected - projected.transpose()).norm(), 1e-15 * projected.norm());
      const double error = relative_error(projected, eigen_clamped(H, metric));
      worst = std::max(worst, error);
      EXPECT_LT(error, 1e-9);
    }
  }
  report_worst("projected Hessians against a numerical eigen-clamp", worst);
}

TYPED_TEST_P(MaterialModel, ProjectionKeepsPsdHessians) {
  // Rotations (rest, turned) have PSD Hessians in every material; count that the check ran.
  std::mt19937 rng(21);
  int psd_cases = 0;
  for (const Lame& p : material_parameters()) {
    std::vector<Eigen::Matrix3d> Fs = {Eigen::Matrix3d::Identity()};
    for (int i = 0; i < 3; ++i) Fs.push_back(random_rotation(rng));
    for (const auto& [name, F] : smooth_deformations()) Fs.push_back(F);
    for (const Eigen::Matrix3d& F : Fs) {
      // PSD up to rounding: rotations have exactly zero twist eigenvalues.
      const Matrix9d H = TypeParam::d2psi_dF2(F, p);
      if (min_eigenvalue(H) >= -1e-12 * H.norm()) {
        ++psd_cases;
        EXPECT_LT((TypeParam::d2psi_dF2_projected(F, p) - H).norm(), 1e-12 * H.norm());
      }
      const Vector6d s = polar::symmetric_stretch<double>(F);
      const Matrix6d Hs = TypeParam::d2psi_ds2(s, p);
      if (min_eigenvalue(Hs) >= -1e-12 * Hs.norm()) {
        ++psd_cases;
        EXPECT_LT((TypeParam::d2psi_ds2_projected(s, p) - Hs).norm(), 1e-12 * Hs.norm());
      }
    }
  }
  EXPECT_GE(psd_cases, 2 * 4 * 6);
}

TYPED_TEST_P(MaterialModel, DegenerateInputsGiveFiniteOutputs) {
  for (const Lame& p : material_parameters()) {
    for (const auto& [name, F] : degenerate_deformations()) {
      SCOPED_TRACE(name + ", " + describe(p));
      EXPECT_TRUE(std::isfinite(TypeParam::psi(F, p)));
      EXPECT_TRUE(TypeParam::dpsi_dF(F, p).allFinite());
      EXPECT_TRUE(TypeParam::d2psi_dF2(F, p).allFinite());
      const Matrix9d projected = TypeParam::d2psi_dF2_projected(F, p);
      EXPECT_TRUE(projected.allFinite());
      EXPECT_GE(min_eigenvalue(projected), -1e-10 * projected.norm());
      const Vector6d s = polar::symmetric_stretch<double>(F);
      EXPECT_TRUE(std::isfinite(TypeParam::psi(s, p)));
      EXPECT_TRUE(TypeParam::dpsi_ds(s, p).allFinite());
      EXPECT_TRUE(TypeParam::d2psi_ds2(s, p).allFinite());
      EXPECT_TRUE(TypeParam::d2psi_ds2_projected(s, p).allFinite());
    }
  }
}

TYPED_TEST_P(MaterialModel, FloatAgreesWithDouble) {
  const Lame p = energies::lame_from_young_poisson(1e5, 0.4);
  const auto pf = p.cast<float>();
  for (const auto& [name, F] : smooth_deformations()) {
    if (F.norm() > 1e2 || F.norm() < 1e-2) continue;  // float range: unit-scale deformations
    SCOPED_TRACE(name);
    const Eigen::Matrix3f Ff = F.template cast<float>();
    const Vector6<float> sf = polar::symmetric_stretch<float>(Ff);
    const Vector6d s = polar::symmetric_stretch<double>(F);
    EXPECT_LT(relative_error(TypeParam::d2psi_ds2(sf, pf).template cast<double>(),
                             TypeParam::d2psi_ds2(s, p)),
              1e-4);
    EXPECT_LT(relative_error(TypeParam::d2psi_dF2_projected(Ff, pf).template cast<double>(),
                             TypeParam::d2psi_dF2_projected(F, p)),
              1e-4);
  }
}

REGISTER_TYPED_TEST_SUITE_P(MaterialModel, StretchGradientMatchesFiniteDifferences,
                            StretchHessianMatchesFiniteDifferences,
                            FGradientMatchesFiniteDifferences, FHessianMatchesFiniteDifferences,
                            RestIsEnergyAndStressFree, LinearizesToLinearElasticity,
                            FFormIsIsotropic, StretchAndFFormsAgree,
                            ProjectedHessiansArePsdAndExactEigenClamps, ProjectionKeepsPsdHessians,
                            DegenerateInputsGiveFiniteOutputs, FloatAgreesWithDouble);

}  // namespace smfem::test
