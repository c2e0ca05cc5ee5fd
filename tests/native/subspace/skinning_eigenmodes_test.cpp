#include "smfem/subspace/skinning_eigenmodes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "smfem/subspace/elastic_laplacian.hpp"
#include "smfem/subspace/lumped_mass.hpp"
#include "subspace/box_mesh.hpp"

namespace smfem::subspace {
namespace {

struct Problem {
  mesh::TetMesh mesh;
  Eigen::SparseMatrix<double> H;
  Eigen::VectorXd mass;
};

// E per tet from a rule on its centroid; nu = 0.45, density 1000 everywhere.
template <typename StiffnessAt>
Problem make_problem(mesh::TetMesh mesh, const StiffnessAt& youngs_modulus_at) {
  const Eigen::Index tets = mesh.tets.rows();
  Eigen::VectorXd E(tets);
  for (Eigen::Index t = 0; t < tets; ++t) E(t) = youngs_modulus_at(test::tet_centroid(mesh, t));
  Problem problem{std::move(mesh), {}, {}};
  problem.H = elastic_laplacian(problem.mesh, E, Eigen::VectorXd::Constant(tets, 0.45));
  problem.mass = lumped_mass(problem.mesh, Eigen::VectorXd::Constant(tets, 1000.0));
  return problem;
}

Problem homogeneous(mesh::TetMesh mesh) {
  return make_problem(std::move(mesh), [](const Eigen::Vector3d&) { return 1e6; });
}

// The m smallest eigenvalues of H w = gamma M w restricted to the free vertices, densely.
Eigen::VectorXd dense_eigenvalues(const Problem& problem, const std::vector<int>& pinned, int m) {
  std::vector<int> free;
  for (int v = 0; v < problem.H.rows(); ++v) {
    if (std::find(pinned.begin(), pinned.end(), v) == pinned.end()) free.push_back(v);
  }
  const Eigen::MatrixXd H = problem.H;
  const int n = static_cast<int>(free.size());
  Eigen::MatrixXd H_free(n, n);
  Eigen::MatrixXd M_free = Eigen::MatrixXd::Zero(n, n);
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) H_free(a, b) = H(free[a], free[b]);
    M_free(a, a) = problem.mass(free[a]);
  }
  return Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd>(H_free, M_free)
      .eigenvalues()
      .head(m);
}

Eigen::VectorXi as_vector(const std::vector<int>& indices) {
  return Eigen::Map<const Eigen::VectorXi>(indices.data(),
                                           static_cast<Eigen::Index>(indices.size()));
}

// Residuals on the free rows (a pinned vertex is not part of the problem), M-orthonormality,
// ascending order and the sign convention.
void expect_eigenpairs(const Problem& problem, const SkinningModes& modes,
                       const std::vector<int>& pinned = {}) {
  const Eigen::MatrixXd& W = modes.weights;
  const Eigen::MatrixXd gram = W.transpose() * problem.mass.asDiagonal() * W;
  EXPECT_LT((gram - Eigen::MatrixXd::Identity(W.cols(), W.cols())).norm(), 1e-9);
  for (Eigen::Index i = 0; i < W.cols(); ++i) {
    Eigen::VectorXd Hw = problem.H * W.col(i);
    Eigen::VectorXd gammaMw = modes.eigenvalues(i) * problem.mass.cwiseProduct(W.col(i));
    for (int v : pinned) Hw(v) = gammaMw(v) = 0.0;
    if (i < modes.constant_modes) {
      // H w = 0 up to the rounding of the product itself.
      EXPECT_LT(Hw.norm(), 1e-12 * problem.H.norm() * W.col(i).norm()) << "mode " << i;
    } else {
      EXPECT_LT((Hw - gammaMw).norm(), 1e-8 * (Hw.norm() + gammaMw.norm())) << "mode " << i;
    }
    if (i > 0) {
      EXPECT_LE(modes.eigenvalues(i - 1), modes.eigenvalues(i));
    }
    Eigen::Index largest = 0;
    W.col(i).cwiseAbs().maxCoeff(&largest);
    EXPECT_GT(W(largest, i), 0.0) << "sign convention, mode " << i;
  }
}

