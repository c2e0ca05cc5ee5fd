#include "smfem/sim/kernels/spd_solver.hpp"

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

// A stiff row (1e10) next to a soft one (1) and a singular one: the soft row's shift is relative
// to its own diagonal, so its solution stays exact to 1e-9 (a shift relative to the mean
// diagonal, 3e9, would be 3e-3 there and change it by as much).
TEST(SpdSolver, ShiftsEachRowInProportionToItsOwnDiagonal) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(3, 3);
  A(0, 0) = 1e10;
  A(1, 1) = 1.0;
  Eigen::VectorXd x(3);
  SpdSolver solver(3);
  EXPECT_GE(solver.solve(A, Eigen::VectorXd::Ones(3), x), 1);
  EXPECT_NEAR(x(1), 1.0, 1e-9);
  EXPECT_NEAR(x(0) * 1e10, 1.0, 1e-9);
  EXPECT_TRUE(x.allFinite());
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

// The same schedule on a system of blocks (block_cholesky.hpp): a stiff row, a soft one and a
// singular one in three uncoupled blocks of four, each row shifted relative to its own diagonal.
TEST(SpdSolver, ShiftsASystemOfBlocksRowByRow) {
  BlockCholesky system;
  system.set_structure({4, 4, 4}, {{0, 2}});
  system.set_zero();
  Eigen::VectorXd diagonal = Eigen::VectorXd::Ones(12);
  diagonal.segment(0, 4).setConstant(1e10);
  diagonal(11) = 0.0;  // singular: the factorization fails until shifted
  system.add_to_diagonal(diagonal);
  Eigen::VectorXd x(12);
  EXPECT_GE(solve_shifted(system, Eigen::VectorXd::Ones(12), x), 1);
  EXPECT_TRUE(x.allFinite());
  EXPECT_NEAR(x(5), 1.0, 1e-9);
  EXPECT_NEAR(x(0) * 1e10, 1.0, 1e-9);
  system.set_zero();
  system.add_to_diagonal(-Eigen::VectorXd::Ones(12));
  EXPECT_EQ(solve_shifted(system, Eigen::VectorXd::Ones(12), x), -1);
}

}  // namespace
}  // namespace smfem::sim
