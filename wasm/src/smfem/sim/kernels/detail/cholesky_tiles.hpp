#pragma once
// The shape and the inner kernel the Cholesky factorizations share (dense_cholesky.hpp,
// block_cholesky.hpp, sparse_cholesky.hpp): panels of 32 columns factored column by column, then
// the columns after a panel updated by tiles of four columns, each tile a sum over the panel's
// columns of a column of rows times four broadcast entries, in four-lane vectors (four_lanes.hpp).
#include <algorithm>
#include <cmath>
#include <cstddef>

#include "smfem/sim/kernels/detail/four_lanes.hpp"

namespace smfem::sim::detail {

// Columns per panel: the panel's share of the work is plain column updates; wider panels leave
// less to the tiles.
inline constexpr int kCholeskyPanel = 32;
static_assert(kCholeskyPanel % 4 == 0, "panels end where tiles start");

// Rows of a tile, in four-lane vectors: natively 2 (8 AVX2 accumulators keep both FMA pipes
// busy), in wasm 1 (8 128-bit accumulators, as many as V8 keeps in registers).
// Floats' vectors are half as wide: twice as many fill the same registers.
#if defined(__wasm_simd128__)
template <typename T>
inline constexpr int kCholeskyTileVectors = sizeof(T) == 8 ? 1 : 2;
#else
template <typename T>
inline constexpr int kCholeskyTileVectors = sizeof(T) == 8 ? 2 : 4;
#endif
template <typename T>
inline constexpr int kCholeskyTileRows = 4 * kCholeskyTileVectors<T>;

// C(i, c) -= sum_l A(i, l) B(c, l) for i < 4 V, c < 4: A and B column-major with `stride`, C
// with `c_stride`.
template <int V, typename T>
void subtract_tile(const T* A, const T* B, std::size_t stride, int depth, T* C,
                   std::size_t c_stride) {
  using Lanes = typename FourLanes<T>::type;
  Lanes sum[V][4] = {};
  for (int l = 0; l < depth; ++l) {
    const T* a = A + static_cast<std::size_t>(l) * stride;
    const T* b = B + static_cast<std::size_t>(l) * stride;
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) {
      Lanes column;
      load_lanes(column, a + 4 * v);
#pragma GCC unroll 4
      for (int c = 0; c < 4; ++c) sum[v][c] += column * b[c];
    }
  }
#pragma GCC unroll 4
  for (int v = 0; v < V; ++v) {
#pragma GCC unroll 4
    for (int c = 0; c < 4; ++c) {
      T* at = C + static_cast<std::size_t>(c) * c_stride + 4 * v;
      Lanes value;
      load_lanes(value, at);
      store_lanes(at, value - sum[v][c]);
    }
  }
}

// The same over `rows` rows, a multiple of 4.
template <typename T>
void subtract_products(const T* A, const T* B, std::size_t stride, int depth, T* C,
                       std::size_t c_stride, int rows) {
  int i = 0;
  for (; i + kCholeskyTileRows<T> <= rows; i += kCholeskyTileRows<T>) {
    subtract_tile<kCholeskyTileVectors<T>>(A + i, B, stride, depth, C + i, c_stride);
  }
  for (; i < rows; i += 4) subtract_tile<1>(A + i, B, stride, depth, C + i, c_stride);
}

// Columns [first, last) of the lower triangle of a (height rows, column-major with `stride`),
// given that every earlier column's update has been applied: column by column, scale by the
// pivot, then subtract its outer product from the later columns before `last`. False if a pivot
// is not positive or not finite.
template <typename T>
bool factor_columns(T* a, std::size_t stride, int height, int first, int last) {
  for (int j = first; j < last; ++j) {
    T* column_j = a + static_cast<std::size_t>(j) * stride;
    const T pivot = column_j[j];
    if (!(pivot > T(0)) || !std::isfinite(pivot)) return false;
    const T diagonal = std::sqrt(pivot);
    const T inverse = T(1) / diagonal;
    column_j[j] = diagonal;
    for (int i = j + 1; i < height; ++i) column_j[i] *= inverse;
    for (int k = j + 1; k < last; ++k) {
      const T factor = column_j[k];
      if (factor == T(0)) continue;
      T* column_k = a + static_cast<std::size_t>(k) * stride;
      for (int i = k; i < height; ++i) column_k[i] -= factor * column_j[i];
    }
  }
  return true;
}

// The lower triangle of the four columns from j (a multiple of 4 after `last`), rows j to
// height (height - j a multiple of 4), less P P^T with P columns [first, last) of a. The tile
// on the diagonal also writes above it.
template <typename T>
void subtract_panel_tile(T* a, std::size_t stride, int height, int first, int last, int j) {
  const T* P = a + static_cast<std::size_t>(first) * stride;
  subtract_products(P + j, P + j, stride, last - first,
                    a + static_cast<std::size_t>(j) * stride + j, stride, height - j);
}

// A tall panel (height x columns, column-major with `stride`; columns a multiple of 4, height
// - columns too) as a tall Cholesky: its top square factored, the rows below it solved against
// it; 32 columns at a time, each block of 32 then updating the panel's later columns by tiles.
// False if a pivot is not positive or not finite.
template <typename T>
bool factor_tall_panel(T* P, std::size_t stride, int height, int columns) {
  for (int first = 0; first < columns; first += kCholeskyPanel) {
    const int last = std::min(columns, first + kCholeskyPanel);
    if (!factor_columns(P, stride, height, first, last)) return false;
    for (int j = last; j < columns; j += 4) subtract_panel_tile(P, stride, height, first, last, j);
  }
  return true;
}

// Rows [begin, end) of a tall panel below its top square (columns <= begin, both multiples of
// 4), the square already factored by factor_tall_panel(P, stride, columns, columns): the
// operations factor_tall_panel applies to those rows, in the same order, so that the result is
// the same to the bit. The rows depend on the square only: ranges of them are independent.
template <typename T>
void solve_panel_rows(T* P, std::size_t stride, int columns, int begin, int end) {
  for (int first = 0; first < columns; first += kCholeskyPanel) {
    const int last = std::min(columns, first + kCholeskyPanel);
    for (int j = first; j < last; ++j) {
      T* column_j = P + static_cast<std::size_t>(j) * stride;
      const T inverse = T(1) / column_j[j];  // factor_columns' (the diagonal it stored)
      for (int i = begin; i < end; ++i) column_j[i] *= inverse;
      for (int k = j + 1; k < last; ++k) {
        const T factor = column_j[k];
        if (factor == T(0)) continue;
        T* column_k = P + static_cast<std::size_t>(k) * stride;
        for (int i = begin; i < end; ++i) column_k[i] -= factor * column_j[i];
      }
    }
    const T* panel = P + static_cast<std::size_t>(first) * stride;
    for (int j = last; j < columns; j += 4) {
      subtract_products(panel + begin, panel + j, stride, last - first,
                        P + static_cast<std::size_t>(j) * stride + begin, stride, end - begin);
    }
  }
}

}  // namespace smfem::sim::detail