TEST(SkinningEigenmodes, UnpinnedBodyStartsWithTheConstantModeAndMatchesADenseSolver) {
  // A cube of 4x4x4 cells: its symmetry makes eigenvalues repeat (three bending directions),
  // which a single-vector Lanczos could miss; the dense solver would show it.
  const Problem problem = homogeneous(test::box_mesh({4, 4, 4}, {1, 1, 1}));
  const int m = 12;
  const SkinningModes modes =
      skinning_eigenmodes(problem.H, problem.mass, problem.mesh.vertices, m, Eigen::VectorXi());
  expect_eigenpairs(problem, modes);
  EXPECT_EQ(modes.constant_modes, 1);
  EXPECT_EQ(modes.eigenvalues(0), 0.0);
  const Eigen::VectorXd first = modes.weights.col(0);
  EXPECT_EQ(first.maxCoeff(), first.minCoeff()) << "the first mode is not constant";
  EXPECT_LT(modes.shift, 0.0);
  const Eigen::VectorXd dense = dense_eigenvalues(problem, {}, m);
  EXPECT_LT(std::abs(dense(0)), 1e-9 * dense(1));
  for (int i = 1; i < m; ++i) {
    EXPECT_NEAR(modes.eigenvalues(i), dense(i), 1e-8 * dense(i)) << "mode " << i;
  }
}

TEST(SkinningEigenmodes, PinnedVerticesGetZeroWeightsAndTheSpectrumLiftsOffZero) {
  const mesh::TetMesh box = test::box_mesh({6, 2, 2}, {3, 1, 1});
  std::vector<int> pinned;  // the face x = 0
  for (int v = 0; v < box.vertices.rows(); ++v) {
    if (box.vertices(v, 0) == 0.0) pinned.push_back(v);
  }
  ASSERT_EQ(pinned.size(), 9u);
  const Problem problem = homogeneous(test::warped(box, 0.03));
  const int m = 8;
  const SkinningModes modes =
      skinning_eigenmodes(problem.H, problem.mass, problem.mesh.vertices, m, as_vector(pinned));
  expect_eigenpairs(problem, modes, pinned);
  EXPECT_EQ(modes.constant_modes, 0);
  EXPECT_GT(modes.eigenvalues(0), 0.0);
  for (int v : pinned) EXPECT_EQ(modes.weights.row(v).norm(), 0.0) << "pinned vertex " << v;
  const Eigen::VectorXd dense = dense_eigenvalues(problem, pinned, m);
  EXPECT_GT(dense(0), 0.0);
  for (int i = 0; i < m; ++i) {
    EXPECT_NEAR(modes.eigenvalues(i), dense(i), 1e-8 * dense(i)) << "mode " << i;
  }
}

TEST(SkinningEigenmodes, EachFloatingPartGetsItsOwnConstantMode) {
  const mesh::TetMesh a = test::box_mesh({3, 2, 2}, {1.5, 1, 1});
  const mesh::TetMesh b = test::box_mesh({2, 2, 2}, {1, 1, 1}, {5, 0, 0});
  const Problem problem = homogeneous(test::merged(a, b));
  const Eigen::Index a_vertices = a.vertices.rows();
  const int m = 6;
  const SkinningModes modes =
      skinning_eigenmodes(problem.H, problem.mass, problem.mesh.vertices, m, Eigen::VectorXi());
  expect_eigenpairs(problem, modes);
  ASSERT_EQ(modes.constant_modes, 2);
  EXPECT_EQ(modes.eigenvalues(0), 0.0);
  EXPECT_EQ(modes.eigenvalues(1), 0.0);
  // Mode 0 is constant on the part holding vertex 0, mode 1 on the other.
  const Eigen::VectorXd first = modes.weights.col(0);
  const Eigen::VectorXd second = modes.weights.col(1);
  EXPECT_EQ(first.head(a_vertices).minCoeff(), first.head(a_vertices).maxCoeff());
  EXPECT_EQ(first.tail(b.vertices.rows()).norm(), 0.0);
  EXPECT_EQ(second.tail(b.vertices.rows()).minCoeff(), second.tail(b.vertices.rows()).maxCoeff());
  EXPECT_EQ(second.head(a_vertices).norm(), 0.0);
  const Eigen::VectorXd dense = dense_eigenvalues(problem, {}, m);
  EXPECT_LT(std::abs(dense(1)), 1e-9 * dense(2));
  for (int i = 2; i < m; ++i) {
    EXPECT_NEAR(modes.eigenvalues(i), dense(i), 1e-8 * dense(i)) << "mode " << i;
  }

  // Pinning one vertex of the second part leaves one floating part.
  const std::vector<int> pin{static_cast<int>(a_vertices)};
  const SkinningModes held =
      skinning_eigenmodes(problem.H, problem.mass, problem.mesh.vertices, m, as_vector(pin));
  EXPECT_EQ(held.constant_modes, 1);
  EXPECT_EQ(held.weights.row(a_vertices).norm(), 0.0);
}

