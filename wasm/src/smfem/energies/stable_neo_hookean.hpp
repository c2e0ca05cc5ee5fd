#pragma once
// Stable neo-Hookean elasticity (Smith, De Goes and Kim 2018), in the simplified form of their
// 2019 eigensystem paper, per element and per unit rest volume:
//
//   psi(F) = mu / 2 (I_C - 3) - mu (J - 1) + lambda^ / 2 (J - 1)^2,
//   I_C = ||F||^2 = ||S||^2,  J = det F = det S,  lambda^ = lambda + mu,
//
// and psi(s) the same expression in S (equal at S = R^T F for every F). The shift
// lambda^ = lambda + mu (Smith et al. 2018, sec. 3.4) makes the small-strain limit linear
// elasticity with the given (mu, lambda), like the other materials; it has no log barrier, so
// it is finite, and stable, for inverted and collapsed elements. Rest (F = I) is stress free.
// Forms, derivative conventions and *_projected as in arap.hpp; both Hessians are indefinite
// in general. The value, gradient and unprojected Hessian need no SVD.
#include "smfem/energies/lame.hpp"
#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/types.hpp"

namespace smfem::energies::stable_neo_hookean {

template <typename Scalar>
Scalar psi(const Vector6<Scalar>& s, const LameParameters<Scalar>& params);
// mu D s + (lambda^ (J - 1) - mu) dJ/ds.
template <typename Scalar>
Vector6<Scalar> dpsi_ds(const Vector6<Scalar>& s, const LameParameters<Scalar>& params);
// mu D + lambda^ dJ/ds dJ/ds^T + (lambda^ (J - 1) - mu) d^2J/ds^2, 6 x 6.
template <typename Scalar>
Matrix6<Scalar> d2psi_ds2(const Vector6<Scalar>& s, const LameParameters<Scalar>& params);
template <typename Scalar>
Matrix6<Scalar> d2psi_ds2_projected(const Vector6<Scalar>& s, const LameParameters<Scalar>& params);

template <typename Scalar>
Scalar psi(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params);
// mu F + (lambda^ (J - 1) - mu) cof F, 3 x 3.
template <typename Scalar>
Matrix3<Scalar> dpsi_dF(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params);
// mu I + lambda^ vec(cof F) vec(cof F)^T + (lambda^ (J - 1) - mu) d^2J/dF^2, 9 x 9.
template <typename Scalar>
Matrix9<Scalar> d2psi_dF2(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params);
// Eigenvalues (pair i, j; third index k), with c = lambda^ (J - 1) - mu: twist mu + c sigma_k,
// flip mu - c sigma_k, and the scaling eigenvalues of mu I + lambda^ dJ dJ^T + c d^2J in sigma.
template <typename Scalar>
Matrix9<Scalar> d2psi_dF2_projected(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params);
// The same from F's signed SVD, which the solvers already have.
template <typename Scalar>
Matrix9<Scalar> d2psi_dF2_projected(const polar::SignedSvd<Scalar>& svd,
                                    const LameParameters<Scalar>& params);

}  // namespace smfem::energies::stable_neo_hookean
