// The mixed solver's algebra against an independent reference (reference.hpp): one iteration
// is Newton on the KKT system (without the constraint curvature in the paper variant, with it
// in the curvature variant), and a converged step is a stationary point of the Lagrangian.
#include "smfem/sim/step/mfem_step.hpp"

#include <gtest/gtest.h>
#include <Eigen/LU>

#include "sim/reference.hpp"
#include "sim/test_model.hpp"
#include "smfem/energies/fixed_corotational.hpp"
#include "smfem/polar/polar_derivatives.hpp"
#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/stretch_vector.hpp"
#include "smfem/sim/simulator.hpp"

namespace smfem::sim {
namespace {

using test::flatten;

SolverSettings mfem_settings() {
  SolverSettings settings;
  settings.method = SolverMethod::mfem;
  settings.material_model = MaterialModel::fixed_corotational;
  settings.timestep = 1.0 / 60.0;
  settings.gravity = Eigen::Vector3d(0.0, -9.81, 0.0);
  return settings;
}

// Multipliers whose matrix is coaxial with the stretch of F (where the closed-form curvature of
// the curvature variant is the exact one), entries of size `scale`.
Vector6<double> coaxial_multiplier(const Matrix3<double>& F, double scale) {
  const polar::SignedSvd<double> svd = polar::signed_svd(F);
  const Eigen::Vector3d g = scale * Eigen::Vector3d::Random();
  return polar::stretch_from_matrix<double>(
      Matrix3<double>(svd.V * g.asDiagonal() * svd.V.transpose()));
}

// One iteration from an off-constraint state against Newton on the KKT system in (du, dz,
// dlambda), all tets as cubature (weights w_c), at (u~, z, lambda): without the constraint's
// curvature in the u block (the paper variant), or with it (the curvature variant, with
// multipliers coaxial with the stretches so that its closed form is the exact Hessian, taken
// here from polar::d2stretch_dF2_contract).
void expect_newton_on_the_kkt_system(MixedVariant variant) {
  const BoxModel model = make_box_model(test::small_box());
  SolverSettings settings = mfem_settings();
  settings.mixed_variant = variant;
  settings.iterations = 1;
  settings.max_backtracks = 0;  // the comparison needs the full step
  settings.energy_check = false;
  Simulator simulator(model.model, settings);
  const int m = model.model.mode_count();
  const int C = model.model.cubature_count();
  const double h = settings.timestep;
  const bool with_curvature = variant == MixedVariant::curvature;

  SimulatorState start = simulator.snapshot();
  start.U = test::random_reduced(m, 0.02, 1u);
  start.Udot = test::random_reduced(m, 0.2, 2u);
  const Eigen::VectorXd predicted = flatten(start.U + h * start.Udot);
  const test::Reference reference(model, settings.material_model, h, settings.gravity, predicted);
  // z off the constraint (g != 0) and arbitrary multipliers, so every term of the system counts.
  const StretchField noise = 1e-3 * StretchField::Random(6, C);
  for (int c = 0; c < C; ++c) start.z.col(c) = reference.stretch(c, predicted) + noise.col(c);
  start.lambda = 1e3 * StretchField::Random(6, C);
  if (with_curvature) {
    for (int c = 0; c < C; ++c) {
      start.lambda.col(c) = coaxial_multiplier(reference.F(c, predicted), 1e3);
    }
  }
  simulator.restore(start);

  const StepReport& report = simulator.step();
  ASSERT_TRUE(report.ok);
  ASSERT_EQ(report.stats.iterations, 1);
  ASSERT_EQ(report.stats.line_search_failures, 0) << "the full step was not accepted";
  ASSERT_EQ(report.stats.curvature_fallbacks, 0) << "the exact curvature was not used";
  const Eigen::VectorXd du = flatten(simulator.coordinates()) - predicted;
  const StretchField dz = simulator.stretches() - start.z;
  const StretchField lambda_new = simulator.multipliers();

  const int r = 12 * m;
  const int size = r + 12 * C;
  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(size, size);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(size);
  const Vector6<double> metric = polar::stretch_metric<double>();
  const Eigen::Matrix<double, 6, 6> D = metric.asDiagonal();
  kkt.topLeftCorner(r, r) = reference.hessian_psi_u();
  rhs.head(r) = -reference.grad_psi_u(predicted);
  for (int c = 0; c < C; ++c) {
    const double w = reference.weight(c);
    const Lame& lame = reference.lame[static_cast<std::size_t>(c)];
    const Vector6<double> zc = start.z.col(c);
    const Vector6<double> lambda = start.lambda.col(c);
    const Eigen::MatrixXd J = reference.dstretch_du(c, predicted);  // 6 x r
    const Matrix6<double> H = energies::fixed_corotational::d2psi_ds2_projected(zc, lame);
    const Vector6<double> grad_psi = energies::fixed_corotational::dpsi_ds(zc, lame);
    const Vector6<double> g = reference.stretch(c, predicted) - zc;
    const int z_at = r + 6 * c;
    const int lambda_at = r + 6 * C + 6 * c;
    if (with_curvature) {
      const Eigen::MatrixXd dF = reference.dF_du(c);  // 9 x r
      kkt.topLeftCorner(r, r) +=
          w * dF.transpose() *
          polar::d2stretch_dF2_contract<double>(reference.F(c, predicted),
                                                Vector6<double>(metric.cwiseProduct(lambda))) *
          dF;
    }
    kkt.block(0, lambda_at, r, 6) = w * J.transpose() * D;
    kkt.block(lambda_at, 0, 6, r) = w * D * J;
    kkt.block(z_at, z_at, 6, 6) = w * H;
    kkt.block(z_at, lambda_at, 6, 6) = -w * D;
    kkt.block(lambda_at, z_at, 6, 6) = -w * D;
    rhs.head(r) -= w * J.transpose() * D * lambda;
    rhs.segment(z_at, 6) = -w * (grad_psi - D * lambda);
    rhs.segment(lambda_at, 6) = -w * D * g;
  }
  const Eigen::VectorXd solution = kkt.partialPivLu().solve(rhs);
  const Eigen::VectorXd du_ref = solution.head(r);
  const Eigen::VectorXd dz_ref = solution.segment(r, 6 * C);
  const Eigen::VectorXd lambda_ref =
      Eigen::Map<const Eigen::VectorXd>(start.lambda.data(), 6 * C) + solution.tail(6 * C);

  EXPECT_LT((du - du_ref).norm(), 1e-6 * du_ref.norm());
  const Eigen::Map<const Eigen::VectorXd> dz_flat(dz.data(), 6 * C);
  EXPECT_LT((dz_flat - dz_ref).norm(), 1e-6 * dz_ref.norm());
  const Eigen::Map<const Eigen::VectorXd> lambda_flat(lambda_new.data(), 6 * C);
  EXPECT_LT((lambda_flat - lambda_ref).norm(), 1e-6 * lambda_ref.norm());
}

TEST(MfemStep, PaperVariantIterationIsNewtonOnTheKktSystemWithoutConstraintCurvature) {
  expect_newton_on_the_kkt_system(MixedVariant::paper);
}

TEST(MfemStep, CurvatureVariantIterationIsNewtonOnTheKktSystemWithConstraintCurvature) {
  expect_newton_on_the_kkt_system(MixedVariant::curvature);
}

TEST(MfemStep, AConvergedStepIsAStationaryPointOfTheLagrangian) {
  const BoxModel model = make_box_model(test::small_box());
  SolverSettings settings = mfem_settings();
  settings.until_converged = true;
  settings.iterations = 100;
  settings.relative_tolerance = 1e-12;
  Simulator simulator(model.model, settings);
  const int m = model.model.mode_count();
  const int C = model.model.cubature_count();
  const double h = settings.timestep;
  simulator.set_state(test::random_reduced(m, 0.05, 3u), test::random_reduced(m, 0.5, 4u));
  const Eigen::VectorXd predicted = flatten(simulator.coordinates() + h * simulator.velocities());
  const StepReport& report = simulator.step();
  ASSERT_TRUE(report.ok);
  EXPECT_TRUE(report.stats.converged);

  const test::Reference reference(model, settings.material_model, h, settings.gravity, predicted);
  const Eigen::VectorXd u = flatten(simulator.coordinates());
  const StretchField& z = simulator.stretches();
  const StretchField& lambda = simulator.multipliers();
  const Vector6<double> metric = polar::stretch_metric<double>();
  // grad_u L = grad Psi_u + sum_c w_c J_c^T D lambda_c, J_c by finite differences.
  Eigen::VectorXd grad_u = reference.grad_psi_u(u);
  double constraint = 0.0, grad_z = 0.0, stress = 0.0;
  for (int c = 0; c < C; ++c) {
    const double w = reference.weight(c);
    grad_u += w * reference.dstretch_du(c, u).transpose() *
              metric.cwiseProduct(Vector6<double>(lambda.col(c)));
    constraint = std::max(constraint, (reference.stretch(c, u) - z.col(c)).cwiseAbs().maxCoeff());
    const Vector6<double> grad_psi = energies::fixed_corotational::dpsi_ds(
        Vector6<double>(z.col(c)), reference.lame[static_cast<std::size_t>(c)]);
    grad_z = std::max(
        grad_z,
        (grad_psi - metric.cwiseProduct(Vector6<double>(lambda.col(c)))).cwiseAbs().maxCoeff());
    stress = std::max(stress, grad_psi.cwiseAbs().maxCoeff());
  }
  const double force_scale = (reference.hessian_psi_u() * (u - predicted)).norm();
  EXPECT_LT(grad_u.norm(), 1e-6 * force_scale);
  EXPECT_LT(constraint, 1e-9);
  EXPECT_LT(grad_z, 1e-9 * stress);
}

// Entries of U up to 0.3: strains of tens of percent, where the first-order model of s(F) fails.
constexpr double kDeformation = 0.3;

// The step must not trust the constraint's linearization beyond its reach (mfem_step.hpp):
// starting on the constraint (z = s(F) at the prediction) with a large deformation and a stiff
// body, the Newton step overshoots into F where s(F) bends away from its first-order model.
// Where that happened, the trial is refused and a shorter step taken, so in every tet the
// violation the step leaves, s(F_new) - z_new (the model's error, as g was 0), stays within
// the size of the model's own change z_new - z.
TEST(MfemStep, NoStepLeavesTheConstraintLinearizationFartherThanItMoved) {
  const BoxModel model = make_box_model(test::small_box());
  SolverSettings settings = mfem_settings();
  settings.iterations = 1;
  Simulator simulator(model.model, settings);
  const int m = model.model.mode_count();
  const int C = model.model.cubature_count();
  const double h = settings.timestep;

  SimulatorState start = simulator.snapshot();
  start.U = test::random_reduced(m, kDeformation, 5u);
  start.Udot.setZero();
  const Eigen::VectorXd predicted = flatten(start.U);
  const test::Reference reference(model, settings.material_model, h, settings.gravity, predicted);
  for (int c = 0; c < C; ++c) start.z.col(c) = reference.stretch(c, predicted);
  consistent_multipliers(settings.material_model, reference.lame, start.z, start.lambda);
  simulator.restore(start);

  const StepReport& report = simulator.step();
  ASSERT_TRUE(report.ok);
  const Eigen::VectorXd u = flatten(simulator.coordinates());
  double worst = 0.0;
  for (int c = 0; c < C; ++c) {
    const double left =
        (reference.stretch(c, u) - simulator.stretches().col(c)).cwiseAbs().maxCoeff();
    const double moved = (simulator.stretches().col(c) - start.z.col(c)).cwiseAbs().maxCoeff();
    worst = std::max(worst, left / std::max(moved, kLinearizationFloor));
  }
  // Without the refusal the Armijo search alone accepts alpha = 1/8 here, which leaves 2.1
  // times what it moved (0.38 with it, after 4 halvings).
  EXPECT_LE(worst, kLinearizationTrust * (1.0 + 1e-9))
      << "violation left / stretch moved, worst tet; " << report.stats.backtracks << " backtracks";
}

}  // namespace
}  // namespace smfem::sim
