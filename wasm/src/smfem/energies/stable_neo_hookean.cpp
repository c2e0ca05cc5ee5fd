#include "smfem/energies/stable_neo_hookean.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>  // determinant

#include "smfem/energies/detail/determinant.hpp"
#include "smfem/energies/detail/instantiate_material.hpp"
#include "smfem/energies/detail/isotropic_projection.hpp"
#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/stretch_vector.hpp"

namespace smfem::energies::stable_neo_hookean {
namespace {

template <typename Scalar>
Scalar shifted_lambda(const LameParameters<Scalar>& params) {
  return params.lambda + params.mu;
}

// The coefficient of dJ and d^2J: d psi / dJ = lambda^ (J - 1) - mu.
template <typename Scalar>
Scalar dpsi_dJ(Scalar J, const LameParameters<Scalar>& params) {
  return shifted_lambda(params) * (J - Scalar(1)) - params.mu;
}

// psi^(sigma) = mu / 2 (sum sigma_i^2 - 3) - mu (J - 1) + lambda^ / 2 (J - 1)^2: its Hessian
// and divided differences give the eigenvalues (detail/isotropic_projection.hpp).
template <typename Scalar>
Matrix3<Scalar> scaling_hessian(const Vector3<Scalar>& sigma,
                                const LameParameters<Scalar>& params) {
  const Vector3<Scalar> dJ = detail::ddet_dsigma(sigma);
  return params.mu * Matrix3<Scalar>::Identity() + shifted_lambda(params) * (dJ * dJ.transpose()) +
         dpsi_dJ(sigma.prod(), params) * detail::d2det_dsigma2(sigma);
}

template <typename Scalar>
Vector3<Scalar> flip_eigenvalues(const Vector3<Scalar>& sigma,
                                 const LameParameters<Scalar>& params) {
  return Vector3<Scalar>::Constant(params.mu) - dpsi_dJ(sigma.prod(), params) * sigma;
}

template <typename Scalar>
Vector3<Scalar> twist_eigenvalues(const Vector3<Scalar>& sigma,
                                  const LameParameters<Scalar>& params) {
  return Vector3<Scalar>::Constant(params.mu) + dpsi_dJ(sigma.prod(), params) * sigma;
}

}  // namespace

template <typename Scalar>
Scalar psi(const Vector6<Scalar>& s, const LameParameters<Scalar>& params) {
  const Scalar I_C = s.dot(polar::stretch_metric<Scalar>().cwiseProduct(s));
  const Scalar J_minus_1 = detail::det_s(s) - Scalar(1);
  return Scalar(0.5) * params.mu * (I_C - Scalar(3)) - params.mu * J_minus_1 +
         Scalar(0.5) * shifted_lambda(params) * J_minus_1 * J_minus_1;
}

template <typename Scalar>
Vector6<Scalar> dpsi_ds(const Vector6<Scalar>& s, const LameParameters<Scalar>& params) {
  return params.mu * polar::stretch_metric<Scalar>().cwiseProduct(s) +
         dpsi_dJ(detail::det_s(s), params) * detail::ddet_ds(s);
}

template <typename Scalar>
Matrix6<Scalar> d2psi_ds2(const Vector6<Scalar>& s, const LameParameters<Scalar>& params) {
  const Vector6<Scalar> dJ = detail::ddet_ds(s);
  // Materialized first: Eigen would fold the scalar into one factor, breaking exact symmetry.
  const Matrix6<Scalar> dJ_dJ = dJ * dJ.transpose();
  Matrix6<Scalar> H =
      shifted_lambda(params) * dJ_dJ + dpsi_dJ(detail::det_s(s), params) * detail::d2det_ds2(s);
  H.diagonal() += params.mu * polar::stretch_metric<Scalar>();
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
  const Scalar J_minus_1 = F.determinant() - Scalar(1);
  return Scalar(0.5) * params.mu * (F.squaredNorm() - Scalar(3)) - params.mu * J_minus_1 +
         Scalar(0.5) * shifted_lambda(params) * J_minus_1 * J_minus_1;
}

template <typename Scalar>
Matrix3<Scalar> dpsi_dF(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params) {
  return params.mu * F + dpsi_dJ(F.determinant(), params) * detail::ddet_dF(F);
}

template <typename Scalar>
Matrix9<Scalar> d2psi_dF2(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params) {
  const Matrix3<Scalar> cofactor = detail::ddet_dF(F);
  const Eigen::Map<const Vector9<Scalar>> dJ(cofactor.data());
  const Matrix9<Scalar> dJ_dJ = dJ * dJ.transpose();  // see d2psi_ds2
  Matrix9<Scalar> H =
      shifted_lambda(params) * dJ_dJ + dpsi_dJ(F.determinant(), params) * detail::d2det_dF2(F);
  H.diagonal().array() += params.mu;
  return H;
}

template <typename Scalar>
Matrix9<Scalar> d2psi_dF2_projected(const Matrix3<Scalar>& F,
                                    const LameParameters<Scalar>& params) {
  return d2psi_dF2_projected(polar::signed_svd(F), params);
}

template <typename Scalar>
Matrix9<Scalar> d2psi_dF2_projected(const polar::SignedSvd<Scalar>& svd,
                                    const LameParameters<Scalar>& params) {
  return detail::projected_F_hessian<Scalar>(svd, scaling_hessian(svd.sigma, params),
                                             twist_eigenvalues(svd.sigma, params),
                                             flip_eigenvalues(svd.sigma, params));
}

SMFEM_INSTANTIATE_MATERIAL()

}  // namespace smfem::energies::stable_neo_hookean
