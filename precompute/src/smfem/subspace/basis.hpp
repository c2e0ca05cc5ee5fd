#pragma once
// The linear-blend-skinning basis built on skinning weights W (|V| x m), and the data the
// run-time solver needs from it.
//
// Reduced coordinates u (12m) are ordered by output coordinate: u = [u_0; u_1; u_2], u_d in
// R^4m, u_d[4i + k] = (A_i)_dk, A_i the 3x4 affine matrix of mode i. With the basis vector of
// vertex v,
//   b_v in R^4m,  b_v[4i + k] = W_vi [X_v; 1]_k,
// positions are x_v,d = X_v,d + u_d . b_v (u = 0 is the rest state), and the deformation
// gradient of tet t is
//   F_t row d = e_d^T + u_d^T Y_t,   Y_t = sum_{j in t} b_j grad phi_j^T   (4m x 3),
// so dF_t/du = I_3 (x) Y_t^T. Y_t is the rest-space gradient of the field b over tet t.
#include <Eigen/Core>

#include "smfem/mesh/types.hpp"

namespace smfem::subspace {

using RowMatrixXd = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Y_t of several tets stacked: (count * 4m) x 3, row-major, so the whole array is contiguous
// as count x 4m x 3 and tet c's block is rows [4m c, 4m (c + 1)).
using TetBasisGradients = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;

// B: |V| x 4m, row v = b_v^T.
RowMatrixXd vertex_basis(const mesh::TetMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& W);

// Y_t for the listed tets (0-based, in the given order; repeats allowed).
TetBasisGradients tet_basis_gradients(const mesh::TetMesh& mesh,
                                      const Eigen::Ref<const Eigen::MatrixXd>& W,
                                      const Eigen::Ref<const Eigen::VectorXi>& tets);

// M_u = sum_v m_v b_v b_v^T = B^T diag(mass) B (4m x 4m, symmetric bit for bit); the reduced
// mass matrix of u is I_3 (x) M_u. mass: |V| lumped masses.
Eigen::MatrixXd reduced_mass(const Eigen::Ref<const RowMatrixXd>& basis,
                             const Eigen::Ref<const Eigen::VectorXd>& mass);

// g_u = sum_v m_v b_v = B^T mass (4m). Under a uniform gravity vector g the reduced force is
// [g_0 g_u; g_1 g_u; g_2 g_u].
Eigen::VectorXd reduced_gravity(const Eigen::Ref<const RowMatrixXd>& basis,
                                const Eigen::Ref<const Eigen::VectorXd>& mass);

// W averaged onto tets: |T| x m, row t = the mean of W's rows at t's four corners.
Eigen::MatrixXd tet_averaged_weights(const mesh::TetMesh& mesh,
                                     const Eigen::Ref<const Eigen::MatrixXd>& W);

}  // namespace smfem::subspace
