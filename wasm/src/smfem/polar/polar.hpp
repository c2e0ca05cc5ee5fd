#pragma once
// The polar decomposition F = R S with R a proper rotation (det R = +1) and S symmetric, for
// every F: S is positive definite when det F > 0 and has one negative eigenvalue when the
// element is inverted (see signed_svd.hpp). S is returned as the 6-vector of
// stretch_vector.hpp. Where F has two zero singular values, or two of equal size and
// opposite sign, R is not unique; one valid choice is returned.
#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/types.hpp"

namespace smfem::polar {

// R = U V^T.
template <typename Scalar>
Matrix3<Scalar> polar_rotation(const Matrix3<Scalar>& F);
template <typename Scalar>
Matrix3<Scalar> polar_rotation(const SignedSvd<Scalar>& svd);

// s of S = R^T F = V diag(sigma) V^T.
template <typename Scalar>
Vector6<Scalar> symmetric_stretch(const Matrix3<Scalar>& F);
template <typename Scalar>
Vector6<Scalar> symmetric_stretch(const SignedSvd<Scalar>& svd);

}  // namespace smfem::polar
