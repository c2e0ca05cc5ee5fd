#include "smfem/subspace/basis.hpp"

#include <stdexcept>
#include <string>

#include "smfem/fem/linear_tet.hpp"
#include "smfem/subspace/detail/check_inputs.hpp"

namespace smfem::subspace {

namespace {

void check_weights(const char* caller, const mesh::TetMesh& mesh,
                   const Eigen::Ref<const Eigen::MatrixXd>& W) {
  detail::check_size(caller, "W (rows)", W.rows(), mesh.vertices.rows());
  detail::check_tet_mesh(caller, mesh);
}

}  // namespace

RowMatrixXd vertex_basis(const mesh::TetMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& W) {
  check_weights("vertex_basis", mesh, W);
  const Eigen::Index modes = W.cols();
  RowMatrixXd B(W.rows(), 4 * modes);
  for (Eigen::Index v = 0; v < W.rows(); ++v) {
    const Eigen::RowVector4d X_homogeneous(mesh.vertices(v, 0), mesh.vertices(v, 1),
                                           mesh.vertices(v, 2), 1.0);
    for (Eigen::Index i = 0; i < modes; ++i) {
      B.row(v).segment<4>(4 * i) = W(v, i) * X_homogeneous;
    }
  }
  return B;
}

TetBasisGradients tet_basis_gradients(const mesh::TetMesh& mesh,
                                      const Eigen::Ref<const Eigen::MatrixXd>& W,
                                      const Eigen::Ref<const Eigen::VectorXi>& tets) {
  const char* caller = "tet_basis_gradients";
  check_weights(caller, mesh, W);
  const Eigen::Index modes = W.cols();
  TetBasisGradients Y = TetBasisGradients::Zero(tets.size() * 4 * modes, 3);
  for (Eigen::Index c = 0; c < tets.size(); ++c) {
    const int t = tets(c);
    if (t < 0 || t >= mesh.tets.rows()) {
      throw std::invalid_argument(std::string(caller) + ": tet " + std::to_string(t) +
                                  " is not in 0.." + std::to_string(mesh.tets.rows() - 1));
    }
    fem::TetCorners X;
    for (int j = 0; j < 4; ++j) X.row(j) = mesh.vertices.row(mesh.tets(t, j));
    const fem::TetCorners G = fem::linear_tet_dphi_dX(X);
    auto Y_t = Y.middleRows(4 * modes * c, 4 * modes);
    for (int j = 0; j < 4; ++j) {
      const int v = mesh.tets(t, j);
      for (Eigen::Index i = 0; i < modes; ++i) {
        for (int k = 0; k < 4; ++k) {
          const double b = W(v, i) * (k < 3 ? X(j, k) : 1.0);
          Y_t.row(4 * i + k) += b * G.row(j);
        }
      }
    }
  }
  return Y;
}

Eigen::MatrixXd reduced_mass(const Eigen::Ref<const RowMatrixXd>& basis,
                             const Eigen::Ref<const Eigen::VectorXd>& mass) {
  detail::check_size("reduced_mass", "mass", mass.size(), basis.rows());
  // B^T diag(m) B as the Gram matrix of diag(sqrt m) B: a rank update of one triangle,
  // mirrored, is symmetric by construction.
  const RowMatrixXd scaled = mass.cwiseSqrt().asDiagonal() * basis;
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(basis.cols(), basis.cols());
  M.selfadjointView<Eigen::Lower>().rankUpdate(scaled.transpose());
  M.triangularView<Eigen::StrictlyUpper>() = M.transpose();
  return M;
}

Eigen::VectorXd reduced_gravity(const Eigen::Ref<const RowMatrixXd>& basis,
                                const Eigen::Ref<const Eigen::VectorXd>& mass) {
  detail::check_size("reduced_gravity", "mass", mass.size(), basis.rows());
  return basis.transpose() * mass;
}

Eigen::MatrixXd tet_averaged_weights(const mesh::TetMesh& mesh,
                                     const Eigen::Ref<const Eigen::MatrixXd>& W) {
  check_weights("tet_averaged_weights", mesh, W);
  Eigen::MatrixXd averaged(mesh.tets.rows(), W.cols());
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    averaged.row(t) = 0.25 * (W.row(mesh.tets(t, 0)) + W.row(mesh.tets(t, 1)) +
                              W.row(mesh.tets(t, 2)) + W.row(mesh.tets(t, 3)));
  }
  return averaged;
}

}  // namespace smfem::subspace
