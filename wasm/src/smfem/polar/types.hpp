#pragma once
// Fixed-size Eigen types of the per-element math (polar decomposition, materials), templated
// on the scalar so the same code serves double (residuals) and float (stiffness assembly).
// Everything is column-major (Eigen's default). A 3x3 matrix F enters a gradient or Hessian
// as vec(F), its columns stacked: vec(F) = (F00, F10, F20, F01, F11, F21, F02, F12, F22),
// so F(i, j) is entry i + 3 j.
#include <Eigen/Core>

namespace smfem {

template <typename Scalar>
using Vector3 = Eigen::Matrix<Scalar, 3, 1>;
template <typename Scalar>
using Vector6 = Eigen::Matrix<Scalar, 6, 1>;
template <typename Scalar>
using Vector9 = Eigen::Matrix<Scalar, 9, 1>;
template <typename Scalar>
using Matrix3 = Eigen::Matrix<Scalar, 3, 3>;
template <typename Scalar>
using Matrix6 = Eigen::Matrix<Scalar, 6, 6>;
template <typename Scalar>
using Matrix9 = Eigen::Matrix<Scalar, 9, 9>;
template <typename Scalar>
using Matrix6x9 = Eigen::Matrix<Scalar, 6, 9>;

}  // namespace smfem
