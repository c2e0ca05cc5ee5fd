#include "smfem/sim/kernels/dense_cholesky.hpp"

#include <algorithm>

#include "smfem/sim/kernels/detail/cholesky_tiles.hpp"

namespace smfem::sim {
namespace {

using detail::kCholeskyPanel;

// Trailing updates at least this many columns wide are shared among a pool's threads: below it
// waking them costs more than they save (measured: a 192-column factor is about 0.1 ms).
constexpr int kParallelColumns = 256;

}  // namespace

DenseCholesky::DenseCholesky(int size)
    : size_(size),
      padded_((size + 3) / 4 * 4),
      L_(new double[static_cast<std::size_t>(padded_) * static_cast<std::size_t>(padded_)]) {}

bool DenseCholesky::factor(const Eigen::Ref<const Eigen::MatrixXd>& A, parallel::ThreadPool* pool) {
  for (int column = 0; column < size_; ++column) {
    for (int row = column; row < size_; ++row) at(row, column) = A(row, column);
    // The padding rows must read as zeros; a factorization of a non-finite A can leave NaN there.
    for (int row = size_; row < padded_; ++row) at(row, column) = 0.0;
  }
  for (int first = 0; first < size_; first += kCholeskyPanel) {
    const int last = std::min(size_, first + kCholeskyPanel);
    if (!factor_panel(first, last)) return false;
    update_trailing(first, last, pool);
  }
  return true;
}

// Columns [first, last) of L, given that every earlier panel's update has been applied.
bool DenseCholesky::factor_panel(int first, int last) {
  return detail::factor_columns(L_.get(), static_cast<std::size_t>(padded_), size_, first, last);
}

// The lower triangle of columns [last, size) minus P P^T, P = L(:, first..last), by tiles of four
// columns (detail/cholesky_tiles.hpp). Tiles on the diagonal also write above it, into the
// scratch triangle.
void DenseCholesky::update_trailing(int first, int last, parallel::ThreadPool* pool) {
  const auto stride = static_cast<std::size_t>(padded_);
  // last is a whole number of panels, so a multiple of 4: tiles start on it. Tile columns
  // alternate between the threads: the triangle's columns shorten to the right.
  const int tiles = (padded_ - last) / 4;
  const int threads =
      pool != nullptr && size_ - last >= kParallelColumns ? pool->thread_count() : 1;
  const auto run = [&](int thread) {
    for (int tile = thread; tile < tiles; tile += threads) {
      detail::subtract_panel_tile(L_.get(), stride, padded_, first, last, last + 4 * tile);
    }
  };
  if (threads > 1) {
    pool->parallel_for(threads, run);
  } else {
    run(0);
  }
}

void DenseCholesky::solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const {
  // L y = x, column by column.
  for (int j = 0; j < size_; ++j) {
    const double* column_j = &at(0, j);
    const double value = x(j) / column_j[j];
    x(j) = value;
    for (int i = j + 1; i < size_; ++i) x(i) -= value * column_j[i];
  }
  // L^T x = y, from the last row up: x_j = (y_j - L(j+1.., j) . x(j+1..)) / L(j, j).
  for (int j = size_ - 1; j >= 0; --j) {
    const double* column_j = &at(0, j);
    double sum = 0.0;
    for (int i = j + 1; i < size_; ++i) sum += column_j[i] * x(i);
    x(j) = (x(j) - sum) / column_j[j];
  }
}

}  // namespace smfem::sim
