#pragma once
// As-rigid-as-possible (ARAP) elasticity, per element and per unit rest volume:
//
//   psi(F) = mu ||F - R||^2 = mu ||S - I||^2 = mu sum_i (sigma_i - 1)^2,
//
// with F = R S the polar decomposition (polar/polar.hpp; R a proper rotation, so the energy is
// defined for inverted F and equals the stretch form at S = R^T F for every F). No volume
// term: lambda is ignored. Two forms:
//  - stretch form, for the stretch DOFs of the mixed solver: functions of s (the 6-vector of
//    polar/stretch_vector.hpp); derivatives by the six stored components.
//  - F form, for standard FEM: functions of F; Hessians on vec(F) (column-major).
// *_projected Hessians are the PSD parts (negative eigenvalues set to zero), from the closed-
// form eigensystem (energies/detail/isotropic_projection.hpp). The F-form Hessian is
// indefinite wherever sigma_i + sigma_j < 2 (the twist modes); the stretch-form Hessian is
// 2 mu D, always positive definite.
#include "smfem/energies/lame.hpp"
#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/types.hpp"

namespace smfem::energies::arap {

template <typename Scalar>
Scalar psi(const Vector6<Scalar>& s, const LameParameters<Scalar>& params);
// 2 mu D (s - s_I), s_I the identity.
template <typename Scalar>
Vector6<Scalar> dpsi_ds(const Vector6<Scalar>& s, const LameParameters<Scalar>& params);
// 2 mu D, 6 x 6.
template <typename Scalar>
Matrix6<Scalar> d2psi_ds2(const Vector6<Scalar>& s, const LameParameters<Scalar>& params);
// Equal to d2psi_ds2 (already positive definite); for a uniform material interface.
template <typename Scalar>
Matrix6<Scalar> d2psi_ds2_projected(const Vector6<Scalar>& s, const LameParameters<Scalar>& params);

template <typename Scalar>
Scalar psi(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params);
// 2 mu (F - R), 3 x 3.
template <typename Scalar>
Matrix3<Scalar> dpsi_dF(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params);
// 2 mu (I - d vec(R) / d vec(F)), 9 x 9.
template <typename Scalar>
Matrix9<Scalar> d2psi_dF2(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params);
// Eigenvalues: scaling and flip 2 mu; twist 2 mu (1 - 2 / (sigma_i + sigma_j)), clamped at 0.
template <typename Scalar>
Matrix9<Scalar> d2psi_dF2_projected(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params);
// The same from F's signed SVD, which the solvers already have.
template <typename Scalar>
Matrix9<Scalar> d2psi_dF2_projected(const polar::SignedSvd<Scalar>& svd,
                                    const LameParameters<Scalar>& params);

}  // namespace smfem::energies::arap
