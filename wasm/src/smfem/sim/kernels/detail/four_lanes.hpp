#pragma once
// Four doubles as one vector value (GCC/Clang vector extensions): AVX natively, two 128-bit
// vectors in wasm, so one code serves both (Eigen 3.4 has no wasm SIMD path), with the same
// order of operations. Vectors cross functions by reference only: by value their ABI depends on
// whether AVX is enabled (GCC's -Wpsabi).
#include <cstring>

namespace smfem::sim::detail {

typedef double Vec4 __attribute__((vector_size(32)));

// Loads and stores at any double's address go through memcpy, which compiles to one unaligned
// vector move. A Vec4 reference to that address would promise 32-byte alignment: clang then
// emits aligned moves that fault (it ignores an aligned(8) on the typedef; GCC honours it).
inline void load_lanes(Vec4& into, const double* at) { std::memcpy(&into, at, sizeof into); }
inline void store_lanes(double* at, const Vec4& value) { std::memcpy(at, &value, sizeof value); }

inline double lane_sum(const Vec4& v) { return (v[0] + v[1]) + (v[2] + v[3]); }

// Four floats: one 128-bit vector natively and in wasm (where it does twice the work of a Vec4
// of doubles per instruction).
typedef float Vec4f __attribute__((vector_size(16)));

inline void load_lanes(Vec4f& into, const float* at) { std::memcpy(&into, at, sizeof into); }
inline void store_lanes(float* at, const Vec4f& value) { std::memcpy(at, &value, sizeof value); }

// Four floats or doubles loaded as four doubles.
inline void load_as_doubles(Vec4& into, const double* at) { load_lanes(into, at); }
inline void load_as_doubles(Vec4& into, const float* at) {
  Vec4f narrow;
  load_lanes(narrow, at);
  into = __builtin_convertvector(narrow, Vec4);
}

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
