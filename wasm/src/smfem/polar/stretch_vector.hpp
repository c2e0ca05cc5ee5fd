#pragma once
// The storage of a symmetric 3x3 stretch S as a 6-vector, the convention of every stretch
// DOF, constraint and stretch-form material in the solver:
//
//   s = (s11, s22, s33, s12, s13, s23)      S = | s11 s12 s13 |
//                                               | s12 s22 s23 |
//                                               | s13 s23 s33 |
//
// Each off-diagonal entry is stored once, so Frobenius products need the metric
// D = diag(1, 1, 1, 2, 2, 2):  S : T = s^T D t.  Derivatives "by s" are by these six stored
// numbers (an off-diagonal derivative is dpsi/dS12 + dpsi/dS21), so finite differences on
// the 6-vector check them and the chain rule needs no D: dpsi/dvec(F) = (ds/dvec(F))^T dpsi/ds.
#include "smfem/polar/types.hpp"

namespace smfem::polar {

// The symmetric matrix S stored in s.
template <typename Scalar>
Matrix3<Scalar> stretch_to_matrix(const Vector6<Scalar>& s) {
  Matrix3<Scalar> S;
  S << s(0), s(3), s(4),  //
      s(3), s(1), s(5),   //
      s(4), s(5), s(2);
  return S;
}

// The 6-vector of the symmetric part of M (M itself when M is symmetric).
template <typename Scalar>
Vector6<Scalar> stretch_from_matrix(const Matrix3<Scalar>& M) {
  const Scalar half(0.5);
  Vector6<Scalar> s;
  s << M(0, 0), M(1, 1), M(2, 2), half * (M(0, 1) + M(1, 0)), half * (M(0, 2) + M(2, 0)),
      half * (M(1, 2) + M(2, 1));
  return s;
}

// The diagonal of D = diag(1, 1, 1, 2, 2, 2).
template <typename Scalar>
Vector6<Scalar> stretch_metric() {
  Vector6<Scalar> d;
  d << Scalar(1), Scalar(1), Scalar(1), Scalar(2), Scalar(2), Scalar(2);
  return d;
}

// s of the identity: the rest stretch.
template <typename Scalar>
Vector6<Scalar> identity_stretch() {
  Vector6<Scalar> s;
  s << Scalar(1), Scalar(1), Scalar(1), Scalar(0), Scalar(0), Scalar(0);
  return s;
}

}  // namespace smfem::polar
