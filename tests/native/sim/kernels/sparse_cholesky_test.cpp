#include "smfem/sim/kernels/sparse_cholesky.hpp"

#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Cholesky>

namespace smfem::sim {
namespace {

using Sparse = Eigen::SparseMatrix<double>;

// A symmetric positive definite matrix on the pattern of `edges` between `nodes` nodes of
// `block` unknowns each (every node coupled to itself): random couplings, the diagonal made
// dominant. Returns its lower triangle.
Sparse random_spd(int nodes, int block, const std::vector<std::pair<int, int>>& edges,
                  unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  const int n = nodes * block;
  std::vector<Eigen::Triplet<double>> entries;
  Eigen::VectorXd row_sums = Eigen::VectorXd::Zero(n);
  const auto couple = [&](int a, int b) {
    for (int d = 0; d < block; ++d) {
      for (int e = 0; e < block; ++e) {
        const int i = block * a + d, j = block * b + e;
        if (i <= j) continue;  // the lower triangle; each node's own block below its diagonal
        const double v = value(random);
        entries.emplace_back(i, j, v);
        row_sums(i) += std::abs(v);
        row_sums(j) += std::abs(v);
      }
    }
  };
  for (int v = 0; v < nodes; ++v) couple(v, v);
  for (const auto& [a, b] : edges) couple(std::max(a, b), std::min(a, b));
  for (int i = 0; i < n; ++i) entries.emplace_back(i, i, row_sums(i) + 0.5 + value(random) * 0.25);
  Sparse lower(n, n);
  lower.setFromTriplets(entries.begin(), entries.end());
  return lower;
}

// The edges of a grid of nx x ny nodes, each node coupled to its neighbours within `reach`
// steps along each axis (1: a 9-point stencil; 2: 25 points, as plate bending couples a vertex's
// two rings).
std::vector<std::pair<int, int>> grid_edges(int nx, int ny, int reach) {
  std::vector<std::pair<int, int>> edges;
  for (int y = 0; y < ny; ++y) {
    for (int x = 0; x < nx; ++x) {
      for (int dy = 0; dy <= reach; ++dy) {
        for (int dx = -reach; dx <= reach; ++dx) {
          if ((dy == 0 && dx <= 0) || x + dx < 0 || x + dx >= nx || y + dy >= ny) continue;
          edges.emplace_back(x + nx * y, x + dx + nx * (y + dy));
        }
      }
    }
  }
  return edges;
}

Eigen::VectorXd dense_solution(const Sparse& lower, const Eigen::VectorXd& b) {
  const Eigen::MatrixXd A = Eigen::MatrixXd(lower).selfadjointView<Eigen::Lower>();
  return A.llt().solve(b);
}

// Both factors' solves, relative to the dense solution: double's to rounding, float's to about
// the condition number (at most a few hundred here) times float's rounding.
template <typename Real>
constexpr double kAccuracy = sizeof(Real) == 8 ? 1e-11 : 1e-4;

template <typename Real>
class SparseCholeskyOf : public testing::Test {};
using FactorTypes = testing::Types<float, double>;
TYPED_TEST_SUITE(SparseCholeskyOf, FactorTypes);

template <typename Real>
void expect_solves(const Sparse& lower, parallel::ThreadPool* pool = nullptr) {
  SparseCholesky<Real> cholesky;
  cholesky.analyze(lower);
  ASSERT_TRUE(cholesky.factor(lower, pool));
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(lower.rows(), -1.0, 2.0);
  Eigen::VectorXd x = b;
  cholesky.solve_in_place(x);
  const Eigen::VectorXd expected = dense_solution(lower, b);
  EXPECT_LT((x - expected).norm(), kAccuracy<Real> * expected.norm());
}

TYPED_TEST(SparseCholeskyOf, SolvesLikeADenseFactorOnManyPatterns) {
  const auto expect_solves = [](const Sparse& lower) {
    smfem::sim::expect_solves<TypeParam>(lower);
  };
  // One unknown; a diagonal; a chain; a star (an arrow: one node coupled to all); a ring.
  expect_solves(random_spd(1, 1, {}, 1));
  expect_solves(random_spd(7, 3, {}, 2));
  std::vector<std::pair<int, int>> chain, star, ring;
  for (int v = 0; v + 1 < 40; ++v) chain.emplace_back(v, v + 1);
  for (int v = 1; v < 40; ++v) star.emplace_back(0, v);
  ring = chain;
  ring.emplace_back(39, 0);
  expect_solves(random_spd(40, 1, chain, 3));
  expect_solves(random_spd(40, 3, star, 4));
  expect_solves(random_spd(40, 2, ring, 5));
  // Grids as meshes give them, with one and two rings of neighbours, of 1 and 3 unknowns a node.
  expect_solves(random_spd(12 * 9, 1, grid_edges(12, 9, 1), 6));
  expect_solves(random_spd(10 * 10, 3, grid_edges(10, 10, 2), 7));
  // A random graph: 150 nodes, 400 edges.
  std::mt19937 random(8);
  std::uniform_int_distribution<int> node(0, 149);
  std::vector<std::pair<int, int>> edges;
  while (edges.size() < 400) {
    const int a = node(random), b = node(random);
    if (a != b) edges.emplace_back(a, b);
  }
  expect_solves(random_spd(150, 2, edges, 9));
}

TYPED_TEST(SparseCholeskyOf, FactorsAgainWithNewValues) {
  const std::vector<std::pair<int, int>> edges = grid_edges(8, 8, 1);
  const Sparse first = random_spd(64, 3, edges, 10);
  Sparse second = random_spd(64, 3, edges, 11);  // the same pattern, other values
  SparseCholesky<TypeParam> cholesky;
  cholesky.analyze(first);
  ASSERT_TRUE(cholesky.factor(first));
  ASSERT_TRUE(cholesky.factor(second));
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(second.rows());
  Eigen::VectorXd x = b;
  cholesky.solve_in_place(x);
  const Eigen::VectorXd expected = dense_solution(second, b);
  EXPECT_LT((x - expected).norm(), kAccuracy<TypeParam> * expected.norm());
}

TEST(SparseCholesky, StoresFarLessThanADenseFactor) {
  // A 30 x 30 grid of 3 unknowns a node (2,700): L's dense triangle has 3.6e6 entries.
  const Sparse lower = random_spd(900, 3, grid_edges(30, 30, 1), 12);
  SparseCholesky<float> cholesky;
  cholesky.analyze(lower);
  EXPECT_LT(static_cast<double>(cholesky.stored_entries()), 0.15 * 2700.0 * 2701.0 / 2.0);
}

TYPED_TEST(SparseCholeskyOf, IsBitIdenticalOnAPoolAndStopsEveryThreadWhereAPivotFails) {
  // The factor and the solves.
  // Large enough that subtrees go to separate threads, fronts of the top are factored as tasks
  // and the last ones share their updates.
  const Sparse lower = random_spd(24 * 24, 3, grid_edges(24, 24, 2), 13);
  SparseCholesky<TypeParam> alone;
  alone.analyze(lower);
  ASSERT_TRUE(alone.factor(lower));
  Eigen::VectorXd expected = Eigen::VectorXd::LinSpaced(lower.rows(), 0.0, 1.0);
  const Eigen::VectorXd b = expected;
  alone.solve_in_place(expected);
  for (const int threads : {2, 3}) {
    parallel::ThreadPool pool(threads);
    SparseCholesky<TypeParam> shared;
    shared.analyze(lower);
    // A negative pivot in a subtree, in a task or in a shared front: refused, no thread left
    // waiting for a front that will never be done, and the next factor right.
    for (int k = 0; k < 8; ++k) {
      const auto unknown = static_cast<int>(lower.rows() * k / 8) + 5;
      Sparse indefinite = lower;
      indefinite.coeffRef(unknown, unknown) = -1.0;
      EXPECT_FALSE(shared.factor(indefinite, &pool)) << threads << " threads, " << unknown;
    }
    ASSERT_TRUE(shared.factor(lower, &pool));
    Eigen::VectorXd x = b;
    shared.solve_in_place(x, &pool);  // the pieces solved side by side
    EXPECT_EQ(x, expected) << threads << " threads";
    x = b;
    shared.solve_in_place(x);
    EXPECT_EQ(x, expected) << threads << " threads, solved alone";
    // Again alone on the same object: its plan switches back.
    ASSERT_TRUE(shared.factor(lower));
    x = b;
    shared.solve_in_place(x);
    EXPECT_EQ(x, expected);
  }
  expect_solves<TypeParam>(lower);
}

TYPED_TEST(SparseCholeskyOf, RefusesWhatItCannotFactor) {
  const std::vector<std::pair<int, int>> edges = grid_edges(5, 5, 1);
  Sparse lower = random_spd(25, 3, edges, 14);
  SparseCholesky<TypeParam> cholesky;
  cholesky.analyze(lower);
  Sparse indefinite = lower;
  indefinite.coeffRef(40, 40) = -1.0;
  EXPECT_FALSE(cholesky.factor(indefinite));
  Sparse not_finite = lower;
  not_finite.coeffRef(4, 3) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(cholesky.factor(not_finite));
  EXPECT_TRUE(cholesky.factor(lower));  // and factors again after a failure

  EXPECT_THROW(cholesky.factor(random_spd(25, 3, {}, 15)), std::invalid_argument);
  EXPECT_THROW(cholesky.analyze(Sparse(3, 4)), std::invalid_argument);
  Sparse no_diagonal(3, 3);
  no_diagonal.insert(1, 0) = 1.0;
  no_diagonal.insert(1, 1) = 1.0;
  no_diagonal.insert(2, 2) = 1.0;
  EXPECT_THROW(cholesky.analyze(no_diagonal), std::invalid_argument);
  Sparse upper = no_diagonal;
  upper.insert(0, 0) = 1.0;
  upper.insert(0, 2) = 0.5;
  EXPECT_THROW(cholesky.analyze(upper), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::sim
