#include "smfem/sim/cubature_kinematics.hpp"

#include <cstring>
#include <utility>

#include "smfem/polar/polar.hpp"

namespace smfem::sim {

namespace {

typedef double Vec4 __attribute__((vector_size(32)));

Vec4 load4(const double* at) {
  Vec4 v;
  std::memcpy(&v, at, sizeof(Vec4));
  return v;
}

double lane_sum(Vec4 v) { return (v[0] + v[1]) + (v[2] + v[3]); }

}  // namespace

Matrix3<double> displacement_gradient(const CubatureRows& cubature_Y, int tet,
                                      const ReducedMatrix& U) {
  // Nine dot products of length 4m, four lanes at a time (AVX2 natively, two 128-bit vectors in
  // wasm): Eigen 3.4 has no wasm SIMD path, and its scalar dots were 12 % of a wasm step. One
  // row of Yhat at a time, three accumulators: all nine at once is 5 % faster natively but 30 %
  // slower in wasm, where V8 spills them.
  const Eigen::Index n = cubature_Y.cols();
  const double* u0 = U.col(0).data();
  const double* u1 = U.col(1).data();
  const double* u2 = U.col(2).data();
  Matrix3<double> G;
  for (int j = 0; j < 3; ++j) {
    const double* y = &cubature_Y(3 * tet + j, 0);
    Vec4 s0{}, s1{}, s2{};
    Eigen::Index k = 0;
    for (; k + 4 <= n; k += 4) {
      const Vec4 a = load4(y + k);
      s0 += a * load4(u0 + k);
      s1 += a * load4(u1 + k);
      s2 += a * load4(u2 + k);
    }
    // G(d, j) = Yhat row 3 tet + j . u_d.
    G(0, j) = lane_sum(s0);
    G(1, j) = lane_sum(s1);
    G(2, j) = lane_sum(s2);
    for (; k < n; ++k) {
      G(0, j) += y[k] * u0[k];
      G(1, j) += y[k] * u1[k];
      G(2, j) += y[k] * u2[k];
    }
  }
  return G;
}

void TetKinematics::evaluate(int tet, const Matrix3<double>& deformation) {
  const auto index = static_cast<std::size_t>(tet);
  F[index] = deformation;
  svd[index] = polar::signed_svd(F[index]);
  s.col(tet) = polar::symmetric_stretch(svd[index]);
}

void TetKinematics::swap(TetKinematics& other) noexcept {
  F.swap(other.F);
  svd.swap(other.svd);
  s.swap(other.s);
}

}  // namespace smfem::sim