// Subspace MFEM (Trusty et al. 2023), Fig. 4: the Laplacian carries each tet's stiffness, so a
// stiff region gets nearly constant weights and the detail goes to the soft region.
TEST(SkinningEigenmodes, WeightsVaryFarLessOverAStiffHalfThanOverASoftHalf) {
  const Problem problem =
      make_problem(test::box_mesh({24, 4, 4}, {4, 1, 1}),
                   [](const Eigen::Vector3d& X) { return X.x() < 2.0 ? 1e10 : 1e6; });
  const int m = 16;
  const SkinningModes modes =
      skinning_eigenmodes(problem.H, problem.mass, problem.mesh.vertices, m, Eigen::VectorXi());
  expect_eigenpairs(problem, modes);
  // Per mode, the range of the weight over the vertices strictly inside each half, summed
  // over the non-constant modes.
  double stiff_range = 0.0;
  double soft_range = 0.0;
  for (int i = modes.constant_modes; i < m; ++i) {
    double stiff_low = 1e300, stiff_high = -1e300, soft_low = 1e300, soft_high = -1e300;
    for (Eigen::Index v = 0; v < problem.mesh.vertices.rows(); ++v) {
      const double x = problem.mesh.vertices(v, 0);
      const double w = modes.weights(v, i);
      if (x < 2.0 - 1e-9) {
        stiff_low = std::min(stiff_low, w);
        stiff_high = std::max(stiff_high, w);
      } else if (x > 2.0 + 1e-9) {
        soft_low = std::min(soft_low, w);
        soft_high = std::max(soft_high, w);
      }
    }
    stiff_range += stiff_high - stiff_low;
    soft_range += soft_high - soft_low;
  }
  const double ratio = stiff_range / soft_range;
  // Measured: 4.2e-5 (E ratio 1e4, m = 16, 625 vertices).
  EXPECT_LT(ratio, 1e-2) << "stiff/soft weight variation ratio " << ratio;
  RecordProperty("stiff_over_soft_weight_range", std::to_string(ratio));
  std::printf("[ measured ] stiff/soft weight range ratio = %.3g\n", ratio);
}

TEST(SkinningEigenmodes, IsReproducibleBitForBit) {
  const Problem problem = homogeneous(test::box_mesh({5, 3, 3}, {2, 1, 1}));
  const SkinningModes first =
      skinning_eigenmodes(problem.H, problem.mass, problem.mesh.vertices, 10, Eigen::VectorXi());
  const SkinningModes second =
      skinning_eigenmodes(problem.H, problem.mass, problem.mesh.vertices, 10, Eigen::VectorXi());
  EXPECT_TRUE(first.weights == second.weights);
  EXPECT_TRUE(first.eigenvalues == second.eigenvalues);
}

