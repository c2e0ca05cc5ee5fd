#pragma once
// The micro-kernel of the stiffness assembly (and of the contact Hessian's Gram products,
// sim/contact/contact_potential.cpp): one kTileRows x kTileCols tile of C += A^T B with
// A and B stored row-major by their shared (long) dimension, the layout of the stacked cubature
// matrices (stiffness_assembly.hpp). Written with GCC/Clang vector extensions so the same code
// compiles to AVX2 FMA natively and to 128-bit SIMD in WebAssembly (Eigen 3.4 has no wasm SIMD
// path). Every load is contiguous, and the accumulators (2 vectors per tile row) are as many
// as the registers allow: natively 6 rows, 12 accumulators of the 16 AVX2 registers, enough to
// keep both FMA pipes busy (1.6x faster K than 4 rows); in wasm 4 rows, as V8 spills 12 of its
// 16 (6 rows was 10 % slower, 5 rows 15 %).
#include <cstring>

namespace smfem::sim::detail {

#if defined(__wasm_simd128__)
inline constexpr int kVectorBytes = 16;
inline constexpr int kTileRows = 4;
#elif defined(__AVX__)
inline constexpr int kVectorBytes = 32;
inline constexpr int kTileRows = 6;
#else
// A native build without AVX (no -march=native: the sanitizer builds, a distribution's): 32-byte
// vectors there are emulated and K took 100 times as long (110 ms against 0.9 for the crab).
inline constexpr int kVectorBytes = 16;
inline constexpr int kTileRows = 4;
#endif

template <typename T>
inline constexpr int kLanes = kVectorBytes / static_cast<int>(sizeof(T));
template <typename T>
inline constexpr int kTileCols = 2 * kLanes<T>;

// C(i, j) += sum_{r < depth} A(r, i) B(r, j) for i < kTileRows, j < kTileCols, with
// A(r, i) = a[r * lda + i], B(r, j) = b[r * ldb + j], C(i, j) = c[i * ldc + j].
template <typename T>
void gemm_tile_AtB(const T* __restrict a, int lda, const T* __restrict b, int ldb, int depth,
                   T* __restrict c, int ldc) {
  typedef T Vec __attribute__((vector_size(kVectorBytes)));
  constexpr int L = kLanes<T>;
  Vec acc[kTileRows][2] = {};
  for (int r = 0; r < depth; ++r) {
    const T* ar = a + r * lda;
    Vec b0, b1;
    std::memcpy(&b0, b + r * ldb, sizeof(Vec));
    std::memcpy(&b1, b + r * ldb + L, sizeof(Vec));
#pragma GCC unroll 8
    for (int i = 0; i < kTileRows; ++i) {
      acc[i][0] += ar[i] * b0;
      acc[i][1] += ar[i] * b1;
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < kTileRows; ++i) {
    T* row = c + i * ldc;
    Vec old;
    std::memcpy(&old, row, sizeof(Vec));
    old += acc[i][0];
    std::memcpy(row, &old, sizeof(Vec));
    std::memcpy(&old, row + L, sizeof(Vec));
    old += acc[i][1];
    std::memcpy(row + L, &old, sizeof(Vec));
  }
}

// The rows and columns an n x n product computed in whole tiles is padded to.
constexpr int tile_padded_rows(int n) { return (n + kTileRows - 1) / kTileRows * kTileRows; }
template <typename T>
constexpr int tile_padded_cols(int n) {
  return (n + kTileCols<T> - 1) / kTileCols<T> * kTileCols<T>;
}

// C = A^T B on the tiles that reach C's upper triangle (every C(i, j) with j >= i, and those beside
// them in the same tiles), each zeroed first; the rest of C is left as it was. C is rows x cols
// (tile_padded_rows and tile_padded_cols of its width), A and B as in gemm_tile_AtB and read up to
// column rows and cols: their columns past the width must be zeros.
template <typename T>
void upper_tiles_AtB(const T* a, int lda, const T* b, int ldb, int depth, int rows, int cols, T* c,
                     int ldc) {
  for (int i = 0; i < rows; i += kTileRows) {
    for (int j = i / kTileCols<T> * kTileCols<T>; j < cols; j += kTileCols<T>) {
      for (int r = 0; r < kTileRows; ++r)
        std::memset(c + (i + r) * ldc + j, 0, sizeof(T) * kTileCols<T>);
      gemm_tile_AtB(a + i, lda, b + j, ldb, depth, c + i * ldc + j, ldc);
    }
  }
}

}  // namespace smfem::sim::detail
