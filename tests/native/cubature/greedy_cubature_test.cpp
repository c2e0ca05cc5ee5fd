#include "smfem/cubature/greedy_cubature.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

namespace smfem::cubature {
namespace {

// Forces-like data: b is a positive combination of all columns (as the body's force is of
// every tet's), so some weighting of all of them fits exactly.
struct Problem {
  Eigen::MatrixXd A;
  Eigen::VectorXd b;
};

Problem random_problem(Eigen::Index rows, Eigen::Index cols, unsigned seed) {
  std::mt19937 bits(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> volume(0.5, 1.5);
  Problem p{Eigen::MatrixXd(rows, cols), Eigen::VectorXd::Zero(rows)};
  for (Eigen::Index j = 0; j < cols; ++j) {
    for (Eigen::Index i = 0; i < rows; ++i) p.A(i, j) = normal(bits);
    p.b += volume(bits) * p.A.col(j);
  }
  return p;
}

TEST(GreedyCubature, FitsExactlyOnceEveryColumnMayBeUsed) {
  const Problem p = random_problem(60, 20, 1);
  const GreedyCubature fit = greedy_cubature(p.A, p.b, 20, 0.0);
  EXPECT_LT(fit.relative_residual, 1e-10);
  EXPECT_TRUE(fit.converged);
  EXPECT_GT(fit.weights.minCoeff(), 0.0);
  EXPECT_LT((p.A(Eigen::all, fit.columns) * fit.weights - p.b).norm(), 1e-10 * p.b.norm());
}

TEST(GreedyCubature, ResidualFallsAsTheCountGrowsAndColumnsAscend) {
  const Problem p = random_problem(80, 40, 2);
  double last = 1.0;
  for (int count = 1; count <= 40; count += 3) {
    const GreedyCubature fit = greedy_cubature(p.A, p.b, count, 0.0);
    SCOPED_TRACE(testing::Message() << "count " << count);
    EXPECT_EQ(fit.columns.size(), count);
    EXPECT_LE(fit.relative_residual, last);
    last = fit.relative_residual;
    for (Eigen::Index k = 1; k < fit.columns.size(); ++k)
      EXPECT_LT(fit.columns(k - 1), fit.columns(k));
    EXPECT_GT(fit.weights.minCoeff(), 0.0);
    EXPECT_NEAR(fit.relative_residual,
                (p.A(Eigen::all, fit.columns) * fit.weights - p.b).norm() / p.b.norm(), 1e-12);
  }
}

TEST(GreedyCubature, StopsAtTheToleranceOrWhenNoColumnHelps) {
  const Problem p = random_problem(60, 30, 3);
  const GreedyCubature loose = greedy_cubature(p.A, p.b, 30, 0.5);
  EXPECT_LE(loose.relative_residual, 0.5);
  EXPECT_LT(loose.columns.size(), 30);
  // b opposite to every column: nothing non-negative helps, the empty set is optimal.
  const Eigen::MatrixXd positive = p.A.cwiseAbs();
  const GreedyCubature none = greedy_cubature(positive, -positive.rowwise().sum(), 5, 0.0);
  EXPECT_EQ(none.columns.size(), 0);
  EXPECT_EQ(none.relative_residual, 1.0);
  EXPECT_TRUE(none.converged);
}

TEST(GreedyCubature, RefusesBadInput) {
  const Problem p = random_problem(10, 4, 4);
  EXPECT_THROW(greedy_cubature(p.A, p.b.head(9), 2, 0.0), std::invalid_argument);
  EXPECT_THROW(greedy_cubature(p.A, p.b, 0, 0.0), std::invalid_argument);
  EXPECT_THROW(greedy_cubature(p.A, p.b, 2, -1.0), std::invalid_argument);
  EXPECT_THROW(greedy_cubature(Eigen::MatrixXd(10, 0), p.b, 2, 0.0), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::cubature
