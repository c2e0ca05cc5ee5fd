#pragma once
// Four doubles as one vector value (GCC/Clang vector extensions): AVX natively, two 128-bit
// vectors in wasm, so one code serves both (Eigen 3.4 has no wasm SIMD path), with the same
// order of operations. Vectors cross functions by reference only: by value their ABI depends on
// whether AVX is enabled (GCC's -Wpsabi).
namespace smfem::sim::detail {

// aligned(8): a view of any double's address; may_alias: of arrays of doubles.
typedef double Vec4 __attribute__((vector_size(32), aligned(8), may_alias));

inline const Vec4& lanes(const double* at) { return *reinterpret_cast<const Vec4*>(at); }
inline Vec4& lanes(double* at) { return *reinterpret_cast<Vec4*>(at); }

inline double lane_sum(const Vec4& v) { return (v[0] + v[1]) + (v[2] + v[3]); }

}  // namespace smfem::sim::detail
