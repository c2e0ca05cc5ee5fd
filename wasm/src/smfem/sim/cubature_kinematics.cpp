#include "smfem/sim/cubature_kinematics.hpp"

#include <utility>

#include "smfem/polar/polar.hpp"
#include "smfem/sim/detail/four_lanes.hpp"

namespace smfem::sim {

Matrix3<double> displacement_gradient(const CubatureRows& cubature_Y, int tet,
                                      const ReducedMatrix& U, Eigen::Index first_row,
                                      Eigen::Index rows) {
  // Nine dot products of length 4m, four lanes at a time (AVX2 natively, two 128-bit vectors in
  // wasm): Eigen 3.4 has no wasm SIMD path, and its scalar dots were 12 % of a wasm step. One
  // row of Yhat at a time, three accumulators: all nine at once is 5 % faster natively but 30 %
  // slower in wasm, where V8 spills them.
  const Eigen::Index n = rows;
  const double* u0 = U.col(0).data() + first_row;
  const double* u1 = U.col(1).data() + first_row;
  const double* u2 = U.col(2).data() + first_row;
  Matrix3<double> G;
  for (int j = 0; j < 3; ++j) {
    const double* y = &cubature_Y(3 * tet + j, first_row);
    detail::Vec4 s0{}, s1{}, s2{};
    Eigen::Index k = 0;
    for (; k + 4 <= n; k += 4) {
      const detail::Vec4& a = detail::lanes(y + k);
      s0 += a * detail::lanes(u0 + k);
      s1 += a * detail::lanes(u1 + k);
      s2 += a * detail::lanes(u2 + k);
    }
    // G(d, j) = Yhat row 3 tet + j . u_d.
    G(0, j) = detail::lane_sum(s0);
    G(1, j) = detail::lane_sum(s1);
    G(2, j) = detail::lane_sum(s2);
    for (; k < n; ++k) {
      G(0, j) += y[k] * u0[k];
      G(1, j) += y[k] * u1[k];
      G(2, j) += y[k] * u2[k];
    }
  }
  return G;
}

void TetKinematics::evaluate(int tet, const Matrix3<double>& deformation) {
  store(tet, deformation, polar::signed_svd(deformation));
}

void TetKinematics::evaluate_near(int tet, const Matrix3<double>& deformation,
                                  const TetKinematics& nearby) {
  store(tet, deformation,
        polar::signed_svd(deformation, nearby.svd[static_cast<std::size_t>(tet)].V));
}

void TetKinematics::store(int tet, const Matrix3<double>& deformation,
                          const polar::SignedSvd<double>& decomposition) {
  const auto index = static_cast<std::size_t>(tet);
  F[index] = deformation;
  svd[index] = decomposition;
  s.col(tet) = polar::symmetric_stretch(decomposition);
}

void TetKinematics::swap(TetKinematics& other) noexcept {
  F.swap(other.F);
  svd.swap(other.svd);
  s.swap(other.s);
}

}  // namespace smfem::sim
