#pragma once
// Cholesky factorization A = L L^T of a dense symmetric positive definite matrix, from its lower
// triangle, and the solve with the factor: the r x r solve of every solver iteration
// (spd_solver.hpp), r = 12m = 192 at the paper's sizes.
//
// Why not Eigen::LLT: Eigen 3.4 has no wasm SIMD path, so in wasm its rank updates run a scalar
// 1 x 4 kernel, and the factorization was 15 % of a wasm iteration. This one is blocked
// right-looking (panels of 32 columns, then the trailing lower triangle updated by tiles of
// four columns and 8 rows natively, 4 in wasm, in four-lane vectors: AVX2 natively, two 128-bit
// vectors in wasm).
//
// Zeros are skipped: a panel works (and the solve reads it) only on the rows below it where one
// of its columns is nonzero, and the trailing update skips the tiles whose rows of the panel are
// all zero. A model of several
// bodies is stored body by body (reduced_system.hpp); bodies that no contact couples give zero
// blocks, and the factorization then costs what the bodies' own blocks cost, not what the whole
// matrix would.
//
// L is stored column-major with padding: the columns to a multiple of four, the rows past that
// by a tile's height less four, so every tile is whole. The padding rows are zero for every
// column the real part reads; the strictly upper triangle and the padding columns are scratch.
// Storage is allocated at construction, uninitialized (factor() writes every entry it reads, so
// the pages of a large system's upper triangle are never touched); factor() and solve_in_place()
// allocate nothing, except where a factor has more runs of nonzero rows than any before it.
//
// On a pool, a large trailing update (a scene's island of many bodies) is shared among the
// threads by column tiles, each tile computed by the same operations whatever thread runs it:
// the factor is bit-identical for any thread count. A small one (a body of the paper's sizes)
// stays on the caller's thread, where it is cheaper than waking the others.
#include <memory>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "smfem/parallel/thread_pool.hpp"

namespace smfem::sim {

class DenseCholesky {
 public:
  explicit DenseCholesky(int size);

  int size() const { return size_; }

  // Factors A (size x size, lower triangle read). False if a pivot is not positive (A not
  // positive definite, or not finite): the factor is then unusable.
  // pool: the threads to share large trailing updates with (null: the caller's alone).
  bool factor(const Eigen::Ref<const Eigen::MatrixXd>& A, parallel::ThreadPool* pool = nullptr);
  // x <- A^-1 x with the last successful factor.
  void solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const;

 private:
  double& at(int row, int column) {
    return L_[static_cast<std::size_t>(column) * static_cast<std::size_t>(rows_) + row];
  }
  const double& at(int row, int column) const {
    return L_[static_cast<std::size_t>(column) * static_cast<std::size_t>(rows_) + row];
  }
  void find_nonzero_rows(int first, int last, int end);
  bool factor_panel(int first, int last);
  void update_trailing(int first, int last, int end, parallel::ThreadPool* pool);
  // Columns j..j+3 of the trailing update (update_trailing()).
  void update_tile_column(const double* P, int depth, int j, int end);

  int size_ = 0;
  int columns_ = 0;  // size_ rounded up to a multiple of 4
  int rows_ = 0;     // the storage's rows: columns_, plus a tile's height less 4
  std::unique_ptr<double[]> L_;
  std::vector<char> nonzero_row_;  // per storage row: the current panel has a nonzero in it
  // Per panel of the last factor, the rows below it where its columns may be nonzero, as runs
  // [first, end) of rows: panel p's are runs_[panel_runs_[p]] up to runs_[panel_runs_[p + 1]].
  // The panel's factorization and the solves with it visit those rows only.
  std::vector<std::pair<int, int>> runs_;
  std::vector<int> panel_runs_;
  // Per column: one past its last nonzero row, from A's entries and the fill of earlier panels.
  std::vector<int> column_ends_;
};

}  // namespace smfem::sim
