#include "smfem/cubature/nnls.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include <Eigen/QR>

namespace smfem::cubature {
namespace {

Eigen::MatrixXd random_matrix(Eigen::Index rows, Eigen::Index cols, unsigned seed) {
  std::mt19937 bits(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::MatrixXd A(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j) {
    for (Eigen::Index i = 0; i < rows; ++i) A(i, j) = normal(bits);
  }
  return A;
}

// x >= 0, and w = A^T (b - A x) is zero where x > 0 and at most zero where x = 0.
void expect_kkt(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, const NnlsResult& result) {
  ASSERT_EQ(result.x.size(), A.cols());
  EXPECT_TRUE(result.converged);
  EXPECT_GE(result.x.minCoeff(), 0.0);
  EXPECT_NEAR(result.residual, (A * result.x - b).norm(), 1e-12 * (1.0 + b.norm()));
  const Eigen::VectorXd w = A.transpose() * (b - A * result.x);
  const double scale = 1e-9 * A.norm() * b.norm();
  for (Eigen::Index j = 0; j < A.cols(); ++j) {
    if (result.x(j) > 0.0) {
      EXPECT_NEAR(w(j), 0.0, scale) << "variable " << j << " is free";
    } else {
      EXPECT_LE(w(j), scale) << "variable " << j << " is held at zero";
    }
  }
}

// The smallest residual over every support whose least-squares solution is non-negative: the
// NNLS optimum by exhaustion (n small).
double brute_force_residual(const Eigen::MatrixXd& A, const Eigen::VectorXd& b) {
  double best = b.norm();
  const Eigen::Index n = A.cols();
  for (unsigned mask = 1; mask < (1u << n); ++mask) {
    std::vector<Eigen::Index> columns;
    for (Eigen::Index j = 0; j < n; ++j) {
      if (mask & (1u << j)) columns.push_back(j);
    }
    const Eigen::MatrixXd A_s = A(Eigen::all, columns);
    const Eigen::VectorXd x = A_s.completeOrthogonalDecomposition().solve(b);
    if (x.minCoeff() >= 0.0) best = std::min(best, (A_s * x - b).norm());
  }
  return best;
}

TEST(Nnls, SatisfiesTheKktConditionsAndMatchesExhaustiveSearchOnRandomProblems) {
  struct Shape {
    Eigen::Index rows, cols;
  };
  unsigned seed = 1;
  for (const Shape shape : {Shape{30, 8}, Shape{8, 8}, Shape{5, 10}, Shape{60, 12}}) {
    for (int trial = 0; trial < 5; ++trial, ++seed) {
      const Eigen::MatrixXd A = random_matrix(shape.rows, shape.cols, seed);
      const Eigen::VectorXd b = random_matrix(shape.rows, 1, 1000 + seed);
      const NnlsResult result = nnls(A, b);
      SCOPED_TRACE(testing::Message() << shape.rows << " x " << shape.cols << ", seed " << seed);
      expect_kkt(A, b, result);
      EXPECT_NEAR(result.residual, brute_force_residual(A, b), 1e-10 * b.norm());
    }
  }
}

TEST(Nnls, FindsTheKnownSolutionOfMatlabsLsqnonnegExample) {
  // The example of MATLAB's lsqnonneg documentation: x = [0; 0.6929] (to four digits).
  Eigen::MatrixXd C(4, 2);
  C << 0.0372, 0.2869, 0.6861, 0.7071, 0.6233, 0.6245, 0.6344, 0.6170;
  const Eigen::Vector4d d(0.8587, 0.1781, 0.0747, 0.8405);
  const NnlsResult result = nnls(C, d);
  EXPECT_EQ(result.x(0), 0.0);
  EXPECT_NEAR(result.x(1), 0.6929, 5e-5);
  expect_kkt(C, d, result);
}

TEST(Nnls, RecoversANonNegativeSolutionWithZerosExactly) {
  const Eigen::MatrixXd A = random_matrix(20, 6, 7);
  Eigen::VectorXd x_true(6);
  x_true << 0.5, 0.0, 2.0, 0.0, 1e-3, 3.0;
  const NnlsResult result = nnls(A, A * x_true);
  EXPECT_LT((result.x - x_true).norm(), 1e-12 * x_true.norm());
  EXPECT_EQ(result.x(1), 0.0);
  EXPECT_EQ(result.x(3), 0.0);
}

TEST(Nnls, HandlesRankDeficientColumns) {
  // Columns 0 and 3 repeat, column 4 is 1 + 2 and column 5 is zero: the solution is not
  // unique, the optimum residual is.
  Eigen::MatrixXd A = random_matrix(12, 6, 11);
  A.col(3) = A.col(0);
  A.col(4) = A.col(1) + A.col(2);
  A.col(5).setZero();
  for (unsigned seed = 0; seed < 5; ++seed) {
    const Eigen::VectorXd b = random_matrix(12, 1, 200 + seed);
    const NnlsResult result = nnls(A, b);
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    expect_kkt(A, b, result);
    EXPECT_NEAR(result.residual, brute_force_residual(A, b), 1e-10 * b.norm());
    EXPECT_EQ(result.x(5), 0.0);
  }
}

TEST(Nnls, AWarmStartReachesTheSameOptimum) {
  const Eigen::MatrixXd A = random_matrix(40, 10, 3);
  const Eigen::VectorXd b = random_matrix(40, 1, 4);
  const NnlsResult cold = nnls(A, b);
  // From the optimum of the first 9 columns, as the greedy cubature starts after adding one.
  Eigen::VectorXd start = Eigen::VectorXd::Zero(10);
  start.head(9) = nnls(A.leftCols(9), b).x;
  const NnlsResult warm = nnls(A, b, start);
  expect_kkt(A, b, warm);
  EXPECT_NEAR(warm.residual, cold.residual, 1e-12 * b.norm());
  EXPECT_LE(warm.iterations, cold.iterations);
}

TEST(Nnls, ZeroRightHandSideGivesZero) {
  const NnlsResult result = nnls(random_matrix(5, 3, 9), Eigen::VectorXd::Zero(5));
  EXPECT_EQ(result.x, Eigen::VectorXd::Zero(3));
  EXPECT_EQ(result.residual, 0.0);
  EXPECT_TRUE(result.converged);
}

TEST(Nnls, RefusesBadSizesAndValues) {
  const Eigen::MatrixXd A = random_matrix(4, 3, 5);
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(4);
  const auto message = [](auto&& call) {
    try {
      call();
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string("no exception");
  };
  EXPECT_EQ(message([&] { nnls(A, Eigen::VectorXd::Ones(3)); }),
            "nnls: b has 3 entries for 4 rows of A");
  EXPECT_EQ(message([&] { nnls(Eigen::MatrixXd(4, 0), b); }), "nnls: A has no columns");
  EXPECT_EQ(message([&] { nnls(A, b, Eigen::VectorXd::Ones(2)); }),
            "nnls: the start has 2 entries for 3 columns");
  EXPECT_EQ(message([&] { nnls(A, b, -Eigen::VectorXd::Ones(3)); }),
            "nnls: the start must be finite and >= 0");
  Eigen::MatrixXd bad = A;
  bad(1, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(message([&] { nnls(bad, b); }), "nnls: A or b has a non-finite entry");
}

}  // namespace
}  // namespace smfem::cubature
