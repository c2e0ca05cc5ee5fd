// The FEM baseline against an independent reference (reference.hpp): the reference's gradient
// against finite differences of the energy, one iteration against Newton with the finite-
// difference Hessian (where the PSD projection is inactive), and a converged step's gradient.
#include "smfem/sim/step/fem_step.hpp"

#include <random>

#include <gtest/gtest.h>
#include <Eigen/Cholesky>

#include "sim/reference.hpp"
#include "sim/test_model.hpp"
#include "smfem/sim/simulator.hpp"

namespace smfem::sim {
namespace {

using test::flatten;

SolverSettings fem_settings() {
  SolverSettings settings;
  settings.method = SolverMethod::fem;
  settings.material_model = MaterialModel::fixed_corotational;
  settings.timestep = 1.0 / 60.0;
  settings.gravity = Eigen::Vector3d(0.0, -9.81, 0.0);
  return settings;
}

// A uniform expansion by 5 % (mode 0 carries the affine map of X) plus a small perturbation:
// every singular value near 1.05, where no eigenvalue of d2psi/dF2 is negative, so the PSD
// projection changes nothing and the solver's Hessian is the true one.
ReducedMatrix expanded(int m, unsigned seed) {
  ReducedMatrix U = test::random_reduced(m, 1e-3, seed);
  for (int d = 0; d < 3; ++d) U(d, d) += 0.05;
  return U;
}

TEST(FemStep, ReferenceGradientMatchesFiniteDifferences) {
  const BoxModel model = make_box_model(test::small_box());
  const SolverSettings settings = fem_settings();
  const int m = model.model.mode_count();
  const Eigen::VectorXd predicted = flatten(expanded(m, 5u));
  const test::Reference reference(model, settings.material_model, settings.timestep,
                                  settings.gravity, predicted);
  const Eigen::VectorXd u = flatten(test::random_reduced(m, 0.05, 6u));
  const Eigen::VectorXd gradient = reference.fem_gradient(u);
  std::mt19937 generator(7u);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 5; ++trial) {
    Eigen::VectorXd direction(u.size());
    for (Eigen::Index i = 0; i < u.size(); ++i) direction(i) = normal(generator);
    const double h = 1e-5;
    const double fd =
        (-reference.fem_energy(u + 2 * h * direction) +
         8 * reference.fem_energy(u + h * direction) - 8 * reference.fem_energy(u - h * direction) +
         reference.fem_energy(u - 2 * h * direction)) /
        (12 * h);
    EXPECT_NEAR(fd, gradient.dot(direction), 1e-6 * std::abs(fd));
  }
}

TEST(FemStep, OneIterationIsNewtonOnTheEnergy) {
  const BoxModel model = make_box_model(test::small_box());
  SolverSettings settings = fem_settings();
  settings.iterations = 1;
  settings.max_backtracks = 0;
  Simulator simulator(model.model, settings);
  const int m = model.model.mode_count();
  const double h = settings.timestep;
  simulator.set_state(expanded(m, 8u), test::random_reduced(m, 0.01, 9u));
  const Eigen::VectorXd predicted = flatten(simulator.coordinates() + h * simulator.velocities());
  const StepReport& report = simulator.step();
  ASSERT_TRUE(report.ok);
  ASSERT_EQ(report.stats.iterations, 1);
  ASSERT_EQ(report.stats.line_search_failures, 0) << "the full step was not accepted";

  const test::Reference reference(model, settings.material_model, h, settings.gravity, predicted);
  const Eigen::MatrixXd hessian = reference.fem_hessian(predicted);
  const Eigen::VectorXd du_ref = -hessian.llt().solve(reference.fem_gradient(predicted));
  const Eigen::VectorXd du = flatten(simulator.coordinates()) - predicted;
  EXPECT_LT((du - du_ref).norm(), 1e-6 * du_ref.norm());
  // The reported decrement is du^T (H_u + K) du.
  EXPECT_NEAR(report.stats.decrement, std::sqrt(du_ref.dot(hessian * du_ref)),
              1e-6 * report.stats.decrement);
}

TEST(FemStep, AConvergedStepIsStationary) {
  const BoxModel model = make_box_model(test::small_box());
  SolverSettings settings = fem_settings();
  settings.until_converged = true;
  settings.iterations = 100;
  settings.relative_tolerance = 1e-12;
  Simulator simulator(model.model, settings);
  const int m = model.model.mode_count();
  const double h = settings.timestep;
  simulator.set_state(test::random_reduced(m, 0.05, 10u), test::random_reduced(m, 0.5, 11u));
  const Eigen::VectorXd predicted = flatten(simulator.coordinates() + h * simulator.velocities());
  const StepReport& report = simulator.step();
  ASSERT_TRUE(report.ok);
  EXPECT_TRUE(report.stats.converged);
  const test::Reference reference(model, settings.material_model, h, settings.gravity, predicted);
  const Eigen::VectorXd u = flatten(simulator.coordinates());
  const double force_scale = (reference.hessian_psi_u() * (u - predicted)).norm();
  EXPECT_LT(reference.fem_gradient(u).norm(), 1e-6 * force_scale);
}

}  // namespace
}  // namespace smfem::sim
