#pragma once
// J = det, with its first and second derivatives, in the three variables the materials use:
// the stored stretch 6-vector s (stretch_vector.hpp), the principal stretches sigma, and
// vec(F) (column-major). All are polynomials, exact for every input.
#include "smfem/polar/small_matrix.hpp"
#include "smfem/polar/types.hpp"

namespace smfem::energies::detail {

// det S for S stored as s = (s11, s22, s33, s12, s13, s23).
template <typename Scalar>
Scalar det_s(const Vector6<Scalar>& s) {
  return s(0) * s(1) * s(2) + Scalar(2) * s(3) * s(4) * s(5) - s(0) * s(5) * s(5) -
         s(1) * s(4) * s(4) - s(2) * s(3) * s(3);
}

template <typename Scalar>
Vector6<Scalar> ddet_ds(const Vector6<Scalar>& s) {
  Vector6<Scalar> g;
  g << s(1) * s(2) - s(5) * s(5), s(0) * s(2) - s(4) * s(4), s(0) * s(1) - s(3) * s(3),
      Scalar(2) * (s(4) * s(5) - s(2) * s(3)), Scalar(2) * (s(3) * s(5) - s(1) * s(4)),
      Scalar(2) * (s(3) * s(4) - s(0) * s(5));
  return g;
}

template <typename Scalar>
Matrix6<Scalar> d2det_ds2(const Vector6<Scalar>& s) {
  const Scalar z(0);
  const Scalar two(2);
  Matrix6<Scalar> H;
  H << z, s(2), s(1), z, z, -two * s(5),                       //
      s(2), z, s(0), z, -two * s(4), z,                        //
      s(1), s(0), z, -two * s(3), z, z,                        //
      z, z, -two * s(3), -two * s(2), two * s(5), two * s(4),  //
      z, -two * s(4), z, two * s(5), -two * s(1), two * s(3),  //
      -two * s(5), z, z, two * s(4), two * s(3), -two * s(0);
  return H;
}

// d J / d sigma for J = sigma0 sigma1 sigma2.
template <typename Scalar>
Vector3<Scalar> ddet_dsigma(const Vector3<Scalar>& sigma) {
  return Vector3<Scalar>(sigma(1) * sigma(2), sigma(0) * sigma(2), sigma(0) * sigma(1));
}

template <typename Scalar>
Matrix3<Scalar> d2det_dsigma2(const Vector3<Scalar>& sigma) {
  Matrix3<Scalar> H;
  H << Scalar(0), sigma(2), sigma(1),  //
      sigma(2), Scalar(0), sigma(0),   //
      sigma(1), sigma(0), Scalar(0);
  return H;
}

// d det F / dF = cof F, whose columns are f1 x f2, f2 x f0, f0 x f1 (f_j the columns of F).
template <typename Scalar>
Matrix3<Scalar> ddet_dF(const Matrix3<Scalar>& F) {
  Matrix3<Scalar> C;
  C.col(0) = F.col(1).cross(F.col(2));
  C.col(1) = F.col(2).cross(F.col(0));
  C.col(2) = F.col(0).cross(F.col(1));
  return C;
}

// d^2 det F / d vec(F)^2 in 3x3 blocks (row block = column of F):
//   |    0    -[f2]x   [f1]x |
//   |  [f2]x     0    -[f0]x |
//   | -[f1]x   [f0]x     0   |
template <typename Scalar>
Matrix9<Scalar> d2det_dF2(const Matrix3<Scalar>& F) {
  Matrix9<Scalar> H = Matrix9<Scalar>::Zero();
  for (int j = 0; j < 3; ++j) {
    const Matrix3<Scalar> W = polar::cross_matrix<Scalar>(F.col(j));
    // Block (a, b) with (a, b, j) an even permutation of (0, 1, 2) is -[f_j]x.
    const int a = (j + 1) % 3;
    const int b = (j + 2) % 3;
    H.template block<3, 3>(3 * a, 3 * b) = -W;
    H.template block<3, 3>(3 * b, 3 * a) = W;
  }
  return H;
}

}  // namespace smfem::energies::detail
