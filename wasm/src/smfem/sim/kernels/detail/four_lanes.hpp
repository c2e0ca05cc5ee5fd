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

// Four floats: one 128-bit vector natively and in wasm (where it does twice the work of a Vec4
// of doubles per instruction).
typedef float Vec4f __attribute__((vector_size(16), aligned(4), may_alias));

inline const Vec4f& lanes(const float* at) { return *reinterpret_cast<const Vec4f*>(at); }
inline Vec4f& lanes(float* at) { return *reinterpret_cast<Vec4f*>(at); }

// The vector of four of T.
template <typename T>
struct FourLanes;
template <>
struct FourLanes<double> {
  using type = Vec4;
};
template <>
struct FourLanes<float> {
  using type = Vec4f;
};

}  // namespace smfem::sim::detail
