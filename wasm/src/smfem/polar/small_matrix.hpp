#pragma once
// Small building blocks of the 3x3 derivative formulas (polar derivatives, determinants,
// closed-form eigensystems), header-only.
#include "smfem/polar/types.hpp"

namespace smfem::polar {

// vec(a b^T) (column-major, types.hpp).
template <typename Scalar>
Vector9<Scalar> vec_outer(const Vector3<Scalar>& a, const Vector3<Scalar>& b) {
  Vector9<Scalar> result;
  for (int c = 0; c < 3; ++c) result.template segment<3>(3 * c) = a * b(c);
  return result;
}

// [w]x, the matrix of the cross product w x (.).
template <typename Scalar>
Matrix3<Scalar> cross_matrix(const Vector3<Scalar>& w) {
  Matrix3<Scalar> W;
  W << Scalar(0), -w(2), w(1),  //
      w(2), Scalar(0), -w(0),   //
      -w(1), w(0), Scalar(0);
  return W;
}

// ax(X), the axial vector of X - X^T: [ax(X)]x = X - X^T.
template <typename Scalar>
Vector3<Scalar> axial(const Matrix3<Scalar>& X) {
  return Vector3<Scalar>(X(2, 1) - X(1, 2), X(0, 2) - X(2, 0), X(1, 0) - X(0, 1));
}

}  // namespace smfem::polar
