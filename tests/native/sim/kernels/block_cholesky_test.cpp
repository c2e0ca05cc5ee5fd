#include "smfem/sim/kernels/block_cholesky.hpp"

#include <limits>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Cholesky>

namespace smfem::sim {
namespace {

// A symmetric positive definite matrix of blocks of the given sizes, coupled where `couplings`
// says and zero elsewhere, loaded into `system` through its block views (lower part only), with
// the upper triangle of its diagonal blocks poisoned (never read). Returns the dense matrix.
Eigen::MatrixXd load_random(BlockCholesky& system, const std::vector<int>& sizes,
                            const std::vector<std::pair<int, int>>& couplings) {
  std::vector<int> first = {0};
  for (const int size : sizes) first.push_back(first.back() + size);
  const int n = first.back();
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  for (std::size_t b = 0; b < sizes.size(); ++b) {
    const Eigen::MatrixXd R = Eigen::MatrixXd::Random(sizes[b], sizes[b]);
    A.block(first[b], first[b], sizes[b], sizes[b]) =
        R * R.transpose() + 2.0 * sizes[b] * Eigen::MatrixXd::Identity(sizes[b], sizes[b]);
  }
  // Coupling blocks small enough to keep A diagonally dominant enough to be positive definite.
  for (const auto& [a, b] : couplings) {
    const auto low = static_cast<std::size_t>(std::min(a, b));
    const auto high = static_cast<std::size_t>(std::max(a, b));
    const Eigen::MatrixXd C = 0.5 * Eigen::MatrixXd::Random(sizes[high], sizes[low]);
    A.block(first[high], first[low], sizes[high], sizes[low]) = C;
    A.block(first[low], first[high], sizes[low], sizes[high]) = C.transpose();
  }
  system.set_structure(sizes, couplings);
  system.set_zero();
  for (std::size_t b = 0; b < sizes.size(); ++b) {
    BlockCholesky::BlockView diagonal = system.block(first[b], first[b], sizes[b], sizes[b]);
    diagonal.triangularView<Eigen::Lower>() = A.block(first[b], first[b], sizes[b], sizes[b]);
    diagonal.triangularView<Eigen::StrictlyUpper>().setConstant(
        std::numeric_limits<double>::quiet_NaN());
  }
  for (const auto& [a, b] : couplings) {
    const auto low = static_cast<std::size_t>(std::min(a, b));
    const auto high = static_cast<std::size_t>(std::max(a, b));
    // In two pieces: a view may be any part of a block.
    const int half = sizes[low] / 2;
    system.block(first[high], first[low], sizes[high], half) =
        A.block(first[high], first[low], sizes[high], half);
    system.block(first[high], first[low] + half, sizes[high], sizes[low] - half) =
        A.block(first[high], first[low] + half, sizes[high], sizes[low] - half);
  }
  return A;
}

Eigen::VectorXd solve(BlockCholesky& system, const Eigen::VectorXd& b,
                      parallel::ThreadPool* pool = nullptr) {
  EXPECT_TRUE(system.factor(pool));
  Eigen::VectorXd x = b;
  system.solve_in_place(x);
  return x;
}

// Patterns an island's contact graph gives: none, a chain, a star, a ring (fill), every pair,
// random ones; blocks of a body's 12m unknowns and others, multiples of 4 across the tiles.
TEST(BlockCholesky, SolvesLikeEigensLltOfTheWholeMatrix) {
  std::mt19937 random(7);
  struct Case {
    std::vector<int> sizes;
    std::vector<std::pair<int, int>> couplings;
  };
  std::vector<Case> cases = {
      {{96}, {}},
      {{96, 96, 96}, {}},
      {{12, 36, 96, 4}, {{0, 1}, {1, 2}, {2, 3}}},
      {{40, 8, 44, 32, 96}, {{0, 4}, {1, 4}, {2, 4}, {3, 4}}},
      {{4, 4, 4, 4, 4}, {{4, 0}, {0, 1}, {1, 2}, {2, 3}, {3, 4}}},
      {{24, 48, 72, 96}, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}},
  };
  for (int trial = 0; trial < 4; ++trial) {
    Case random_case;
    const int count = 12;
    for (int b = 0; b < count; ++b) random_case.sizes.push_back(12 * (1 + int(random() % 8)));
    for (int a = 0; a < count; ++a) {
      for (int b = a + 1; b < count; ++b) {
        if (random() % 5 == 0) random_case.couplings.emplace_back(b, a);
      }
    }
    cases.push_back(random_case);
  }
  BlockCholesky system;  // reused across patterns, as a scene's solver is
  for (const Case& c : cases) {
    const Eigen::MatrixXd A = load_random(system, c.sizes, c.couplings);
    const Eigen::VectorXd b = Eigen::VectorXd::Random(A.rows());
    ASSERT_EQ(system.size(), A.rows());
    const Eigen::VectorXd x = solve(system, b);
    const Eigen::VectorXd expected = A.llt().solve(b);
    EXPECT_LT((x - expected).norm(), 1e-12 * expected.norm())
        << c.sizes.size() << " blocks, " << c.couplings.size() << " couplings";
    EXPECT_LT((A * x - b).norm(), 1e-12 * b.norm());
    // The diagonal is A's, and factoring again gives the same bits.
    EXPECT_EQ(system.diagonal(), A.diagonal());
    EXPECT_EQ(solve(system, b), x);
  }
}

// An island of 30 bodies in a pile's pattern, on a pool: the same bits as on the caller's thread
// alone. Bodies of 96 unknowns (8 modes), and of mixed sizes, whose panels' rows split between
// the threads in runs that end on a partial tile.
TEST(BlockCholesky, OnAPoolGivesTheSameBitsAsAlone) {
  ASSERT_GE(parallel::ThreadPool(2).thread_count(), 2) << "a pool of one thread checks nothing";
  std::vector<std::pair<int, int>> couplings;
  for (int b = 0; b < 30; ++b) {
    if (b + 1 < 30 && b % 5 != 4) couplings.emplace_back(b, b + 1);  // rows of five
    if (b + 5 < 30) couplings.emplace_back(b, b + 5);                // on the row below
  }
  std::vector<int> mixed(30);
  for (int b = 0; b < 30; ++b) mixed[static_cast<std::size_t>(b)] = 92 + 4 * (b % 4);
  for (const std::vector<int>& sizes : {std::vector<int>(30, 96), mixed}) {
    BlockCholesky system;
    const Eigen::MatrixXd A = load_random(system, sizes, couplings);
    const Eigen::VectorXd b = Eigen::VectorXd::Random(A.rows());
    const Eigen::VectorXd alone = solve(system, b);
    EXPECT_LT((A * alone - b).norm(), 1e-12 * b.norm());
    parallel::ThreadPool pool(2);
    EXPECT_EQ(solve(system, b, &pool), alone);
  }
}

// Two chains of bodies that meet only at a cluster of four, eliminated chain by chain, the
// cluster last: the chains are independent subtrees of the elimination tree, factored side by
// side on a pool, and give the same bits as the factorization alone. A pivot that fails within a
// subtree fails the factorization.
TEST(BlockCholesky, FactorsIndependentSubtreesSideBySideWithTheSameBits) {
  ASSERT_GE(parallel::ThreadPool(2).thread_count(), 2) << "a pool of one thread checks nothing";
  constexpr int kChain = 12, kCluster = 4, kBlocks = 2 * kChain + kCluster;
  std::vector<std::pair<int, int>> couplings;
  for (int chain = 0; chain < 2; ++chain) {
    const int first = chain * kChain;
    for (int b = first; b + 1 < first + kChain; ++b) couplings.emplace_back(b, b + 1);
    couplings.emplace_back(first + kChain - 1, 2 * kChain);
  }
  for (int b = 2 * kChain; b + 1 < kBlocks; ++b) couplings.emplace_back(b, b + 1);
  std::vector<int> mixed(kBlocks);
  for (int b = 0; b < kBlocks; ++b) mixed[static_cast<std::size_t>(b)] = 92 + 4 * (b % 4);
  parallel::ThreadPool pool(2);
  for (const std::vector<int>& sizes : {std::vector<int>(kBlocks, 96), mixed}) {
    BlockCholesky system;
    const Eigen::MatrixXd A = load_random(system, sizes, couplings);
    const Eigen::VectorXd b = Eigen::VectorXd::Random(A.rows());
    const Eigen::VectorXd alone = solve(system, b);
    EXPECT_EQ(system.columns_side_by_side(), 0);
    EXPECT_LT((A * alone - b).norm(), 1e-12 * b.norm());
    EXPECT_EQ(solve(system, b, &pool), alone);
    // Both chains, at least (a chain's last bodies may join the columns above).
    EXPECT_GE(system.columns_side_by_side(), kChain);
  }
  BlockCholesky system;
  const std::vector<int> sizes(kBlocks, 48);
  const Eigen::MatrixXd A = load_random(system, sizes, couplings);
  system.block(48 * (kChain + 3), 48 * (kChain + 3), 1, 1)(0, 0) = -1.0;  // in the second chain
  EXPECT_FALSE(system.factor(&pool));
  EXPECT_GE(system.columns_side_by_side(), kChain);
  EXPECT_FALSE(system.factor());
  // Restored, the same system factors again on the pool, to the same bits as alone.
  system.block(48 * (kChain + 3), 48 * (kChain + 3), 1, 1)(0, 0) =
      A(48 * (kChain + 3), 48 * (kChain + 3));
  const Eigen::VectorXd b = Eigen::VectorXd::Random(A.rows());
  const Eigen::VectorXd alone = solve(system, b);
  EXPECT_EQ(solve(system, b, &pool), alone);
}

// Random contact graphs of 16 bodies, often several islands' worth (a forest of elimination
// trees), with fill: the same bits on a pool as alone, and some of them factored side by side.
TEST(BlockCholesky, RandomPatternsOnAPoolGiveTheSameBitsAsAlone) {
  ASSERT_GE(parallel::ThreadPool(2).thread_count(), 2) << "a pool of one thread checks nothing";
  parallel::ThreadPool pool(2);
  std::mt19937 random(11);
  BlockCholesky system;
  int split = 0;
  for (int trial = 0; trial < 8; ++trial) {
    const int count = 16;
    std::vector<int> sizes;
    std::vector<std::pair<int, int>> couplings;
    for (int b = 0; b < count; ++b) sizes.push_back(48 + 12 * int(random() % 5));
    for (int a = 0; a < count; ++a) {
      for (int b = a + 1; b < count; ++b) {
        if (random() % 8 == 0) couplings.emplace_back(a, b);
      }
    }
    const Eigen::MatrixXd A = load_random(system, sizes, couplings);
    const Eigen::VectorXd b = Eigen::VectorXd::Random(A.rows());
    const Eigen::VectorXd alone = solve(system, b);
    EXPECT_LT((A * alone - b).norm(), 1e-12 * b.norm());
    EXPECT_EQ(solve(system, b, &pool), alone) << "trial " << trial;
    split += system.columns_side_by_side() > 0 ? 1 : 0;
  }
  EXPECT_GE(split, 4) << "too few patterns factored side by side to check anything";
}

TEST(BlockCholesky, RefusesIndefiniteAndNonFiniteMatricesAndRecovers) {
  BlockCholesky system;
  const std::vector<int> sizes = {8, 12};
  system.set_structure(sizes, {{0, 1}});
  system.set_zero();
  system.add_to_diagonal(Eigen::VectorXd::Ones(20));
  system.block(8, 0, 1, 1)(0, 0) = 2.0;  // with A(0, 0) = A(8, 8) = 1: indefinite
  EXPECT_FALSE(system.factor());
  system.block(8, 0, 1, 1)(0, 0) = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(system.factor());
  system.block(8, 0, 1, 1)(0, 0) = 0.5;
  EXPECT_TRUE(system.factor());
  Eigen::VectorXd x = Eigen::VectorXd::Ones(20);
  system.solve_in_place(x);
  EXPECT_NEAR(x(0), 1.0 / 1.5, 1e-15);
  EXPECT_NEAR(x(8), 1.0 / 1.5, 1e-15);
  EXPECT_EQ(x(19), 1.0);
}

TEST(BlockCholesky, RefusesViewsOfBlocksItDoesNotStore) {
  BlockCholesky system;
  system.set_structure({8, 8, 8}, {{0, 2}});
  EXPECT_NO_THROW(system.block(16, 0, 8, 8));
  EXPECT_THROW(system.block(8, 0, 8, 8), std::out_of_range);   // not coupled
  EXPECT_THROW(system.block(0, 16, 8, 8), std::out_of_range);  // above the diagonal
  EXPECT_THROW(system.block(4, 0, 8, 8), std::out_of_range);   // across two blocks
  EXPECT_THROW(system.block(-4, 0, 4, 4), std::out_of_range);
  EXPECT_THROW(system.set_structure({8, 6}, {}), std::invalid_argument);
  EXPECT_THROW(system.set_structure({8, 8}, {{0, 2}}), std::out_of_range);
  EXPECT_THROW(system.set_structure({8, 8}, {{-1, 1}}), std::out_of_range);
}

}  // namespace
}  // namespace smfem::sim
