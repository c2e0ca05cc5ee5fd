#pragma once
// First and second derivatives of the polar decomposition F = R S (polar.hpp) with respect
// to vec(F) (column-major, types.hpp); S as the 6-vector s of stretch_vector.hpp.
//
// With the signed SVD F = U diag(sigma) V^T, a perturbation dF seen in the singular frames,
// dF^ = U^T dF V, changes the factors by (Papadopoulo and Lourakis 2000; Twigg and
// Kacic-Alesic 2010)
//
//   dR = U Omega V^T,  Omega_ij = (dF^_ij - dF^_ji) / (sigma_i + sigma_j)        (skew),
//   dS = V M V^T,      M_ii = dF^_ii,  M_ij = (sigma_i dF^_ij + sigma_j dF^_ji) / (sigma_i +
//   sigma_j).
//
// Only the pairwise sums sigma_i + sigma_j appear (never differences), so repeated singular
// values (F = I, uniform scaling) are harmless. The sums vanish only where R itself is not
// differentiable; they are clamped as documented at polar::clamped_pair_sums, which keeps
// every output finite.
//
// Each function comes in two forms: from F, and from its signed SVD, so a caller that needs
// several of them for one element decomposes F once.
#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/types.hpp"

namespace smfem::polar {

// d vec(R) / d vec(F), 9 x 9, symmetric:  sum over pairs i < j of t t^T / (sigma_i + sigma_j)
// with t = vec(u_i v_j^T - u_j v_i^T).
template <typename Scalar>
Matrix9<Scalar> drotation_dF(const Matrix3<Scalar>& F);
template <typename Scalar>
Matrix9<Scalar> drotation_dF(const SignedSvd<Scalar>& svd);

// ds / d vec(F), 6 x 9: row k is the gradient of the stored component s_k.
template <typename Scalar>
Matrix6x9<Scalar> dstretch_dF(const Matrix3<Scalar>& F);
template <typename Scalar>
Matrix6x9<Scalar> dstretch_dF(const SignedSvd<Scalar>& svd);

// sum_k m_k d^2 s_k / d vec(F)^2, 9 x 9 symmetric: the Hessian of phi(F) = m^T s(F). The mixed
// solver's constraint term mu^T D (s(F) - z) needs m = D mu.
//
// Computed without the SVD frames' own derivatives (which blow up for repeated singular
// values): with G the symmetric matrix such that G : S = m^T s (off-diagonals m_k / 2),
// K = tr(S) I - S and ax(X) the axial vector of X - X^T, the gradient of phi is
//   P = R (G + [q]x),  q = K^-1 ax(S G),
// and its derivative along dF, with dR = R [w]x, w = K^-1 ax(R^T dF), dS = R^T dF - [w]x S,
//   dP = R [w]x (G + [q]x) + R [dq]x,  dq = K^-1 (ax(dS G) - (tr(dS) I - dS) q).
// K^-1 = V diag(1 / kappa) V^T with the clamped pairwise sums kappa.
template <typename Scalar>
Matrix9<Scalar> d2stretch_dF2_contract(const Matrix3<Scalar>& F, const Vector6<Scalar>& m);
template <typename Scalar>
Matrix9<Scalar> d2stretch_dF2_contract(const SignedSvd<Scalar>& svd, const Vector6<Scalar>& m);

}  // namespace smfem::polar
