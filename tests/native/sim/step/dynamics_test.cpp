#include "smfem/sim/step/dynamics.hpp"

#include <gtest/gtest.h>

#include "sim/test_model.hpp"

namespace smfem::sim {
namespace {

struct Fixture {
  BoxModel model = make_box_model();
  int n = 4 * model.model.mode_count();
  double h = 0.01;
  Dynamics dynamics{model.model.mass_block, h};
  ReducedMatrix U_n = test::random_reduced(model.model.mode_count(), 0.1, 1u);
  ReducedMatrix Udot_n = test::random_reduced(model.model.mode_count(), 1.0, 2u);
  ReducedMatrix force = test::random_reduced(model.model.mode_count(), 50.0, 3u);

  Fixture() {
    DragSpring spring;
    spring.basis = model.basis.row(5).transpose();
    spring.rest = model.rest.row(5).transpose();
    spring.target = spring.rest + Eigen::Vector3d(0.1, -0.2, 0.3);
    spring.stiffness = 500.0;
    dynamics.set_spring(spring);
    dynamics.begin_step(U_n, Udot_n, force);
  }
};

TEST(Dynamics, GradientAndCurvatureMatchTheEnergy) {
  Fixture f;
  const ReducedMatrix U = test::random_reduced(f.model.model.mode_count(), 0.1, 4u);
  const ReducedMatrix dU = test::random_reduced(f.model.model.mode_count(), 0.1, 5u);
  ReducedMatrix gradient(f.n, 3);
  f.dynamics.gradient(U, gradient);
  const double curvature = f.dynamics.curvature(dU);
  // Psi_u is quadratic: the expansion is exact up to rounding, at any step length.
  const double E0 = f.dynamics.energy(U);
  for (double alpha : {1e-3, 0.5, 2.0}) {
    const ReducedMatrix moved = U + alpha * dU;
    const double expected =
        alpha * gradient.cwiseProduct(dU).sum() + 0.5 * alpha * alpha * curvature;
    EXPECT_NEAR(f.dynamics.energy(moved) - E0, expected, 1e-9 * std::abs(E0));
  }
  // The minimizer without forces or springs is the prediction.
  f.dynamics.clear_spring();
  f.dynamics.begin_step(f.U_n, f.Udot_n, ReducedMatrix::Zero(f.n, 3));
  f.dynamics.gradient(f.U_n + f.h * f.Udot_n, gradient);
  EXPECT_LT(gradient.norm(), 1e-9 * (f.model.model.mass_block.norm() / (f.h * f.h)));
}

TEST(Dynamics, HessianBlockHoldsMassAndTheSpringOnlyWhenSet) {
  Fixture f;
  const Eigen::MatrixXd& mass = f.model.model.mass_block;
  const Eigen::VectorXd b = f.model.basis.row(5).transpose();
  EXPECT_LT((f.dynamics.hessian_block() - (mass / (f.h * f.h) + 500.0 * b * b.transpose())).norm(),
            1e-12 * f.dynamics.hessian_block().norm());
  f.dynamics.set_spring_target(Eigen::Vector3d(9, 9, 9));  // moving the target keeps H
  EXPECT_LT((f.dynamics.hessian_block() - (mass / (f.h * f.h) + 500.0 * b * b.transpose())).norm(),
            1e-12 * f.dynamics.hessian_block().norm());
  f.dynamics.clear_spring();
  EXPECT_LT((f.dynamics.hessian_block() - mass / (f.h * f.h)).norm(),
            1e-12 * f.dynamics.hessian_block().norm());
  f.dynamics.set_timestep(0.02);
  EXPECT_LT((f.dynamics.hessian_block() - mass / 0.0004).norm(),
            1e-12 * f.dynamics.hessian_block().norm());
}

}  // namespace
}  // namespace smfem::sim
