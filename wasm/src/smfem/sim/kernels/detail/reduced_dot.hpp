#pragma once
// y^T U over rows [first, first + n) of a 4m x 3 U: three dot products, four lanes at a time
// (AVX2 natively, two 128-bit vectors in wasm: Eigen 3.4 has no wasm SIMD path, and its scalar
// products were the largest part of a wasm step in several places). One order of operations for
// every caller: the lanes, then their sum, then the tail.
#include <Eigen/Core>

#include "smfem/sim/kernels/detail/four_lanes.hpp"

namespace smfem::sim::detail {

inline Eigen::Vector3d reduced_dot(const double* y,
                                   const Eigen::Matrix<double, Eigen::Dynamic, 3>& U,
                                   Eigen::Index first, Eigen::Index n) {
  const double* u0 = U.col(0).data() + first;
  const double* u1 = U.col(1).data() + first;
  const double* u2 = U.col(2).data() + first;
  Vec4 s0{}, s1{}, s2{};
  Eigen::Index k = 0;
  for (; k + 4 <= n; k += 4) {
    Vec4 a, b0, b1, b2;
    load_lanes(a, y + k);
    load_lanes(b0, u0 + k);
    load_lanes(b1, u1 + k);
    load_lanes(b2, u2 + k);
    s0 += a * b0;
    s1 += a * b1;
    s2 += a * b2;
  }
  Eigen::Vector3d sum(lane_sum(s0), lane_sum(s1), lane_sum(s2));
  for (; k < n; ++k) {
    sum(0) += y[k] * u0[k];
    sum(1) += y[k] * u1[k];
    sum(2) += y[k] * u2[k];
  }
  return sum;
}

}  // namespace smfem::sim::detail
