#include "smfem/energies/detail/isotropic_projection.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "smfem/polar/small_matrix.hpp"
#include "smfem/polar/stretch_vector.hpp"

namespace smfem::energies::detail {
namespace {

// sqrt(max(eigenvalue, 0)): a mode's column weight, so that modes * modes^T sums
// max(eigenvalue, 0) q q^T.
template <typename Scalar>
Scalar clamped_root(Scalar eigenvalue) {
  return std::sqrt(std::max(eigenvalue, Scalar(0)));
}

}  // namespace

template <typename Scalar>
Matrix9<Scalar> projected_F_hessian(const polar::SignedSvd<Scalar>& svd,
                                    const Matrix3<Scalar>& scaling, const Vector3<Scalar>& twist,
                                    const Vector3<Scalar>& flip) {
  const Matrix3<Scalar>& U = svd.U;
  const Matrix3<Scalar>& V = svd.V;
  const Eigen::SelfAdjointEigenSolver<Matrix3<Scalar>> scaling_eigen(scaling);
  const Scalar inv_sqrt2 = Scalar(1) / std::sqrt(Scalar(2));

  Matrix9<Scalar> modes;
  for (int l = 0; l < 3; ++l) {
    const Vector3<Scalar> a = scaling_eigen.eigenvectors().col(l);
    Vector9<Scalar> q = Vector9<Scalar>::Zero();
    for (int i = 0; i < 3; ++i) q += a(i) * polar::vec_outer<Scalar>(U.col(i), V.col(i));
    modes.col(l) = clamped_root(scaling_eigen.eigenvalues()(l)) * q;
  }
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3;
    const int j = (k + 2) % 3;
    const Vector9<Scalar> x = polar::vec_outer<Scalar>(U.col(i), V.col(j));
    const Vector9<Scalar> y = polar::vec_outer<Scalar>(U.col(j), V.col(i));
    modes.col(3 + k) = (clamped_root(twist(k)) * inv_sqrt2) * (x - y);
    modes.col(6 + k) = (clamped_root(flip(k)) * inv_sqrt2) * (x + y);
  }
  return modes.lazyProduct(modes.transpose());  // not Eigen's packing GEMM, at 9 x 9
}

template <typename Scalar>
Matrix6<Scalar> projected_stretch_hessian(const Matrix3<Scalar>& Q, const Matrix3<Scalar>& scaling,
                                          const Vector3<Scalar>& flip) {
  // A unit symmetric matrix B is the 6-vector b = s(B) with b^T D b = 1; as a linear form on s
  // it reads B : S = (D b)^T s, so the Hessian is sum over modes of eigenvalue (D b)(D b)^T.
  const Vector6<Scalar> metric = polar::stretch_metric<Scalar>();
  const auto mode = [&](const Matrix3<Scalar>& B) -> Vector6<Scalar> {
    return metric.cwiseProduct(polar::stretch_from_matrix<Scalar>(B));
  };
  const Eigen::SelfAdjointEigenSolver<Matrix3<Scalar>> scaling_eigen(scaling);
  const Scalar inv_sqrt2 = Scalar(1) / std::sqrt(Scalar(2));

  Matrix6<Scalar> modes;
  for (int l = 0; l < 3; ++l) {
    const Matrix3<Scalar> B = Q * scaling_eigen.eigenvectors().col(l).asDiagonal() * Q.transpose();
    modes.col(l) = clamped_root(scaling_eigen.eigenvalues()(l)) * mode(B);
  }
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3;
    const int j = (k + 2) % 3;
    const Matrix3<Scalar> B =
        inv_sqrt2 * (Q.col(i) * Q.col(j).transpose() + Q.col(j) * Q.col(i).transpose());
    modes.col(3 + k) = clamped_root(flip(k)) * mode(B);
  }
  return modes.lazyProduct(modes.transpose());  // not Eigen's packing GEMM, at 9 x 9
}

#define SMFEM_INSTANTIATE(Scalar)                                                      \
  template Matrix9<Scalar> projected_F_hessian<Scalar>(                                \
      const polar::SignedSvd<Scalar>&, const Matrix3<Scalar>&, const Vector3<Scalar>&, \
      const Vector3<Scalar>&);                                                         \
  template Matrix6<Scalar> projected_stretch_hessian<Scalar>(                          \
      const Matrix3<Scalar>&, const Matrix3<Scalar>&, const Vector3<Scalar>&);
SMFEM_INSTANTIATE(float)
SMFEM_INSTANTIATE(double)
#undef SMFEM_INSTANTIATE

}  // namespace smfem::energies::detail
