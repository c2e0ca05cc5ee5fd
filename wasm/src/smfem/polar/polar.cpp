#include "smfem/polar/polar.hpp"

#include "smfem/polar/stretch_vector.hpp"

namespace smfem::polar {

template <typename Scalar>
Matrix3<Scalar> polar_rotation(const SignedSvd<Scalar>& svd) {
  return svd.U * svd.V.transpose();
}

template <typename Scalar>
Matrix3<Scalar> polar_rotation(const Matrix3<Scalar>& F) {
  return polar_rotation(signed_svd(F));
}

template <typename Scalar>
Vector6<Scalar> symmetric_stretch(const SignedSvd<Scalar>& svd) {
  // Built from V and sigma rather than as R^T F: symmetric by construction.
  return stretch_from_matrix<Scalar>(svd.V * svd.sigma.asDiagonal() * svd.V.transpose());
}

template <typename Scalar>
Vector6<Scalar> symmetric_stretch(const Matrix3<Scalar>& F) {
  return symmetric_stretch(signed_svd(F));
}

#define SMFEM_INSTANTIATE(Scalar)                                             \
  template Matrix3<Scalar> polar_rotation<Scalar>(const Matrix3<Scalar>&);    \
  template Matrix3<Scalar> polar_rotation<Scalar>(const SignedSvd<Scalar>&);  \
  template Vector6<Scalar> symmetric_stretch<Scalar>(const Matrix3<Scalar>&); \
  template Vector6<Scalar> symmetric_stretch<Scalar>(const SignedSvd<Scalar>&);
SMFEM_INSTANTIATE(float)
SMFEM_INSTANTIATE(double)
#undef SMFEM_INSTANTIATE

}  // namespace smfem::polar
