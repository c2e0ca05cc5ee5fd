#include "smfem/subspace/linear_modes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <Eigen/Dense>

#include "smfem/subspace/elastic_stiffness.hpp"
#include "smfem/subspace/lumped_mass.hpp"
#include "subspace/box_mesh.hpp"

namespace smfem::subspace {
namespace {

struct ModalProblem {
  mesh::TetMesh mesh;
  Eigen::SparseMatrix<double> K;
  Eigen::VectorXd mass;
};

// E = 1e6 (1e8 where stiff_below_x holds the centroid), nu = 0.4, density 1000.
ModalProblem make_modal_problem(mesh::TetMesh mesh, double stiff_below_x = -1e9) {
  const Eigen::Index T = mesh.tets.rows();
  Eigen::VectorXd E(T);
  for (Eigen::Index t = 0; t < T; ++t) {
    E(t) = test::tet_centroid(mesh, t).x() < stiff_below_x ? 1e8 : 1e6;
  }
  ModalProblem problem{std::move(mesh), {}, {}};
  problem.K = elastic_stiffness(problem.mesh, E, Eigen::VectorXd::Constant(T, 0.4));
  problem.mass = lumped_mass(problem.mesh, Eigen::VectorXd::Constant(T, 1000.0));
  return problem;
}

Eigen::VectorXi pin_list(const std::vector<int>& indices) {
  return Eigen::Map<const Eigen::VectorXi>(indices.data(),
                                           static_cast<Eigen::Index>(indices.size()));
}

Eigen::VectorXd mass_per_unknown(const ModalProblem& problem) {
  return problem.mass.replicate(1, 3).transpose().reshaped();
}

// The m smallest eigenvalues of K phi = lambda M phi on the free unknowns, densely.
Eigen::VectorXd dense_modal_eigenvalues(const ModalProblem& problem, const std::vector<int>& pinned,
                                        int m) {
  std::vector<int> free;
  for (int i = 0; i < problem.K.rows(); ++i) {
    if (std::find(pinned.begin(), pinned.end(), i / 3) == pinned.end()) free.push_back(i);
  }
  const Eigen::MatrixXd K = problem.K;
  const Eigen::VectorXd M = mass_per_unknown(problem);
  const Eigen::MatrixXd K_free = K(free, free);
  const Eigen::MatrixXd M_free = M(free).asDiagonal();
  return Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd>(K_free, M_free)
      .eigenvalues()
      .head(m);
}

// Residuals (on free rows), M-orthonormality, order, pinned rows and the sign convention.
void expect_modal_eigenpairs(const ModalProblem& problem, const LinearModes& modes,
                             const std::vector<int>& pinned = {}) {
  const Eigen::MatrixXd& Phi = modes.vectors;
  const Eigen::VectorXd M = mass_per_unknown(problem);
  const Eigen::MatrixXd gram = Phi.transpose() * M.asDiagonal() * Phi;
  EXPECT_LT((gram - Eigen::MatrixXd::Identity(Phi.cols(), Phi.cols())).norm(), 1e-9);
  const double K_norm = Eigen::MatrixXd(problem.K).norm();
  for (Eigen::Index i = 0; i < Phi.cols(); ++i) {
    Eigen::VectorXd Kphi = problem.K * Phi.col(i);
    Eigen::VectorXd lambdaMphi = modes.eigenvalues(i) * M.cwiseProduct(Phi.col(i));
    for (const int v : pinned) {
      EXPECT_EQ(Phi.col(i).segment<3>(3 * v).norm(), 0.0) << "pinned vertex " << v;
      Kphi.segment<3>(3 * v).setZero();
      lambdaMphi.segment<3>(3 * v).setZero();
    }
    if (i < modes.rigid_modes) {
      EXPECT_EQ(modes.eigenvalues(i), 0.0);
      EXPECT_LT(Kphi.norm(), 1e-12 * K_norm * Phi.col(i).norm()) << "rigid mode " << i;
    } else {
      EXPECT_LT((Kphi - lambdaMphi).norm(), 1e-8 * (Kphi.norm() + lambdaMphi.norm()))
          << "mode " << i;
    }
    if (i > 0) {
      EXPECT_LE(modes.eigenvalues(i - 1), modes.eigenvalues(i));
    }
    Eigen::Index largest = 0;
    Phi.col(i).cwiseAbs().maxCoeff(&largest);
    EXPECT_GT(Phi(largest, i), 0.0) << "sign convention, mode " << i;
  }
}

TEST(LinearModes, FreeBodyKeepsItsSixRigidModesAndMatchesADenseSolver) {
  // A bar of square cross-section: its bending and torsion eigenvalues repeat, which a
  // single-vector Lanczos could miss.
  const ModalProblem problem = make_modal_problem(test::box_mesh({4, 2, 2}, {2, 1, 1}));
  const int m = 16;
  const LinearModes modes =
      linear_modes(problem.K, problem.mass, problem.mesh.vertices, m, Eigen::VectorXi());
  expect_modal_eigenpairs(problem, modes);
  EXPECT_EQ(modes.rigid_modes, 6);
  EXPECT_LT(modes.shift, 0.0);
  const Eigen::VectorXd dense = dense_modal_eigenvalues(problem, {}, m);
  EXPECT_LT(dense.head(6).cwiseAbs().maxCoeff(), 1e-9 * dense(6));
  for (int i = 6; i < m; ++i) {
    EXPECT_NEAR(modes.eigenvalues(i), dense(i), 1e-8 * dense(i)) << "mode " << i;
  }
  // The first three are translations: every vertex moves the same.
  for (int k = 0; k < 3; ++k) {
    const Eigen::VectorXd along = modes.vectors.col(k)(Eigen::seqN(k, problem.mass.size(), 3));
    EXPECT_NEAR(along.minCoeff(), along.maxCoeff(), 1e-12 * along.maxCoeff())
        << "translation " << k;
  }
}

TEST(LinearModes, PinnedVerticesStayAndTheSpectrumLiftsOffZero) {
  const mesh::TetMesh box = test::box_mesh({6, 2, 2}, {3, 1, 1});
  std::vector<int> pinned;  // the face x = 0
  for (int v = 0; v < box.vertices.rows(); ++v) {
    if (box.vertices(v, 0) == 0.0) pinned.push_back(v);
  }
  const ModalProblem problem = make_modal_problem(test::warped(box, 0.03), 1.5);
  const int m = 10;
  const LinearModes modes =
      linear_modes(problem.K, problem.mass, problem.mesh.vertices, m, pin_list(pinned));
  expect_modal_eigenpairs(problem, modes, pinned);
  EXPECT_EQ(modes.rigid_modes, 0);
  const Eigen::VectorXd dense = dense_modal_eigenvalues(problem, pinned, m);
  EXPECT_GT(dense(0), 0.0);
  for (int i = 0; i < m; ++i) {
    EXPECT_NEAR(modes.eigenvalues(i), dense(i), 1e-8 * dense(i)) << "mode " << i;
  }
}

TEST(LinearModes, EachFreePartGetsSixRigidModes) {
  const mesh::TetMesh a = test::box_mesh({3, 2, 2}, {1.5, 1, 1});
  const mesh::TetMesh b = test::box_mesh({2, 2, 2}, {1, 1, 1}, {5, 0, 0});
  const ModalProblem problem = make_modal_problem(test::merged(a, b));
  const LinearModes modes =
      linear_modes(problem.K, problem.mass, problem.mesh.vertices, 14, Eigen::VectorXi());
  expect_modal_eigenpairs(problem, modes);
  ASSERT_EQ(modes.rigid_modes, 12);
  const Eigen::Index split = 3 * a.vertices.rows();
  for (int k = 0; k < 6; ++k) {
    EXPECT_EQ(modes.vectors.col(k).tail(modes.vectors.rows() - split).norm(), 0.0);
    EXPECT_EQ(modes.vectors.col(6 + k).head(split).norm(), 0.0);
  }
  const Eigen::VectorXd dense = dense_modal_eigenvalues(problem, {}, 14);
  for (int i = 12; i < 14; ++i) {
    EXPECT_NEAR(modes.eigenvalues(i), dense(i), 1e-8 * dense(i)) << "mode " << i;
  }
}

TEST(LinearModes, RefusesBadInput) {
  const ModalProblem problem = make_modal_problem(test::box_mesh({2, 1, 1}, {2, 1, 1}));
  const auto& X = problem.mesh.vertices;
  const Eigen::VectorXi none;
  const Eigen::Index n = problem.mass.size();
  EXPECT_THROW(linear_modes(problem.K, problem.mass, X, 0, none), std::invalid_argument);
  EXPECT_THROW(linear_modes(problem.K, problem.mass, X, 5, none), std::invalid_argument)
      << "fewer than the 6 rigid modes of a free body";
  EXPECT_THROW(linear_modes(problem.K, problem.mass, X, static_cast<int>(3 * n), none),
               std::invalid_argument);
  EXPECT_THROW(linear_modes(problem.K, problem.mass.head(n - 1), X, 8, none),
               std::invalid_argument);
  EXPECT_THROW(linear_modes(problem.K, problem.mass, X.topRows(n - 1), 8, none),
               std::invalid_argument);
  EXPECT_THROW(linear_modes(problem.K, problem.mass, X, 8, Eigen::VectorXi::Constant(1, -1)),
               std::invalid_argument);
  Eigen::VectorXd massless = problem.mass;
  massless(3) = 0.0;
  EXPECT_THROW(linear_modes(problem.K, massless, X, 8, none), std::invalid_argument);
  mesh::Vertices infinite = X;
  infinite(0, 0) = std::numeric_limits<double>::infinity();
  EXPECT_THROW(linear_modes(problem.K, problem.mass, infinite, 8, none), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::subspace
