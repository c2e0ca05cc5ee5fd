#include "smfem/sim/kernels/dense_cholesky.hpp"

#include <limits>

#include <gtest/gtest.h>
#include <Eigen/Cholesky>

namespace smfem::sim {
namespace {

Eigen::MatrixXd random_spd(int n) {
  const Eigen::MatrixXd R = Eigen::MatrixXd::Random(n, n);
  return R * R.transpose() + n * Eigen::MatrixXd::Identity(n, n);
}

// x = A^-1 b with a factor of A (its lower triangle read), checked against Eigen's LLT of the
// symmetric matrix.
Eigen::VectorXd expect_solves_like_llt(DenseCholesky& cholesky, const Eigen::MatrixXd& A,
                                       const Eigen::MatrixXd& symmetric, const Eigen::VectorXd& b) {
  EXPECT_TRUE(cholesky.factor(A)) << "n = " << b.size();
  Eigen::VectorXd x = b;
  cholesky.solve_in_place(x);
  const Eigen::VectorXd expected = symmetric.llt().solve(b);
  EXPECT_LT((x - expected).norm(), 1e-12 * expected.norm()) << "n = " << b.size();
  return x;
}

// Sizes below, at and across the panel (32) and the tiles (4 columns, 8 or 4 rows), and the
// paper's r = 192; the strictly upper triangle is poisoned (never read).
TEST(DenseCholesky, SolvesLikeEigensLltFromTheLowerTriangle) {
  for (const int n : {1, 3, 4, 7, 31, 32, 33, 45, 70, 192}) {
    Eigen::MatrixXd A = random_spd(n);
    const Eigen::MatrixXd symmetric = A;
    A.triangularView<Eigen::StrictlyUpper>().setConstant(std::numeric_limits<double>::quiet_NaN());
    const Eigen::VectorXd b = Eigen::VectorXd::Random(n);
    DenseCholesky cholesky(n);
    const Eigen::VectorXd x = expect_solves_like_llt(cholesky, A, symmetric, b);
    EXPECT_LT((symmetric * x - b).norm(), 1e-12 * b.norm()) << "n = " << n;
    // Factoring again (the buffers hold the last factor) gives the same bits.
    ASSERT_TRUE(cholesky.factor(A));
    Eigen::VectorXd again = b;
    cholesky.solve_in_place(again);
    EXPECT_EQ(again, x) << "n = " << n;
  }
}

// A large factor shared among a pool's threads: the same bits as on the caller's thread alone,
// and the solve of Eigen's LLT.
TEST(DenseCholesky, OnAPoolGivesTheSameBitsAsAlone) {
  const int n = 600;
  const Eigen::MatrixXd A = random_spd(n);
  const Eigen::VectorXd b = Eigen::VectorXd::Random(n);
  DenseCholesky alone(n);
  const Eigen::VectorXd x = expect_solves_like_llt(alone, A, A, b);
  parallel::ThreadPool pool(2);
  DenseCholesky shared(n);
  ASSERT_TRUE(shared.factor(A, &pool));
  Eigen::VectorXd y = b;
  shared.solve_in_place(y);
  EXPECT_EQ(x, y);
}

// A factorization that fails on a non-finite entry leaves nothing behind: the next one gives the
// bits of a fresh factor object.
TEST(DenseCholesky, AFailedFactorizationDoesNotTaintTheNext) {
  const int n = 70;
  Eigen::MatrixXd bad = random_spd(n);
  bad(40, 0) = std::numeric_limits<double>::infinity();  // below the first panel
  const Eigen::MatrixXd good = random_spd(n);
  const Eigen::VectorXd b = Eigen::VectorXd::Random(n);
  DenseCholesky reused(n);
  EXPECT_FALSE(reused.factor(bad));
  ASSERT_TRUE(reused.factor(good));
  Eigen::VectorXd x = b;
  reused.solve_in_place(x);
  DenseCholesky fresh(n);
  ASSERT_TRUE(fresh.factor(good));
  Eigen::VectorXd expected = b;
  fresh.solve_in_place(expected);
  EXPECT_EQ(x, expected);
}

TEST(DenseCholesky, RefusesIndefiniteSingularAndNonFiniteMatrices) {
  for (const int n : {5, 40}) {
    DenseCholesky cholesky(n);
    // Indefinite: a negative eigenvalue, with every diagonal entry positive.
    Eigen::MatrixXd A = Eigen::MatrixXd::Identity(n, n);
    A(n - 1, 0) = A(0, n - 1) = 2.0;
    EXPECT_FALSE(cholesky.factor(A)) << "n = " << n;
    // Singular, with the zero pivot in the last panel.
    A = Eigen::MatrixXd::Identity(n, n);
    A(n - 1, n - 1) = 0.0;
    EXPECT_FALSE(cholesky.factor(A)) << "n = " << n;
    A = Eigen::MatrixXd::Identity(n, n);
    A(n / 2, n / 2) = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(cholesky.factor(A)) << "n = " << n;
    A(n / 2, n / 2) = std::numeric_limits<double>::infinity();
    EXPECT_FALSE(cholesky.factor(A)) << "n = " << n;
    EXPECT_TRUE(cholesky.factor(random_spd(n))) << "n = " << n;
  }
}

}  // namespace
}  // namespace smfem::sim
