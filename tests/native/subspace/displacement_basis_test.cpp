#include "smfem/subspace/displacement_basis.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "smfem/subspace/lumped_mass.hpp"
#include "subspace/box_mesh.hpp"

namespace smfem::subspace {
namespace {

struct MassiveBox {
  mesh::TetMesh mesh = test::warped(test::box_mesh({3, 2, 2}, {1.5, 1, 1}), 0.03);
  Eigen::VectorXd mass = lumped_mass(mesh, Eigen::VectorXd::Constant(mesh.tets.rows(), 1000.0));
  Eigen::VectorXd M = unknown_mass(mass);
};

Eigen::MatrixXd random_columns(Eigen::Index rows, Eigen::Index cols, unsigned seed) {
  std::mt19937 bits(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  return Eigen::MatrixXd::NullaryExpr(rows, cols, [&] { return unit(bits); });
}

TEST(DisplacementBasis, SkinningBasisMovesVerticesAsTheSkinningMap) {
  const MassiveBox body;
  const Eigen::Index n = body.mesh.vertices.rows();
  const int m = 2;
  const Eigen::MatrixXd W = random_columns(n, m, 1);
  const RowMatrixXd B = vertex_basis(body.mesh, W);
  const Eigen::MatrixXd U = random_columns(4 * m, 3, 2);  // column d = u_d (basis.hpp)
  const Eigen::VectorXd u = skinning_displacement_basis(B) * U.reshaped();
  for (Eigen::Index v = 0; v < n; ++v) {
    const Eigen::Vector3d expected = U.transpose() * B.row(v).transpose();
    EXPECT_LT((u.segment<3>(3 * v) - expected).norm(), 1e-14) << "vertex " << v;
  }
}

TEST(DisplacementBasis, OrthonormalizingKeepsTheSpanAndDropsDependentColumns) {
  const MassiveBox body;
  const Eigen::Index rows = body.M.size();
  Eigen::MatrixXd columns(rows, 5);
  columns.leftCols(3) = random_columns(rows, 3, 3);
  columns.col(3) = 2.0 * columns.col(0) - columns.col(2) + 1e-9 * random_columns(rows, 1, 4);
  columns.col(4) = random_columns(rows, 1, 5);
  const OrthonormalColumns result = mass_orthonormalize(columns, body.mass);
  EXPECT_EQ(result.kept, (std::vector<int>{0, 1, 2, 4}));
  const Eigen::MatrixXd& Phi = result.basis;
  EXPECT_LT((Phi.transpose() * body.M.asDiagonal() * Phi - Eigen::MatrixXd::Identity(4, 4)).norm(),
            1e-13);
  // Each kept column lies in the span of the basis columns up to its own.
  for (std::size_t k = 0; k < result.kept.size(); ++k) {
    const Eigen::VectorXd x = columns.col(result.kept[k]);
    const Eigen::MatrixXd span = Phi.leftCols(static_cast<Eigen::Index>(k) + 1);
    const Eigen::VectorXd rest = x - span * (span.transpose() * body.M.asDiagonal() * x);
    EXPECT_LT(rest.norm(), 1e-12 * x.norm()) << "column " << result.kept[k];
  }
  EXPECT_THROW(mass_orthonormalize(columns, body.mass, 0.0), std::invalid_argument);
  EXPECT_THROW(mass_orthonormalize(columns.topRows(rows - 1), body.mass), std::invalid_argument);
}

TEST(DisplacementBasis, ProjectionIsExactInTheSpanAndMassOrthogonalOutside) {
  const MassiveBox body;
  const Eigen::Index rows = body.M.size();
  const Eigen::MatrixXd Phi = random_columns(rows, 4, 6);
  const Eigen::VectorXd q = random_columns(4, 1, 7);
  EXPECT_LT((mass_projection(Phi, body.mass, Phi * q) - q).norm(), 1e-12 * q.norm());
  const Eigen::VectorXd u = random_columns(rows, 1, 8);
  const Eigen::VectorXd residual = u - Phi * mass_projection(Phi, body.mass, u);
  EXPECT_LT((Phi.transpose() * body.M.asDiagonal() * residual).norm(),
            1e-12 * (Phi.transpose() * body.M.asDiagonal() * u).norm());
  Eigen::MatrixXd dependent = Phi;
  dependent.col(3) = dependent.col(1);
  EXPECT_THROW(mass_projection(dependent, body.mass, u), std::invalid_argument);
  EXPECT_THROW(mass_projection(Phi, body.mass, u.head(rows - 3)), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::subspace
