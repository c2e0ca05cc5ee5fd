#include "smfem/sim/spd_solver.hpp"

#include <limits>

#include <gtest/gtest.h>

namespace smfem::sim {
namespace {

TEST(SpdSolver, SolvesFromTheLowerTriangle) {
  const int n = 12;
  Eigen::MatrixXd A = Eigen::MatrixXd::Random(n, n);
  A = (A * A.transpose() + n * Eigen::MatrixXd::Identity(n, n)).eval();
  const Eigen::MatrixXd symmetric = A;
  A.triangularView<Eigen::StrictlyUpper>().setConstant(1e9);  // must not be read
  const Eigen::VectorXd b = Eigen::VectorXd::Random(n);
  Eigen::VectorXd x(n);
  SpdSolver solver(n);
  EXPECT_EQ(solver.solve(A, b, x), 0);
  EXPECT_LT((symmetric * x - b).norm(), 1e-12 * b.norm());
}

TEST(SpdSolver, ShiftsASemidefiniteMatrixAndCountsTheShifts) {
  const int n = 6;
  Eigen::MatrixXd A = Eigen::MatrixXd::Identity(n, n);
  A(5, 5) = 0.0;  // singular: Cholesky fails until shifted
  Eigen::VectorXd x(n);
  SpdSolver solver(n);
  const int shifts = solver.solve(A, Eigen::VectorXd::Ones(n), x);
  EXPECT_GE(shifts, 1);
  EXPECT_TRUE(x.allFinite());
  EXPECT_NEAR(x(0), 1.0, 1e-6);
}

TEST(SpdSolver, GivesUpOnNonFiniteOrNegativeMatrices) {
  const int n = 3;
  Eigen::VectorXd x(n);
  SpdSolver solver(n);
  Eigen::MatrixXd A = -Eigen::MatrixXd::Identity(n, n);
  EXPECT_EQ(solver.solve(A, Eigen::VectorXd::Ones(n), x), -1);
  A = Eigen::MatrixXd::Identity(n, n);
  A(1, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(solver.solve(A, Eigen::VectorXd::Ones(n), x), -1);
}

}  // namespace
}  // namespace smfem::sim
