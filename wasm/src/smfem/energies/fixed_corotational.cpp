#include "smfem/energies/fixed_corotational.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>  // determinant

#include "smfem/energies/detail/determinant.hpp"
#include "smfem/energies/detail/instantiate_material.hpp"
#include "smfem/energies/detail/isotropic_projection.hpp"
#include "smfem/polar/polar.hpp"
#include "smfem/polar/polar_derivatives.hpp"
#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/stretch_vector.hpp"

namespace smfem::energies::fixed_corotational {
namespace {

// psi^(sigma) = mu sum (sigma_i - 1)^2 + lambda / 2 (sigma0 sigma1 sigma2 - 1)^2, whose
// Hessian and divided differences give the eigenvalues (detail/isotropic_projection.hpp).
template <typename Scalar>
Matrix3<Scalar> scaling_hessian(const Vector3<Scalar>& sigma,
                                const LameParameters<Scalar>& params) {
  const Scalar J_minus_1 = sigma.prod() - Scalar(1);
  const Vector3<Scalar> dJ = detail::ddet_dsigma(sigma);
  return (Scalar(2) * params.mu) * Matrix3<Scalar>::Identity() +
         params.lambda * (dJ * dJ.transpose() + J_minus_1 * detail::d2det_dsigma2(sigma));
}

template <typename Scalar>
Vector3<Scalar> flip_eigenvalues(const Vector3<Scalar>& sigma,
                                 const LameParameters<Scalar>& params) {
  const Scalar J_minus_1 = sigma.prod() - Scalar(1);
  return Vector3<Scalar>::Constant(Scalar(2) * params.mu) - (params.lambda * J_minus_1) * sigma;
}

template <typename Scalar>
Vector3<Scalar> twist_eigenvalues(const Vector3<Scalar>& sigma, const Vector3<Scalar>& kappa,
                                  const LameParameters<Scalar>& params) {
  const Scalar J_minus_1 = sigma.prod() - Scalar(1);
  return (Scalar(2) * params.mu) * (Vector3<Scalar>::Ones() - Scalar(2) * kappa.cwiseInverse()) +
         (params.lambda * J_minus_1) * sigma;
}

}  // namespace

template <typename Scalar>
Scalar psi(const Vector6<Scalar>& s, const LameParameters<Scalar>& params) {
  const Vector6<Scalar> strain = s - polar::identity_stretch<Scalar>();
  const Scalar J_minus_1 = detail::det_s(s) - Scalar(1);
  return params.mu * strain.dot(polar::stretch_metric<Scalar>().cwiseProduct(strain)) +
         Scalar(0.5) * params.lambda * J_minus_1 * J_minus_1;
}

template <typename Scalar>
Vector6<Scalar> dpsi_ds(const Vector6<Scalar>& s, const LameParameters<Scalar>& params) {
  const Scalar J_minus_1 = detail::det_s(s) - Scalar(1);
  return (Scalar(2) * params.mu) *
             polar::stretch_metric<Scalar>().cwiseProduct(s - polar::identity_stretch<Scalar>()) +
         (params.lambda * J_minus_1) * detail::ddet_ds(s);
}

template <typename Scalar>
Matrix6<Scalar> d2psi_ds2(const Vector6<Scalar>& s, const LameParameters<Scalar>& params) {
  const Scalar J_minus_1 = detail::det_s(s) - Scalar(1);
  const Vector6<Scalar> dJ = detail::ddet_ds(s);
  Matrix6<Scalar> H = params.lambda * (dJ * dJ.transpose() + J_minus_1 * detail::d2det_ds2(s));
  H.diagonal() += (Scalar(2) * params.mu) * polar::stretch_metric<Scalar>();
  return H;
}

template <typename Scalar>
Matrix6<Scalar> d2psi_ds2_projected(const Vector6<Scalar>& s,
                                    const LameParameters<Scalar>& params) {
  // Elements near rest, most of them, have a positive definite H: their own projection, found
  // by a 6x6 Cholesky for a tenth of the cost of the eigensystem.
  const Matrix6<Scalar> H = d2psi_ds2(s, params);
  if (Eigen::LLT<Matrix6<Scalar>>(H).info() == Eigen::Success) return H;
  const Eigen::SelfAdjointEigenSolver<Matrix3<Scalar>> eigen(polar::stretch_to_matrix(s));
  const Vector3<Scalar>& lambda = eigen.eigenvalues();
  return detail::projected_stretch_hessian<Scalar>(
      eigen.eigenvectors(), scaling_hessian(lambda, params), flip_eigenvalues(lambda, params));
}

template <typename Scalar>
Scalar psi(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params) {
  const Vector3<Scalar> sigma = polar::signed_svd(F).sigma;
  const Scalar J_minus_1 = F.determinant() - Scalar(1);
  return params.mu * (sigma - Vector3<Scalar>::Ones()).squaredNorm() +
         Scalar(0.5) * params.lambda * J_minus_1 * J_minus_1;
}

template <typename Scalar>
Matrix3<Scalar> dpsi_dF(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params) {
  const Scalar J_minus_1 = F.determinant() - Scalar(1);
  return (Scalar(2) * params.mu) * (F - polar::polar_rotation(F)) +
         (params.lambda * J_minus_1) * detail::ddet_dF(F);
}

template <typename Scalar>
Matrix9<Scalar> d2psi_dF2(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params) {
  const Scalar J_minus_1 = F.determinant() - Scalar(1);
  const Matrix3<Scalar> cofactor = detail::ddet_dF(F);
  const Eigen::Map<const Vector9<Scalar>> dJ(cofactor.data());
  return (Scalar(2) * params.mu) * (Matrix9<Scalar>::Identity() - polar::drotation_dF(F)) +
         params.lambda * (dJ * dJ.transpose() + J_minus_1 * detail::d2det_dF2(F));
}

template <typename Scalar>
Matrix9<Scalar> d2psi_dF2_projected(const Matrix3<Scalar>& F,
                                    const LameParameters<Scalar>& params) {
  return d2psi_dF2_projected(polar::signed_svd(F), params);
}

template <typename Scalar>
Matrix9<Scalar> d2psi_dF2_projected(const polar::SignedSvd<Scalar>& svd,
                                    const LameParameters<Scalar>& params) {
  return detail::projected_F_hessian<Scalar>(
      svd, scaling_hessian(svd.sigma, params),
      twist_eigenvalues(svd.sigma, polar::clamped_pair_sums(svd), params),
      flip_eigenvalues(svd.sigma, params));
}

SMFEM_INSTANTIATE_MATERIAL()

}  // namespace smfem::energies::fixed_corotational
