#include "smfem/subspace/elastic_laplacian.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include <Eigen/Dense>

#include "smfem/subspace/lumped_mass.hpp"
#include "smfem/subspace/skinning_eigenmodes.hpp"
#include "subspace/box_mesh.hpp"

namespace smfem::subspace {
namespace {

struct Materials {
  Eigen::VectorXd youngs_modulus;
  Eigen::VectorXd poisson_ratio;
};

// Per-tet materials drawn at random: E log-uniform in [1e5, 1e9], nu uniform in [0, 0.49].
Materials random_materials(Eigen::Index tets, unsigned seed) {
  std::mt19937 bits(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Materials out{Eigen::VectorXd(tets), Eigen::VectorXd(tets)};
  for (Eigen::Index t = 0; t < tets; ++t) {
    out.youngs_modulus(t) = std::pow(10.0, 5.0 + 4.0 * unit(bits));
    out.poisson_ratio(t) = 0.49 * unit(bits);
  }
  return out;
}

// The textbook 12x12 stiffness matrix of a linear tet, vol B^T C B, written independently of
// the code under test: Voigt strain (e11 e22 e33 2e23 2e13 2e12), the isotropic C, and shape
// gradients from inverting the 4x4 matrix of rows [1 X_j].
Eigen::Matrix<double, 12, 12> voigt_stiffness(const Eigen::Matrix<double, 4, 3>& X, double E,
                                              double nu) {
  Eigen::Matrix4d P;
  P.col(0).setOnes();
  P.rightCols<3>() = X;
  // phi_j(X) = a_j + g_j . X with (a_j, g_j) column j of P^-1.
  const Eigen::Matrix4d coefficients = P.inverse();
  const double volume = std::abs(P.determinant()) / 6.0;
  Eigen::Matrix<double, 6, 12> B = Eigen::Matrix<double, 6, 12>::Zero();
  for (int j = 0; j < 4; ++j) {
    const Eigen::Vector3d g = coefficients.block<3, 1>(1, j);
    B(0, 3 * j + 0) = g.x();
    B(1, 3 * j + 1) = g.y();
    B(2, 3 * j + 2) = g.z();
    B(3, 3 * j + 1) = g.z();
    B(3, 3 * j + 2) = g.y();
    B(4, 3 * j + 0) = g.z();
    B(4, 3 * j + 2) = g.x();
    B(5, 3 * j + 0) = g.y();
    B(5, 3 * j + 1) = g.x();
  }
  const double mu = E / (2 * (1 + nu));
  const double lambda = E * nu / ((1 + nu) * (1 - 2 * nu));
  Eigen::Matrix<double, 6, 6> C = Eigen::Matrix<double, 6, 6>::Zero();
  C.topLeftCorner<3, 3>().setConstant(lambda);
  C.diagonal() << lambda + 2 * mu, lambda + 2 * mu, lambda + 2 * mu, mu, mu, mu;
  return volume * B.transpose() * C * B;
}

mesh::TetMesh test_mesh() { return test::warped(test::box_mesh({3, 2, 2}, {1.5, 1.0, 0.8}), 0.03); }

TEST(ElasticLaplacian, IsTheSumOfTheCoordinateBlocksOfTheLinearElasticHessian) {
  const mesh::TetMesh mesh = test_mesh();
  const Materials materials = random_materials(mesh.tets.rows(), 7);
  const Eigen::MatrixXd H =
      elastic_laplacian(mesh, materials.youngs_modulus, materials.poisson_ratio);
  Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(H.rows(), H.cols());
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    Eigen::Matrix<double, 4, 3> X;
    for (int j = 0; j < 4; ++j) X.row(j) = mesh.vertices.row(mesh.tets(t, j));
    const auto K = voigt_stiffness(X, materials.youngs_modulus(t), materials.poisson_ratio(t));
    for (int a = 0; a < 4; ++a) {
      for (int b = 0; b < 4; ++b) {
        for (int p = 0; p < 3; ++p) {
          expected(mesh.tets(t, a), mesh.tets(t, b)) += K(3 * a + p, 3 * b + p);
        }
      }
    }
  }
  EXPECT_LT((H - expected).norm(), 1e-12 * expected.norm());
}

TEST(ElasticLaplacian, IsSymmetricPositiveSemiDefiniteWithConstantsInItsNullSpace) {
  const mesh::TetMesh mesh = test_mesh();
  const Materials materials = random_materials(mesh.tets.rows(), 11);
  const Eigen::SparseMatrix<double> H =
      elastic_laplacian(mesh, materials.youngs_modulus, materials.poisson_ratio);
  const Eigen::MatrixXd dense = H;
  EXPECT_TRUE(dense == dense.transpose()) << "not symmetric bit for bit";
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(H.rows());
  EXPECT_LT((H * ones).norm(), 1e-12 * dense.norm());
  const Eigen::VectorXd spectrum =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(dense).eigenvalues();
  EXPECT_GT(spectrum(0), -1e-12 * spectrum(spectrum.size() - 1));
  // Exactly one zero eigenvalue: the mesh is connected.
  EXPECT_GT(spectrum(1), 1e-6 * spectrum(spectrum.size() - 1));
}

TEST(ElasticLaplacian, PatternIsTheTetAdjacencyEvenWhereEntriesVanish) {
  // Right-angled Kuhn tets have orthogonal gradient pairs, hence zero entries; they are kept
  // so that skinning_eigenmodes reads the components from the pattern.
  const mesh::TetMesh mesh = test::box_mesh({2, 2, 2}, {1, 1, 1});
  const Eigen::Index tets = mesh.tets.rows();
  const Eigen::SparseMatrix<double> H = elastic_laplacian(
      mesh, Eigen::VectorXd::Constant(tets, 1e6), Eigen::VectorXd::Constant(tets, 0.3));
  for (Eigen::Index t = 0; t < tets; ++t) {
    for (int a = 0; a < 4; ++a) {
      for (int b = 0; b < 4; ++b) {
        const int row = mesh.tets(t, a);
        const int column = mesh.tets(t, b);
        bool stored = false;
        for (Eigen::SparseMatrix<double>::InnerIterator it(H, column); it; ++it) {
          stored = stored || it.index() == row;
        }
        EXPECT_TRUE(stored) << "missing entry " << row << ", " << column;
      }
    }
  }
}

// Under uniform scaling X -> s X: grad phi ~ 1/s and vol ~ s^3, so H ~ s; M ~ s^3; hence the
// eigenvalues gamma ~ s^-2, and the M-orthonormal weights keep their shape with a factor
// s^-3/2 (W^T M W = I with M ~ s^3).
TEST(ElasticLaplacian, ScalesAsTheoryPredictsUnderUniformMeshScaling) {
  const double s = 3.0;
  const mesh::TetMesh mesh = test_mesh();
  mesh::TetMesh scaled = mesh;
  scaled.vertices *= s;
  const Materials materials = random_materials(mesh.tets.rows(), 5);
  const Eigen::VectorXd density = Eigen::VectorXd::Constant(mesh.tets.rows(), 1000.0);
  const Eigen::SparseMatrix<double> H =
      elastic_laplacian(mesh, materials.youngs_modulus, materials.poisson_ratio);
  const Eigen::SparseMatrix<double> H_scaled =
      elastic_laplacian(scaled, materials.youngs_modulus, materials.poisson_ratio);
  EXPECT_LT((Eigen::MatrixXd(H_scaled) - s * Eigen::MatrixXd(H)).norm(),
            1e-12 * s * Eigen::MatrixXd(H).norm());
  const Eigen::VectorXd M = lumped_mass(mesh, density);
  const Eigen::VectorXd M_scaled = lumped_mass(scaled, density);
  EXPECT_LT((M_scaled - s * s * s * M).norm(), 1e-12 * s * s * s * M.norm());

  const int modes = 6;
  const Eigen::VectorXi no_pins(0);
  const SkinningModes base = skinning_eigenmodes(H, M, mesh.vertices, modes, no_pins);
  const SkinningModes big =
      skinning_eigenmodes(H_scaled, M_scaled, scaled.vertices, modes, no_pins);
  for (int i = 1; i < modes; ++i) {
    EXPECT_NEAR(big.eigenvalues(i) * s * s, base.eigenvalues(i), 1e-8 * base.eigenvalues(i));
  }
  for (int i = 0; i < modes; ++i) {
    const Eigen::VectorXd reshaped = std::pow(s, 1.5) * big.weights.col(i);
    const double agreement =
        std::min((reshaped - base.weights.col(i)).norm(), (reshaped + base.weights.col(i)).norm());
    EXPECT_LT(agreement, 1e-6 * base.weights.col(i).norm()) << "mode " << i;
  }
}

TEST(ElasticLaplacian, RefusesBadMaterialsAndBadTets) {
  const mesh::TetMesh mesh = test::box_mesh({1, 1, 1}, {1, 1, 1});
  const Eigen::Index tets = mesh.tets.rows();
  const Eigen::VectorXd E = Eigen::VectorXd::Constant(tets, 1e6);
  const Eigen::VectorXd nu = Eigen::VectorXd::Constant(tets, 0.3);
  EXPECT_THROW(elastic_laplacian(mesh, E.head(tets - 1), nu), std::invalid_argument);
  EXPECT_THROW(elastic_laplacian(mesh, E, nu.head(tets - 1)), std::invalid_argument);
  Eigen::VectorXd bad_E = E;
  bad_E(2) = 0.0;
  EXPECT_THROW(elastic_laplacian(mesh, bad_E, nu), std::invalid_argument);
  bad_E(2) = std::nan("");
  EXPECT_THROW(elastic_laplacian(mesh, bad_E, nu), std::invalid_argument);
  for (double bad : {0.5, -1.0, 0.7}) {
    Eigen::VectorXd bad_nu = nu;
    bad_nu(1) = bad;
    EXPECT_THROW(elastic_laplacian(mesh, E, bad_nu), std::invalid_argument) << bad;
  }
  mesh::TetMesh inverted = mesh;
  std::swap(inverted.tets(0, 1), inverted.tets(0, 2));
  EXPECT_THROW(elastic_laplacian(inverted, E, nu), std::invalid_argument);
  mesh::TetMesh out_of_range = mesh;
  out_of_range.tets(3, 0) = static_cast<int>(mesh.vertices.rows());
  EXPECT_THROW(elastic_laplacian(out_of_range, E, nu), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::subspace
