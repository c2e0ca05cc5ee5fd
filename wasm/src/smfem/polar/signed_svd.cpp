#include "smfem/polar/signed_svd.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/LU>  // determinant
#include <Eigen/SVD>

namespace smfem::polar {

template <typename Scalar>
SignedSvd<Scalar> signed_svd(const Matrix3<Scalar>& F) {
  const Eigen::JacobiSVD<Matrix3<Scalar>> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  SignedSvd<Scalar> result{svd.matrixU(), svd.singularValues(), svd.matrixV()};
  // JacobiSVD sorts sigma in decreasing order, so a reflection moved into the last column
  // flips the sign of the smallest singular value: the nearest rotation to F is then U V^T.
  if (result.U.determinant() < Scalar(0)) {
    result.U.col(2) *= Scalar(-1);
    result.sigma(2) *= Scalar(-1);
  }
  if (result.V.determinant() < Scalar(0)) {
    result.V.col(2) *= Scalar(-1);
    result.sigma(2) *= Scalar(-1);
  }
  return result;
}

template <typename Scalar>
Vector3<Scalar> clamped_pair_sums(const SignedSvd<Scalar>& svd) {
  using limits = std::numeric_limits<Scalar>;
  const Scalar floor = std::sqrt(limits::epsilon()) * svd.sigma(0) + std::sqrt(limits::min());
  const Vector3<Scalar>& sigma = svd.sigma;
  // Summed pairwise, not as tr - sigma_k, to keep full relative accuracy when they cancel.
  return Vector3<Scalar>(std::max(sigma(1) + sigma(2), floor), std::max(sigma(0) + sigma(2), floor),
                         std::max(sigma(0) + sigma(1), floor));
}

#define SMFEM_INSTANTIATE(Scalar)                                        \
  template SignedSvd<Scalar> signed_svd<Scalar>(const Matrix3<Scalar>&); \
  template Vector3<Scalar> clamped_pair_sums<Scalar>(const SignedSvd<Scalar>&);
SMFEM_INSTANTIATE(float)
SMFEM_INSTANTIATE(double)
#undef SMFEM_INSTANTIATE

}  // namespace smfem::polar
