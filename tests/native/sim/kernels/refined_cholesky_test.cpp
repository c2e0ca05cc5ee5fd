// The float factor refined in double: the solve reaches its target residual in float where A's
// condition allows, and is double's where float's rounding breaks a pivot or where the
// corrections fall short.
#include "smfem/sim/kernels/refined_cholesky.hpp"

#include <random>

#include <gtest/gtest.h>
#include <Eigen/Cholesky>

namespace smfem::sim {
namespace {

using Sparse = Eigen::SparseMatrix<double>;

// The lower triangle of a dense symmetric matrix.
Sparse lower_of(const Eigen::MatrixXd& A) {
  return Eigen::MatrixXd(A.triangularView<Eigen::Lower>()).sparseView();
}

// A grid's 5-point Laplacian plus `mass` on the diagonal (condition number about 8 / mass).
Eigen::MatrixXd grid_laplacian(int n, double mass) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n * n, n * n);
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const int i = x + n * y;
      A(i, i) += mass;
      for (const auto& [dx, dy] : {std::pair{1, 0}, std::pair{0, 1}}) {
        if (x + dx >= n || y + dy >= n) continue;
        const int j = x + dx + n * (y + dy);
        A(i, i) += 1.0;
        A(j, j) += 1.0;
        A(i, j) -= 1.0;
        A(j, i) -= 1.0;
      }
    }
  }
  return A;
}

Eigen::VectorXd random_vector(int n, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Eigen::VectorXd b(n);
  for (int i = 0; i < n; ++i) b(i) = value(random);
  return b;
}

TEST(RefinedCholesky, ReachesItsTargetInFloatWhereTheConditionAllows) {
  // Conditions of about 8e1 to 8e5: float's own solve is off by up to about 1e-2, the corrections
  // bring the residual under 1e-6 of b's.
  for (const double mass : {1e-1, 1e-3, 1e-5}) {
    const Eigen::MatrixXd A = grid_laplacian(12, mass);
    const Sparse lower = lower_of(A);
    RefinedCholesky cholesky;
    cholesky.analyze(lower);
    ASSERT_TRUE(cholesky.factor(lower));
    const Eigen::VectorXd b = random_vector(static_cast<int>(A.rows()), 1u);
    Eigen::VectorXd x;
    cholesky.solve(b, x);
    EXPECT_FALSE(cholesky.in_double()) << mass;
    EXPECT_LE((b - A * x).norm(), RefinedCholesky::kTargetResidual * b.norm()) << mass;
  }
}

// [[1, a], [a, 1]] factored: whether its solves were double's after the factor and after a solve,
// and the solve's error relative to Eigen's dense one.
struct TwoByTwo {
  bool in_double_after_factor = false, in_double_after_solve = false;
  double error = 0.0;
};

TwoByTwo solve_two_by_two(double a) {
  const Eigen::MatrixXd A{{1.0, a}, {a, 1.0}};
  const Sparse lower = lower_of(A);
  RefinedCholesky cholesky;
  cholesky.analyze(lower);
  TwoByTwo out;
  EXPECT_TRUE(cholesky.factor(lower));
  out.in_double_after_factor = cholesky.in_double();
  const Eigen::Vector2d b(1.0, -0.5);
  Eigen::VectorXd x;
  cholesky.solve(b, x);
  out.in_double_after_solve = cholesky.in_double();
  const Eigen::VectorXd expected = A.llt().solve(b);
  out.error = (x - expected).norm() / expected.norm();
  return out;
}

TEST(RefinedCholesky, SolvesInDoubleWhereFloatCannotFactor) {
  // a = 1 - 1e-9 rounds to 1 in float, whose factor is then singular.
  const TwoByTwo solved = solve_two_by_two(1.0 - 1e-9);
  EXPECT_TRUE(solved.in_double_after_factor);
  EXPECT_LT(solved.error, 1e-5);  // cond 2e9: double's own accuracy
}

TEST(RefinedCholesky, SolvesInDoubleWhereTheCorrectionsFallShort) {
  // a = 1 - 1e-7 rounds to 1 - 2^-23 in float: its factor holds the small eigenvalue (2e-7) 19 %
  // too large, so each correction shrinks the residual by only about a fifth.
  const TwoByTwo solved = solve_two_by_two(1.0 - 1e-7);
  EXPECT_FALSE(solved.in_double_after_factor);
  EXPECT_TRUE(solved.in_double_after_solve);
  EXPECT_LT(solved.error, 1e-8);
}

TEST(RefinedCholesky, RefusesWhatIsNotPositiveDefinite) {
  const Eigen::MatrixXd A{{1.0, 2.0}, {2.0, 1.0}};
  const Sparse lower = lower_of(A);
  RefinedCholesky cholesky;
  cholesky.analyze(lower);
  EXPECT_FALSE(cholesky.factor(lower));
}

}  // namespace
}  // namespace smfem::sim
