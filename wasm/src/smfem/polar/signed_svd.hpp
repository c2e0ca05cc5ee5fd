#pragma once
// The singular value decomposition of a deformation gradient with rotations on both sides
// (Irving, Teran and Fedkiw 2004, "Invertible finite elements"):
//
//   F = U diag(sigma) V^T,  det U = det V = +1,  sigma0 >= sigma1 >= |sigma2|,
//
// so sigma2 < 0 exactly when det F < 0 (an inverted element). Then R = U V^T is a proper
// rotation for every F, and S = V diag(sigma) V^T = R^T F is symmetric (indefinite when F is
// inverted): the polar decomposition, the materials and all their derivatives below are
// defined for inverted and degenerate elements alike.
#include "smfem/polar/types.hpp"

namespace smfem::polar {

template <typename Scalar>
struct SignedSvd {
  Matrix3<Scalar> U;      // rotation, columns u0 u1 u2
  Vector3<Scalar> sigma;  // sigma0 >= sigma1 >= |sigma2|, sigma2 carries the sign of det F
  Matrix3<Scalar> V;      // rotation, columns v0 v1 v2
};

// Jacobi on F^T F for V, then QR of F V for U and sigma (signed_svd.cpp): accurate for nearly
// singular F as well. Finite for every finite F, including F = 0 (then U = V = I); a
// non-finite F gives NaN singular values.
template <typename Scalar>
SignedSvd<Scalar> signed_svd(const Matrix3<Scalar>& F);
// The same, faster when V_start (a rotation) is the V of a nearby F: the line-search trials start
// from the current iterate's. sigma, U V^T and V diag(sigma) V^T equal signed_svd(F)'s to
// rounding (not bit for bit); U and V may differ where singular values repeat.
template <typename Scalar>
SignedSvd<Scalar> signed_svd(const Matrix3<Scalar>& F, const Matrix3<Scalar>& V_start);

// The pairwise sums kappa_k = sigma_i + sigma_j over {i, j, k} = {0, 1, 2}, the eigenvalues
// of tr(S) I - S. They are >= 0 for a signed SVD and are the denominators of every derivative
// of the rotation: R(F) is not differentiable where one vanishes (two singular values zero,
// or equal and of opposite sign), and its derivative grows like 1 / kappa near there.
// Returned clamped below at sqrt(machine epsilon) * sigma0, so derivatives stay finite,
// bounded by about 1e8 / sigma0 in double precision. (Plus the square root of the smallest
// normal number, which keeps F = 0 finite too: its second derivatives, which scale like
// 1 / kappa, are then about 1e154 in double and 1e19 in float.)
template <typename Scalar>
Vector3<Scalar> clamped_pair_sums(const SignedSvd<Scalar>& svd);

}  // namespace smfem::polar
