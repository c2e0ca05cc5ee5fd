#pragma once
// One linear tetrahedron: rest volume, shape-function gradients, deformation gradient.
//
// Corners are the rows of a 4x3 matrix (corner j = row j, coordinates x y z), in the mesh's
// order. Positive orientation means det[X1 - X0, X2 - X0, X3 - X0] > 0. The linear shape
// functions phi_j (phi_j = 1 at corner j, 0 at the others, sum_j phi_j = 1) have constant
// gradients; they are returned as the rows of a 4x3 matrix G, row j = grad phi_j^T, so that
// the gradient of any corner-interpolated field f (4 x k, one row per corner) is f^T G (k x 3).
#include <Eigen/Core>
#include <Eigen/LU>

namespace smfem::fem {

// Four corners, one per row.
using TetCorners = Eigen::Matrix<double, 4, 3>;

// The edge matrix D = [X1 - X0, X2 - X0, X3 - X0] (3x3, edges as columns).
inline Eigen::Matrix3d linear_tet_edges(const TetCorners& X) {
  return (X.bottomRows<3>().rowwise() - X.row(0)).transpose();
}

// Signed rest volume det(D) / 6: positive for a positively oriented tet.
inline double linear_tet_volume(const TetCorners& X) {
  return linear_tet_edges(X).determinant() / 6.0;
}

// dphi/dX: 4x3, row j = grad phi_j^T in rest coordinates. Rows 1..3 are the rows of D^-1
// (phi_j for j >= 1 is the j-th barycentric coordinate D^-1 (X - X0)); row 0 is minus their
// sum, because the four phi_j sum to one. The tet must not be degenerate.
inline TetCorners linear_tet_dphi_dX(const TetCorners& X) {
  const Eigen::Matrix3d D_inverse = linear_tet_edges(X).inverse();
  TetCorners G;
  G.row(0) = -D_inverse.colwise().sum();
  G.bottomRows<3>() = D_inverse;
  return G;
}

// F = dx/dX = sum_j x_j grad phi_j^T = x^T G (3x3), for deformed corners x (4x3, one per
// row) and the rest gradients G = linear_tet_dphi_dX(X).
inline Eigen::Matrix3d linear_tet_deformation_gradient(const TetCorners& x,
                                                       const TetCorners& dphi_dX) {
  return x.transpose() * dphi_dX;
}

}  // namespace smfem::fem
