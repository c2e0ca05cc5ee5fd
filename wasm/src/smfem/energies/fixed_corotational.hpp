#pragma once
// Fixed corotational elasticity (Stomakhin, Howes, Schroeder and Teran 2012), per element and
// per unit rest volume:
//
//   psi(F) = mu ||F - R||^2 + lambda / 2 (J - 1)^2,   J = det F,
//   psi(s) = mu ||S - I||^2 + lambda / 2 (det S - 1)^2.
//
// The two agree at S = R^T F for every F, inverted ones included (R is a proper rotation, so
// det S = det F), and linearize at rest to linear elasticity with (mu, lambda). This is the
// cited model; the variant with (tr S - 3)^2 in place of (det S - 1)^2 is McAdams et al.'s
// corotated linear elasticity, a different material. Forms, derivative conventions and
// *_projected as in arap.hpp. Both Hessians are indefinite in general (under large volume
// change, inversion, and in F form wherever sigma_i + sigma_j < 2).
#include "smfem/energies/lame.hpp"
#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/types.hpp"

namespace smfem::energies::fixed_corotational {

template <typename Scalar>
Scalar psi(const Vector6<Scalar>& s, const LameParameters<Scalar>& params);
// 2 mu D (s - s_I) + lambda (J - 1) dJ/ds.
template <typename Scalar>
Vector6<Scalar> dpsi_ds(const Vector6<Scalar>& s, const LameParameters<Scalar>& params);
// 2 mu D + lambda (dJ/ds dJ/ds^T + (J - 1) d^2J/ds^2), 6 x 6.
template <typename Scalar>
Matrix6<Scalar> d2psi_ds2(const Vector6<Scalar>& s, const LameParameters<Scalar>& params);
template <typename Scalar>
Matrix6<Scalar> d2psi_ds2_projected(const Vector6<Scalar>& s, const LameParameters<Scalar>& params);

template <typename Scalar>
Scalar psi(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params);
// 2 mu (F - R) + lambda (J - 1) cof F, 3 x 3.
template <typename Scalar>
Matrix3<Scalar> dpsi_dF(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params);
// 2 mu (I - dR/dF) + lambda (vec(cof F) vec(cof F)^T + (J - 1) d^2J/dF^2), 9 x 9.
template <typename Scalar>
Matrix9<Scalar> d2psi_dF2(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params);
// Eigenvalues (pair i, j; third index k): twist 2 mu (1 - 2 / (sigma_i + sigma_j)) +
// lambda (J - 1) sigma_k, flip 2 mu - lambda (J - 1) sigma_k, and the scaling eigenvalues of
// 2 mu I + lambda (dJ dJ^T + (J - 1) d^2J) in sigma.
template <typename Scalar>
Matrix9<Scalar> d2psi_dF2_projected(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params);
// The same from F's signed SVD, which the solvers already have.
template <typename Scalar>
Matrix9<Scalar> d2psi_dF2_projected(const polar::SignedSvd<Scalar>& svd,
                                    const LameParameters<Scalar>& params);

}  // namespace smfem::energies::fixed_corotational
