#pragma once
// Positive semi-definite projections of the Hessians of isotropic energies, assembled from
// their closed-form eigensystems (Smith, De Goes and Kim 2019, "Analytic eigensystems for
// isotropic distortion energies"): each negative eigenvalue is replaced by zero, which is the
// nearest PSD matrix in the Frobenius norm of the matrix argument.
//
// An isotropic energy psi(F) = psi^(sigma) of the signed singular values has, with
// F = U diag(sigma) V^T and for each pair {i, j} with third index k, the eigenpairs
//   twist:   (u_i v_j^T - u_j v_i^T) / sqrt 2,  (g_i + g_j) / (sigma_i + sigma_j)
//   flip:    (u_i v_j^T + u_j v_i^T) / sqrt 2,  (g_i - g_j) / (sigma_i - sigma_j)
// (g = d psi^ / d sigma; each material supplies both in a form that does not divide by a
// difference), and three scaling modes sum_i a_i u_i v_i^T, with (a, alpha) the eigenpairs
// of the 3x3 Hessian d^2 psi^ / d sigma^2.
//
// The same energy written in a symmetric S = Q diag(lambda) Q^T has the flip eigenpairs
// (q_i q_j^T + q_j q_i^T) / sqrt 2 and the scaling modes sum_i a_i q_i q_i^T, with psi^, g and
// the Hessian evaluated at lambda; no twist (S has no rotational part).
#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/types.hpp"

namespace smfem::energies::detail {

// The PSD part of d^2 psi / d vec(F)^2 (9 x 9, column-major vec). twist(k) and flip(k) are the
// eigenvalues of the pair opposite index k; scaling is d^2 psi^ / d sigma^2.
template <typename Scalar>
Matrix9<Scalar> projected_F_hessian(const polar::SignedSvd<Scalar>& svd,
                                    const Matrix3<Scalar>& scaling, const Vector3<Scalar>& twist,
                                    const Vector3<Scalar>& flip);

// The PSD part of d^2 psi / ds^2 (6 x 6, by the stored components s, stretch_vector.hpp) at
// S = Q diag(lambda) Q^T. Projected in the metric D, in which s-space is isometric to the
// symmetric matrices, so the result does not depend on the frame S is expressed in.
template <typename Scalar>
Matrix6<Scalar> projected_stretch_hessian(const Matrix3<Scalar>& Q, const Matrix3<Scalar>& scaling,
                                          const Vector3<Scalar>& flip);

}  // namespace smfem::energies::detail