TEST(SkinningEigenmodes, RefusesWhatItCannotSolve) {
  const Problem problem = homogeneous(test::box_mesh({1, 1, 1}, {1, 1, 1}));  // 8 vertices
  const Eigen::VectorXi none;
  const auto solve = [&](const Eigen::SparseMatrix<double>& H, const Eigen::VectorXd& mass, int m,
                         const std::vector<int>& pins) {
    const mesh::Vertices positions = problem.mesh.vertices.topRows(H.rows());
    return skinning_eigenmodes(H, mass, positions, m, as_vector(pins));
  };
  // Empty mesh, size mismatch, no modes.
  EXPECT_THROW(solve(Eigen::SparseMatrix<double>(0, 0), Eigen::VectorXd(0), 1, {}),
               std::invalid_argument);
  EXPECT_THROW(solve(problem.H, problem.mass.head(7), 1, {}), std::invalid_argument);
  EXPECT_THROW(solve(problem.H, problem.mass, 0, {}), std::invalid_argument);
  // m must stay below the free vertex count: 4 pinned leave 4 free.
  EXPECT_NO_THROW(solve(problem.H, problem.mass, 3, {0, 1, 2, 3}));
  EXPECT_THROW(solve(problem.H, problem.mass, 4, {0, 1, 2, 3}), std::invalid_argument);
  EXPECT_THROW(solve(problem.H, problem.mass, 8, {}), std::invalid_argument);
  // Pins out of range.
  EXPECT_THROW(solve(problem.H, problem.mass, 2, {8}), std::invalid_argument);
  EXPECT_THROW(solve(problem.H, problem.mass, 2, {-1}), std::invalid_argument);
  // Non-positive or non-finite mass at a free vertex; a pinned one may have any.
  Eigen::VectorXd bad_mass = problem.mass;
  bad_mass(5) = 0.0;
  EXPECT_THROW(solve(problem.H, bad_mass, 2, {}), std::invalid_argument);
  EXPECT_NO_THROW(solve(problem.H, bad_mass, 2, {5}));
  bad_mass(5) = std::nan("");
  EXPECT_THROW(solve(problem.H, bad_mass, 2, {}), std::invalid_argument);
  // Two floating parts need two modes at least.
  const Problem two = homogeneous(test::merged(test::box_mesh({1, 1, 1}, {1, 1, 1}),
                                               test::box_mesh({1, 1, 1}, {1, 1, 1}, {3, 0, 0})));
  EXPECT_THROW(skinning_eigenmodes(two.H, two.mass, two.mesh.vertices, 1, none),
               std::invalid_argument);
  EXPECT_NO_THROW(skinning_eigenmodes(two.H, two.mass, two.mesh.vertices, 2, none));
  // A non-square H; positions of the wrong size or not finite.
  EXPECT_THROW(solve(Eigen::SparseMatrix<double>(8, 7), problem.mass, 1, {}),
               std::invalid_argument);
  EXPECT_THROW(
      skinning_eigenmodes(problem.H, problem.mass, problem.mesh.vertices.topRows(7), 2, none),
      std::invalid_argument);
  mesh::Vertices bad_positions = problem.mesh.vertices;
  bad_positions(2, 1) = std::nan("");
  EXPECT_THROW(skinning_eigenmodes(problem.H, problem.mass, bad_positions, 2, none),
               std::invalid_argument);
}

TEST(SkinningEigenmodes, AVertexOfNoTetIsRefusedUnlessPinned) {
  mesh::TetMesh mesh = test::box_mesh({2, 1, 1}, {2, 1, 1});
  mesh.vertices.conservativeResize(mesh.vertices.rows() + 1, 3);
  mesh.vertices.row(mesh.vertices.rows() - 1) << 9, 9, 9;
  const Problem problem = homogeneous(mesh);
  const int lonely = static_cast<int>(mesh.vertices.rows() - 1);
  EXPECT_THROW(
      skinning_eigenmodes(problem.H, problem.mass, problem.mesh.vertices, 3, Eigen::VectorXi()),
      std::invalid_argument);
  const SkinningModes modes =
      skinning_eigenmodes(problem.H, problem.mass, problem.mesh.vertices, 3, as_vector({lonely}));
  EXPECT_EQ(modes.constant_modes, 1);
  EXPECT_EQ(modes.weights.row(lonely).norm(), 0.0);
}

}  // namespace
}  // namespace smfem::subspace
