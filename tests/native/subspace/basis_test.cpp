#include "smfem/subspace/basis.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "smfem/fem/linear_tet.hpp"
#include "smfem/subspace/elastic_laplacian.hpp"
#include "smfem/subspace/lumped_mass.hpp"
#include "smfem/subspace/skinning_eigenmodes.hpp"
#include "subspace/box_mesh.hpp"

namespace smfem::subspace {
namespace {

struct Subspace {
  mesh::TetMesh mesh;
  Eigen::VectorXd mass;
  SkinningModes modes;
};

// A warped box with a soft and a stiff half and m modes, optionally pinned at vertex 0.
Subspace make_subspace(int m, bool pinned) {
  Subspace s;
  s.mesh = test::warped(test::box_mesh({4, 2, 2}, {2, 1, 1}), 0.03);
  const Eigen::Index tets = s.mesh.tets.rows();
  Eigen::VectorXd E(tets);
  for (Eigen::Index t = 0; t < tets; ++t) {
    E(t) = test::tet_centroid(s.mesh, t).x() < 1.0 ? 1e8 : 1e6;
  }
  const auto H = elastic_laplacian(s.mesh, E, Eigen::VectorXd::Constant(tets, 0.4));
  s.mass = lumped_mass(s.mesh, Eigen::VectorXd::Constant(tets, 1200.0));
  Eigen::VectorXi pins(pinned ? 1 : 0);
  if (pinned) pins(0) = 0;
  s.modes = skinning_eigenmodes(H, s.mass, s.mesh.vertices, m, pins);
  return s;
}

// u = [u_0; u_1; u_2] as three columns of a 4m x 3 matrix (column d = u_d).
using Coordinates = Eigen::MatrixXd;

Coordinates random_coordinates(Eigen::Index modes, unsigned seed) {
  std::mt19937 bits(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  Coordinates u(4 * modes, 3);
  for (Eigen::Index r = 0; r < u.rows(); ++r) {
    for (int d = 0; d < 3; ++d) u(r, d) = normal(bits);
  }
  return u;
}

// Positions x_v,d = X_v,d + u_d . b_v.
mesh::Vertices positions(const mesh::TetMesh& mesh, const RowMatrixXd& B, const Coordinates& u) {
  return mesh.vertices + B * u;
}

fem::TetCorners corners(const mesh::Vertices& x, const mesh::TetMesh& mesh, Eigen::Index t) {
  fem::TetCorners out;
  for (int j = 0; j < 4; ++j) out.row(j) = x.row(mesh.tets(t, j));
  return out;
}

// F_t row d = e_d^T + u_d^T Y_t.
Eigen::Matrix3d reduced_F(const TetBasisGradients& Y, Eigen::Index c, const Coordinates& u) {
  const Eigen::Index rows = u.rows();
  return Eigen::Matrix3d::Identity() + u.transpose() * Y.middleRows(rows * c, rows);
}

TEST(Basis, ReproducesAnyAffineMapThroughTheConstantMode) {
  const Subspace s = make_subspace(4, false);
  ASSERT_EQ(s.modes.constant_modes, 1);
  const double c = s.modes.weights(0, 0);
  Eigen::Matrix3d L;
  L << 1.3, -0.2, 0.4,  //
      0.5, 0.8, -0.3,   //
      -0.1, 0.6, 1.1;
  const Eigen::Vector3d b(0.7, -1.5, 2.0);
  // Mode 0 carries A_0 = [L - I | b] / c; every other mode stays at rest.
  Coordinates u = Coordinates::Zero(4 * 4, 3);
  for (int d = 0; d < 3; ++d) {
    for (int k = 0; k < 3; ++k) u(k, d) = (L(d, k) - (d == k ? 1.0 : 0.0)) / c;
    u(3, d) = b(d) / c;
  }
  const RowMatrixXd B = vertex_basis(s.mesh, s.modes.weights);
  const mesh::Vertices x = positions(s.mesh, B, u);
  for (Eigen::Index v = 0; v < x.rows(); ++v) {
    const Eigen::Vector3d expected = L * s.mesh.vertices.row(v).transpose() + b;
    EXPECT_LT((x.row(v).transpose() - expected).norm(), 1e-12) << "vertex " << v;
  }
  Eigen::VectorXi all(s.mesh.tets.rows());
  for (Eigen::Index t = 0; t < all.size(); ++t) all(t) = static_cast<int>(t);
  const TetBasisGradients Y = tet_basis_gradients(s.mesh, s.modes.weights, all);
  for (Eigen::Index t = 0; t < all.size(); ++t) {
    EXPECT_LT((reduced_F(Y, t, u) - L).norm(), 1e-10) << "tet " << t;
  }
}

TEST(Basis, TetBasisGradientsAreTheDerivativeOfFByU) {
  const Subspace s = make_subspace(5, true);
  const Eigen::Index m = s.modes.weights.cols();
  const RowMatrixXd B = vertex_basis(s.mesh, s.modes.weights);
  const Eigen::VectorXi tets{{17, 3, 40, 3}};  // any order, repeats allowed
  const TetBasisGradients Y = tet_basis_gradients(s.mesh, s.modes.weights, tets);
  ASSERT_EQ(Y.rows(), tets.size() * 4 * m);
  const Coordinates u = 1e-3 * random_coordinates(m, 3);
  const double h = 1e-6;
  for (Eigen::Index c = 0; c < tets.size(); ++c) {
    const fem::TetCorners G = fem::linear_tet_dphi_dX(corners(s.mesh.vertices, s.mesh, tets(c)));
    // F from the deformed corner positions, independently of Y.
    const auto F_at = [&](const Coordinates& at) {
      return fem::linear_tet_deformation_gradient(
          corners(positions(s.mesh, B, at), s.mesh, tets(c)), G);
    };
    EXPECT_LT((F_at(u) - reduced_F(Y, c, u)).norm(), 1e-12);
    for (int d = 0; d < 3; ++d) {
      for (Eigen::Index r = 0; r < 4 * m; ++r) {
        Coordinates plus = u, minus = u;
        plus(r, d) += h;
        minus(r, d) -= h;
        const Eigen::Matrix3d dF = (F_at(plus) - F_at(minus)) / (2 * h);
        // dF/du_d[r]: row d is Y_t row r, the other rows vanish.
        Eigen::Matrix3d expected = Eigen::Matrix3d::Zero();
        expected.row(d) = Y.row(4 * m * c + r);
        EXPECT_LT((dF - expected).norm(), 1e-6 * (1.0 + expected.norm()))
            << "tet " << tets(c) << ", u_" << d << "[" << r << "]";
      }
    }
  }
}

TEST(Basis, ReducedMassAndGravityReproduceKineticEnergyAndGravityWork) {
  const Subspace s = make_subspace(6, false);
  const Eigen::Index m = s.modes.weights.cols();
  const RowMatrixXd B = vertex_basis(s.mesh, s.modes.weights);
  const Eigen::MatrixXd M_u = reduced_mass(B, s.mass);
  const Eigen::VectorXd g_u = reduced_gravity(B, s.mass);
  ASSERT_EQ(M_u.rows(), 4 * m);
  ASSERT_EQ(g_u.size(), 4 * m);
  EXPECT_TRUE(M_u == M_u.transpose()) << "not symmetric bit for bit";
  const Eigen::Vector3d gravity(0.0, -9.81, 0.3);
  for (unsigned seed : {1u, 2u, 3u}) {
    const Coordinates u = random_coordinates(m, seed);
    const mesh::Vertices displacement = positions(s.mesh, B, u) - s.mesh.vertices;
    // sum_v m_v |x_v - X_v|^2 = sum_d u_d^T M_u u_d
    const double full =
        (displacement.rowwise().squaredNorm().transpose().array() * s.mass.transpose().array())
            .sum();
    double reduced = 0.0;
    for (int d = 0; d < 3; ++d) reduced += u.col(d).dot(M_u * u.col(d));
    EXPECT_NEAR(reduced, full, 1e-10 * full);
    // sum_v m_v g . (x_v - X_v) = sum_d g_d u_d . g_u
    const double work = (s.mass.asDiagonal() * displacement * gravity).sum();
    double reduced_work = 0.0;
    for (int d = 0; d < 3; ++d) reduced_work += gravity(d) * u.col(d).dot(g_u);
    EXPECT_NEAR(reduced_work, work, 1e-10 * std::abs(work) + 1e-12);
  }
  // The constant mode's translation block holds the total mass: b_v[3] = c with
  // c = 1 / sqrt(total mass), so M_u(3, 3) = c^2 sum m_v = 1.
  EXPECT_NEAR(M_u(3, 3), 1.0, 1e-12);
}

TEST(Basis, TetAveragedWeightsAreTheMeanOfTheCorners) {
  const Subspace s = make_subspace(3, false);
  const Eigen::MatrixXd averaged = tet_averaged_weights(s.mesh, s.modes.weights);
  ASSERT_EQ(averaged.rows(), s.mesh.tets.rows());
  ASSERT_EQ(averaged.cols(), 3);
  for (Eigen::Index t : {0, 7, 31}) {
    Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(3);
    for (int j = 0; j < 4; ++j) sum += s.modes.weights.row(s.mesh.tets(t, j));
    EXPECT_LT((averaged.row(t) - sum / 4.0).norm(), 1e-15);
  }
  EXPECT_NEAR(averaged.col(0).maxCoeff(), averaged.col(0).minCoeff(), 1e-15);
}

TEST(Basis, RefusesMismatchedInputs) {
  const Subspace s = make_subspace(3, false);
  const Eigen::MatrixXd short_W = s.modes.weights.topRows(s.modes.weights.rows() - 1);
  EXPECT_THROW(vertex_basis(s.mesh, short_W), std::invalid_argument);
  EXPECT_THROW(tet_averaged_weights(s.mesh, short_W), std::invalid_argument);
  EXPECT_THROW(tet_basis_gradients(s.mesh, short_W, Eigen::VectorXi::Zero(1)),
               std::invalid_argument);
  const Eigen::VectorXi outside{{static_cast<int>(s.mesh.tets.rows())}};
  EXPECT_THROW(tet_basis_gradients(s.mesh, s.modes.weights, outside), std::invalid_argument);
  const RowMatrixXd B = vertex_basis(s.mesh, s.modes.weights);
  EXPECT_THROW(reduced_mass(B, s.mass.head(5)), std::invalid_argument);
  EXPECT_THROW(reduced_gravity(B, s.mass.head(5)), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::subspace
