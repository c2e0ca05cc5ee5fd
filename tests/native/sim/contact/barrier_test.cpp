// The barrier and friction kernels against finite differences, and their defining properties.
#include "smfem/sim/contact/barrier.hpp"

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>
#include <cstdlib>

#include "smfem/sim/contact/friction.hpp"

namespace smfem::contact {
namespace {

TEST(Barrier, DerivativesMatchFiniteDifferences) {
  const double dhat = 1e-3;
  for (const double d : {1e-6, 1e-5, 1e-4, 3e-4, 7e-4, 9.9e-4}) {
    const double h = 1e-6 * d;
    const double fd1 = (barrier(d + h, dhat) - barrier(d - h, dhat)) / (2 * h);
    const double fd2 =
        (barrier_derivative(d + h, dhat) - barrier_derivative(d - h, dhat)) / (2 * h);
    EXPECT_NEAR(barrier_derivative(d, dhat), fd1, 1e-6 * std::abs(fd1) + 1e-12) << d;
    EXPECT_NEAR(barrier_second_derivative(d, dhat), fd2, 1e-6 * std::abs(fd2) + 1e-9) << d;
  }
}

TEST(Barrier, ClampedSmoothlyAndInfiniteAtContact) {
  const double dhat = 0.01;
  EXPECT_EQ(barrier(dhat, dhat), 0.0);
  EXPECT_EQ(barrier(2 * dhat, dhat), 0.0);
  // b, b' and b'' vanish at dhat from below (C2).
  EXPECT_NEAR(barrier(dhat * (1 - 1e-6), dhat), 0.0, 1e-15);
  EXPECT_NEAR(barrier_derivative(dhat * (1 - 1e-6), dhat), 0.0, 1e-12);
  EXPECT_NEAR(barrier_second_derivative(dhat * (1 - 1e-6), dhat), 0.0, 1e-5);
  EXPECT_EQ(barrier(0.0, dhat), std::numeric_limits<double>::infinity());
  EXPECT_EQ(barrier(-1.0, dhat), std::numeric_limits<double>::infinity());
  for (double d = 1e-5; d < dhat; d *= 1.7) {
    EXPECT_LT(barrier_derivative(d, dhat), 0.0);
    EXPECT_GT(barrier_second_derivative(d, dhat), 0.0);
  }
}

TEST(Friction, PotentialDerivativesMatchFiniteDifferences) {
  const double eps = 1e-3;
  for (const Eigen::Vector2d& v : {Eigen::Vector2d(3e-4, -2e-4), Eigen::Vector2d(2e-3, 1e-3),
                                   Eigen::Vector2d(-9e-4, 1e-5), Eigen::Vector2d(1e-7, 0)}) {
    const auto f0 = [&](const Eigen::Vector2d& x) { return friction_f0(x.norm(), eps); };
    const double h = 1e-9;
    for (int i = 0; i < 2; ++i) {
      const Eigen::Vector2d e = Eigen::Vector2d::Unit(i) * h;
      const double fd = (f0(v + e) - f0(v - e)) / (2 * h);
      EXPECT_NEAR(friction_gradient(v, eps)(i), fd, 1e-6) << v.transpose();
      const Eigen::Vector2d fd_row =
          (friction_gradient(v + e, eps) - friction_gradient(v - e, eps)) / (2 * h);
      EXPECT_LT((friction_hessian(v, eps).col(i) - fd_row).norm(),
                1e-5 * friction_hessian(v, eps).norm() + 1e-6)
          << v.transpose();
    }
    // Positive semi-definite everywhere, and the force inside the Coulomb cone.
    EXPECT_GE(Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d>(friction_hessian(v, eps))
                  .eigenvalues()
                  .minCoeff(),
              -1e-9);
    EXPECT_LE(friction_gradient(v, eps).norm(), 1.0 + 1e-12);
  }
}

// The majorizer's quadratic touches the potential at v (value and gradient) and lies above it
// everywhere: within the static zone, beyond it and across it; the exact Hessian's does not.
TEST(Friction, TheMajorizersQuadraticLiesAboveThePotential) {
  const double eps = 1e-3;
  std::srand(3);
  int exact_below = 0;
  for (const Eigen::Vector2d& v : {Eigen::Vector2d(3e-4, -2e-4), Eigen::Vector2d(2e-3, 1e-3),
                                   Eigen::Vector2d(-9e-4, 1e-5), Eigen::Vector2d(1e-7, 0)}) {
    const double f = friction_f0(v.norm(), eps);
    const Eigen::Vector2d g = friction_gradient(v, eps);
    for (int trial = 0; trial < 200; ++trial) {
      const Eigen::Vector2d w =
          (trial == 0 ? -v : Eigen::Vector2d(5e-3 * Eigen::Vector2d::Random()));
      const Eigen::Vector2d d = w - v;
      const double actual = friction_f0(w.norm(), eps);
      EXPECT_LE(actual, f + g.dot(d) + 0.5 * d.dot(friction_majorizer(v, eps) * d) + 1e-15)
          << v.transpose() << " to " << w.transpose();
      exact_below += actual > f + g.dot(d) + 0.5 * d.dot(friction_hessian(v, eps) * d) ? 1 : 0;
    }
  }
  EXPECT_GT(exact_below, 0);
}

}  // namespace
}  // namespace smfem::contact
