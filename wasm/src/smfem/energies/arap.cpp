#include "smfem/energies/arap.hpp"

#include "smfem/energies/detail/instantiate_material.hpp"
#include "smfem/energies/detail/isotropic_projection.hpp"
#include "smfem/polar/polar.hpp"
#include "smfem/polar/polar_derivatives.hpp"
#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/stretch_vector.hpp"

namespace smfem::energies::arap {

template <typename Scalar>
Scalar psi(const Vector6<Scalar>& s, const LameParameters<Scalar>& params) {
  const Vector6<Scalar> strain = s - polar::identity_stretch<Scalar>();
  return params.mu * strain.dot(polar::stretch_metric<Scalar>().cwiseProduct(strain));
}

template <typename Scalar>
Vector6<Scalar> dpsi_ds(const Vector6<Scalar>& s, const LameParameters<Scalar>& params) {
  return (Scalar(2) * params.mu) *
         polar::stretch_metric<Scalar>().cwiseProduct(s - polar::identity_stretch<Scalar>());
}

template <typename Scalar>
Matrix6<Scalar> d2psi_ds2(const Vector6<Scalar>&, const LameParameters<Scalar>& params) {
  return ((Scalar(2) * params.mu) * polar::stretch_metric<Scalar>()).asDiagonal();
}

template <typename Scalar>
Matrix6<Scalar> d2psi_ds2_projected(const Vector6<Scalar>& s,
                                    const LameParameters<Scalar>& params) {
  return d2psi_ds2(s, params);
}

template <typename Scalar>
Scalar psi(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params) {
  const Vector3<Scalar> sigma = polar::signed_svd(F).sigma;
  return params.mu * (sigma - Vector3<Scalar>::Ones()).squaredNorm();
}

template <typename Scalar>
Matrix3<Scalar> dpsi_dF(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params) {
  // R's own variation is orthogonal to F - R = R (S - I), so it drops out.
  return (Scalar(2) * params.mu) * (F - polar::polar_rotation(F));
}

template <typename Scalar>
Matrix9<Scalar> d2psi_dF2(const Matrix3<Scalar>& F, const LameParameters<Scalar>& params) {
  return (Scalar(2) * params.mu) * (Matrix9<Scalar>::Identity() - polar::drotation_dF(F));
}

template <typename Scalar>
Matrix9<Scalar> d2psi_dF2_projected(const Matrix3<Scalar>& F,
                                    const LameParameters<Scalar>& params) {
  return d2psi_dF2_projected(polar::signed_svd(F), params);
}

template <typename Scalar>
Matrix9<Scalar> d2psi_dF2_projected(const polar::SignedSvd<Scalar>& svd,
                                    const LameParameters<Scalar>& params) {
  const Scalar two_mu = Scalar(2) * params.mu;
  const Vector3<Scalar> twist =
      two_mu * (Vector3<Scalar>::Ones() - Scalar(2) * polar::clamped_pair_sums(svd).cwiseInverse());
  return detail::projected_F_hessian<Scalar>(svd, two_mu * Matrix3<Scalar>::Identity(), twist,
                                             Vector3<Scalar>::Constant(two_mu));
}

SMFEM_INSTANTIATE_MATERIAL()

}  // namespace smfem::energies::arap
