#include "smfem/sim/kernels/dense_cholesky.hpp"

#include <algorithm>
#include <cmath>

#include "smfem/sim/kernels/detail/four_lanes.hpp"

namespace smfem::sim {
namespace {

// Columns per panel: the panel's share of the work is plain column updates; wider panels leave
// less to the tiled trailing update.
constexpr int kPanel = 32;
static_assert(kPanel % 4 == 0, "panels end where tiles start");

// Rows of a trailing-update tile, in four-lane vectors: natively 2 (8 AVX2 accumulators keep
// both FMA pipes busy), in wasm 1 (8 128-bit accumulators, as many as V8 keeps in registers).
#if defined(__wasm_simd128__)
constexpr int kTileVectors = 1;
#else
constexpr int kTileVectors = 2;
#endif
constexpr int kTileRows = 4 * kTileVectors;

// Trailing updates at least this many columns wide are shared among a pool's threads: below it
// waking them costs more than they save (measured: a 192-column factor is about 0.1 ms).
constexpr int kParallelColumns = 256;

}  // namespace

DenseCholesky::DenseCholesky(int size)
    : size_(size),
      columns_((size + 3) / 4 * 4),
      rows_(columns_ + kTileRows - 4),
      L_(new double[static_cast<std::size_t>(rows_) * static_cast<std::size_t>(columns_)]),
      nonzero_row_(static_cast<std::size_t>(rows_), 0),
      panel_runs_(static_cast<std::size_t>((size + kPanel - 1) / kPanel) + 1, 0),
      column_ends_(static_cast<std::size_t>(size), 0) {
  runs_.reserve(4 * panel_runs_.size());
}

bool DenseCholesky::factor(const Eigen::Ref<const Eigen::MatrixXd>& A, parallel::ThreadPool* pool) {
  for (int column = 0; column < size_; ++column) {
    int end = column + 1;
    for (int row = column; row < size_; ++row) {
      const double value = A(row, column);
      at(row, column) = value;
      if (value != 0.0) end = row + 1;
    }
    column_ends_[static_cast<std::size_t>(column)] = end;
    // The padding rows must read as zeros; a factorization of a non-finite A can leave NaN there.
    for (int row = size_; row < rows_; ++row) at(row, column) = 0.0;
  }
  runs_.clear();
  for (int first = 0; first < size_; first += kPanel) {
    const int last = std::min(size_, first + kPanel);
    int end = last;
    for (int j = first; j < last; ++j)
      end = std::max(end, column_ends_[static_cast<std::size_t>(j)]);
    find_nonzero_rows(first, last, end);
    panel_runs_[static_cast<std::size_t>(first / kPanel) + 1] = static_cast<int>(runs_.size());
    if (!factor_panel(first, last)) return false;
    update_trailing(first, last, end, pool);
  }
  return true;
}

// The rows below the panel where some column of it is nonzero (nonzero_row_, and as runs of
// consecutive rows in runs_). Factoring the panel keeps every other row zero: it only scales
// its columns and subtracts them from each other.
void DenseCholesky::find_nonzero_rows(int first, int last, int end) {
  const std::size_t stride = static_cast<std::size_t>(rows_);
  const double* P = L_.get() + static_cast<std::size_t>(first) * stride;
  const int depth = last - first;
  // This panel's runs start here (the runs before it are the earlier panels').
  const auto first_run =
      static_cast<std::size_t>(panel_runs_[static_cast<std::size_t>(first / kPanel)]);
  for (int i = last; i < rows_; ++i) {
    bool nonzero = false;
    if (i < end) {
      for (int l = 0; l < depth && !nonzero; ++l) nonzero = P[l * stride + i] != 0.0;
    }
    nonzero_row_[static_cast<std::size_t>(i)] = nonzero;
    if (!nonzero) continue;
    if (runs_.size() > first_run && runs_.back().second == i) {
      ++runs_.back().second;
    } else {
      runs_.emplace_back(i, i + 1);
    }
  }
}

// Columns [first, last) of L, given that every earlier panel's update has been applied: column by
// column, scale by the pivot, then subtract its outer product from the panel's later columns.
bool DenseCholesky::factor_panel(int first, int last) {
  const auto panel = static_cast<std::size_t>(first / kPanel);
  const auto* runs_begin = runs_.data() + panel_runs_[panel];
  const auto* runs_end = runs_.data() + panel_runs_[panel + 1];
  for (int j = first; j < last; ++j) {
    const double pivot = at(j, j);
    if (!(pivot > 0.0) || !std::isfinite(pivot)) return false;
    const double diagonal = std::sqrt(pivot);
    const double inverse = 1.0 / diagonal;
    double* column_j = &at(0, j);
    column_j[j] = diagonal;
    for (int i = j + 1; i < last; ++i) column_j[i] *= inverse;
    for (const auto* run = runs_begin; run != runs_end; ++run) {
      for (int i = run->first; i < run->second; ++i) column_j[i] *= inverse;
    }
    for (int c = j + 1; c < last; ++c) {
      const double factor = column_j[c];
      if (factor == 0.0) continue;
      double* column_c = &at(0, c);
      for (int i = c; i < last; ++i) column_c[i] -= factor * column_j[i];
      for (const auto* run = runs_begin; run != runs_end; ++run) {
        for (int i = run->first; i < run->second; ++i) column_c[i] -= factor * column_j[i];
      }
    }
  }
  return true;
}

// The lower triangle of columns [last, size) minus P P^T, P = L(:, first..last): kTileRows x 4
// tiles, each a sum over the panel's columns of a column of P times four broadcast entries. Tiles
// on the diagonal also write above it, into the scratch triangle. P is zero from row `end` on,
// and tiles whose rows or columns of P are all zero change nothing: both are skipped.
void DenseCholesky::update_trailing(int first, int last, int end, parallel::ThreadPool* pool) {
  const std::size_t stride = static_cast<std::size_t>(rows_);
  const double* P = L_.get() + static_cast<std::size_t>(first) * stride;
  const int depth = last - first;
  // last is a whole number of panels, so a multiple of 4: tiles start on it. Tile columns
  // alternate between the threads: the triangle's columns shorten to the right.
  const int tiles = (end - last + 3) / 4;
  const int threads = pool != nullptr && end - last >= kParallelColumns ? pool->thread_count() : 1;
  const auto run = [&](int thread) {
    for (int tile = thread; tile < tiles; tile += threads) {
      update_tile_column(P, depth, last + 4 * tile, end);
    }
  };
  if (threads > 1) {
    pool->parallel_for(threads, run);
  } else {
    run(0);
  }
}

void DenseCholesky::update_tile_column(const double* P, int depth, int j, int end) {
  const std::size_t stride = static_cast<std::size_t>(rows_);
  const auto any_nonzero = [&](int row, int count) {
    for (int i = row; i < row + count; ++i) {
      if (nonzero_row_[static_cast<std::size_t>(i)]) return true;
    }
    return false;
  };
  if (!any_nonzero(j, 4)) return;
  // Columns j..j+3 now hold nonzeros down to row `end` (fill).
  for (int c = j; c < std::min(j + 4, size_); ++c) {
    int& column_end = column_ends_[static_cast<std::size_t>(c)];
    column_end = std::max(column_end, end);
  }
  double* C = L_.get() + static_cast<std::size_t>(j) * stride;
  for (int i = j; i < end; i += kTileRows) {
    if (!any_nonzero(i, kTileRows)) continue;
    detail::Vec4 sum[kTileVectors][4] = {};
    for (int l = 0; l < depth; ++l) {
      const double* p = P + l * stride;
#pragma GCC unroll 2
      for (int v = 0; v < kTileVectors; ++v) {
        const detail::Vec4& column = detail::lanes(p + i + 4 * v);
#pragma GCC unroll 4
        for (int c = 0; c < 4; ++c) sum[v][c] += column * p[j + c];
      }
    }
#pragma GCC unroll 2
    for (int v = 0; v < kTileVectors; ++v) {
#pragma GCC unroll 4
      for (int c = 0; c < 4; ++c) {
        detail::lanes(C + static_cast<std::size_t>(c) * stride + i + 4 * v) -= sum[v][c];
      }
    }
  }
}

void DenseCholesky::solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const {
  // fn(i) for the rows i > j where column j of L may be nonzero: the rest of its panel, then
  // the panel's runs below it.
  const auto for_rows_below = [&](int j, auto&& fn) {
    const auto panel = static_cast<std::size_t>(j / kPanel);
    const int last = std::min(size_, (j / kPanel + 1) * kPanel);
    for (int i = j + 1; i < last; ++i) fn(i);
    for (int r = panel_runs_[panel]; r < panel_runs_[panel + 1]; ++r) {
      const auto& run = runs_[static_cast<std::size_t>(r)];
      for (int i = run.first; i < run.second; ++i) fn(i);
    }
  };
  // L y = x, column by column.
  for (int j = 0; j < size_; ++j) {
    const double* column_j = &at(0, j);
    const double value = x(j) / column_j[j];
    x(j) = value;
    for_rows_below(j, [&](int i) { x(i) -= value * column_j[i]; });
  }
  // L^T x = y, from the last row up: x_j = (y_j - L(j+1.., j) . x(j+1..)) / L(j, j).
  for (int j = size_ - 1; j >= 0; --j) {
    const double* column_j = &at(0, j);
    double sum = 0.0;
    for_rows_below(j, [&](int i) { sum += column_j[i] * x(i); });
    x(j) = (x(j) - sum) / column_j[j];
  }
}

}  // namespace smfem::sim
