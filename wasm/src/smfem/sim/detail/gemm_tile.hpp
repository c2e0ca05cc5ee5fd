#pragma once
// The micro-kernel of the stiffness assembly: one kTileRows x kTileCols tile of C += A^T B with
// A and B stored row-major by their shared (long) dimension, the layout of the stacked cubature
// matrices (stiffness_assembly.hpp). Written with GCC/Clang vector extensions so the same code
// compiles to AVX2 FMA natively and to 128-bit SIMD in WebAssembly (Eigen 3.4 has no wasm SIMD
// path): eight independent accumulators hide the FMA latency, and every load is contiguous.
#include <cstring>

namespace smfem::sim::detail {

#if defined(__wasm_simd128__)
inline constexpr int kVectorBytes = 16;
#else
inline constexpr int kVectorBytes = 32;
#endif

template <typename T>
inline constexpr int kLanes = kVectorBytes / static_cast<int>(sizeof(T));
inline constexpr int kTileRows = 4;
template <typename T>
inline constexpr int kTileCols = 2 * kLanes<T>;

// C(i, j) += sum_{r < depth} A(r, i) B(r, j) for i < kTileRows, j < kTileCols, with
// A(r, i) = a[r * lda + i], B(r, j) = b[r * ldb + j], C(i, j) = c[i * ldc + j].
template <typename T>
void gemm_tile_AtB(const T* __restrict a, int lda, const T* __restrict b, int ldb, int depth,
                   T* __restrict c, int ldc) {
  typedef T Vec __attribute__((vector_size(kVectorBytes)));
  constexpr int L = kLanes<T>;
  Vec c00{}, c01{}, c10{}, c11{}, c20{}, c21{}, c30{}, c31{};
  for (int r = 0; r < depth; ++r) {
    const T* ar = a + r * lda;
    Vec b0, b1;
    std::memcpy(&b0, b + r * ldb, sizeof(Vec));
    std::memcpy(&b1, b + r * ldb + L, sizeof(Vec));
    const T a0 = ar[0], a1 = ar[1], a2 = ar[2], a3 = ar[3];
    c00 += a0 * b0;
    c01 += a0 * b1;
    c10 += a1 * b0;
    c11 += a1 * b1;
    c20 += a2 * b0;
    c21 += a2 * b1;
    c30 += a3 * b0;
    c31 += a3 * b1;
  }
  const auto add_row = [&](int i, Vec v0, Vec v1) {
    T* row = c + i * ldc;
    Vec old;
    std::memcpy(&old, row, sizeof(Vec));
    old += v0;
    std::memcpy(row, &old, sizeof(Vec));
    std::memcpy(&old, row + L, sizeof(Vec));
    old += v1;
    std::memcpy(row + L, &old, sizeof(Vec));
  };
  add_row(0, c00, c01);
  add_row(1, c10, c11);
  add_row(2, c20, c21);
  add_row(3, c30, c31);
}

}  // namespace smfem::sim::detail
