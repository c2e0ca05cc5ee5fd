#include "smfem/polar/polar_derivatives.hpp"

#include <cmath>

#include "smfem/polar/small_matrix.hpp"
#include "smfem/polar/stretch_vector.hpp"

namespace smfem::polar {
namespace {

// s of the symmetric matrix (a b^T + b a^T) / 2.
template <typename Scalar>
Vector6<Scalar> stretch_of_outer(const Vector3<Scalar>& a, const Vector3<Scalar>& b) {
  const Scalar half(0.5);
  Vector6<Scalar> s;
  s << a(0) * b(0), a(1) * b(1), a(2) * b(2), half * (a(0) * b(1) + a(1) * b(0)),
      half * (a(0) * b(2) + a(2) * b(0)), half * (a(1) * b(2) + a(2) * b(1));
  return s;
}

}  // namespace

template <typename Scalar>
Matrix9<Scalar> drotation_dF(const SignedSvd<Scalar>& svd) {
  const Vector3<Scalar> kappa = clamped_pair_sums(svd);
  Matrix9<Scalar> dR = Matrix9<Scalar>::Zero();
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3;
    const int j = (k + 2) % 3;
    // Scaled by 1 / sqrt(kappa) on both sides, so the result is exactly symmetric.
    const Vector9<Scalar> t = (vec_outer<Scalar>(svd.U.col(i), svd.V.col(j)) -
                               vec_outer<Scalar>(svd.U.col(j), svd.V.col(i))) /
                              std::sqrt(kappa(k));
    dR.noalias() += t * t.transpose();
  }
  return dR;
}

template <typename Scalar>
Matrix9<Scalar> drotation_dF(const Matrix3<Scalar>& F) {
  return drotation_dF(signed_svd(F));
}

template <typename Scalar>
Matrix6x9<Scalar> dstretch_dF(const SignedSvd<Scalar>& svd) {
  const Matrix3<Scalar>& U = svd.U;
  const Matrix3<Scalar>& V = svd.V;
  const Vector3<Scalar>& sigma = svd.sigma;
  const Vector3<Scalar> kappa = clamped_pair_sums(svd);
  // J = sum of six outer products a b^T, formed as one 6 x 6 by 6 x 9 product A B^T.
  Matrix6<Scalar> A;
  Eigen::Matrix<Scalar, 9, 6> B;
  // Diagonal of M: dS gains dF^_ii v_i v_i^T.
  for (int i = 0; i < 3; ++i) {
    A.col(i) = stretch_of_outer<Scalar>(V.col(i), V.col(i));
    B.col(i) = vec_outer<Scalar>(U.col(i), V.col(i));
  }
  // Off-diagonal pair (i, j): dS gains M_ij (v_i v_j^T + v_j v_i^T).
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3;
    const int j = (k + 2) % 3;
    A.col(3 + k) = Scalar(2) * stretch_of_outer<Scalar>(V.col(i), V.col(j));
    B.col(3 + k) = (sigma(i) * vec_outer<Scalar>(U.col(i), V.col(j)) +
                    sigma(j) * vec_outer<Scalar>(U.col(j), V.col(i))) /
                   kappa(k);
  }
  Matrix6x9<Scalar> J;
  J.noalias() = A.lazyProduct(B.transpose());
  return J;
}

template <typename Scalar>
Matrix6x9<Scalar> dstretch_dF(const Matrix3<Scalar>& F) {
  return dstretch_dF(signed_svd(F));
}

template <typename Scalar>
Matrix9<Scalar> d2stretch_dF2_contract(const SignedSvd<Scalar>& svd, const Vector6<Scalar>& m) {
  using Mat3 = Matrix3<Scalar>;
  using Vec3 = Vector3<Scalar>;
  const Mat3 R = svd.U * svd.V.transpose();
  const Mat3 S = svd.V * svd.sigma.asDiagonal() * svd.V.transpose();
  const Mat3 K_inv = svd.V * clamped_pair_sums(svd).cwiseInverse().asDiagonal() * svd.V.transpose();
  const Mat3 G = stretch_to_matrix<Scalar>(m.cwiseQuotient(stretch_metric<Scalar>()));
  const Vec3 q = K_inv * axial<Scalar>(S * G);
  const Mat3 G_plus_q = G + cross_matrix(q);

  Matrix9<Scalar> H;
  for (int b = 0; b < 3; ++b) {
    for (int a = 0; a < 3; ++a) {
      // Direction dF = e_a e_b^T, so R^T dF has R's row a as its column b.
      Mat3 Y = Mat3::Zero();
      Y.col(b) = R.row(a).transpose();
      const Mat3 W = cross_matrix<Scalar>(K_inv * axial(Y));
      const Mat3 dS = Y - W * S;
      const Vec3 dq = K_inv * (axial<Scalar>(dS * G) - (dS.trace() * Mat3::Identity() - dS) * q);
      const Mat3 dP = R * (W * G_plus_q + cross_matrix(dq));
      H.col(a + 3 * b) = Eigen::Map<const Vector9<Scalar>>(dP.data());
    }
  }
  // Symmetric in exact arithmetic (and unless a pairwise sum is clamped); make it exactly so.
  return Scalar(0.5) * (H + H.transpose());
}

template <typename Scalar>
Matrix9<Scalar> d2stretch_dF2_contract(const Matrix3<Scalar>& F, const Vector6<Scalar>& m) {
  return d2stretch_dF2_contract(signed_svd(F), m);
}

#define SMFEM_INSTANTIATE(Scalar)                                                   \
  template Matrix9<Scalar> drotation_dF<Scalar>(const Matrix3<Scalar>&);            \
  template Matrix9<Scalar> drotation_dF<Scalar>(const SignedSvd<Scalar>&);          \
  template Matrix6x9<Scalar> dstretch_dF<Scalar>(const Matrix3<Scalar>&);           \
  template Matrix6x9<Scalar> dstretch_dF<Scalar>(const SignedSvd<Scalar>&);         \
  template Matrix9<Scalar> d2stretch_dF2_contract<Scalar>(const Matrix3<Scalar>&,   \
                                                          const Vector6<Scalar>&);  \
  template Matrix9<Scalar> d2stretch_dF2_contract<Scalar>(const SignedSvd<Scalar>&, \
                                                          const Vector6<Scalar>&);
SMFEM_INSTANTIATE(float)
SMFEM_INSTANTIATE(double)
#undef SMFEM_INSTANTIATE

}  // namespace smfem::polar
