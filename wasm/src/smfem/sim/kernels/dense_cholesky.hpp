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
// A model of several bodies has a system of blocks with zeros between most of them: its
// factorization is block_cholesky.hpp's, which shares this one's kernel
// (detail/cholesky_tiles.hpp).
//
// L is stored column-major with its rows and columns padded to a multiple of four, so every
// tile is whole. The padding rows are zero for every column the real part reads; the strictly
// upper triangle and the padding columns are scratch. Storage is allocated at construction;
// factor() and solve_in_place() allocate nothing.
//
// On a pool, a large trailing update is shared among the threads by column tiles, each tile
// computed by the same operations whatever thread runs it: the factor is bit-identical for any
// thread count. A small one (a body of the paper's sizes) stays on the caller's thread, where it
// is cheaper than waking the others.
#include <memory>

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
    return L_[static_cast<std::size_t>(column) * static_cast<std::size_t>(padded_) + row];
  }
  const double& at(int row, int column) const {
    return L_[static_cast<std::size_t>(column) * static_cast<std::size_t>(padded_) + row];
  }
  bool factor_panel(int first, int last);
  void update_trailing(int first, int last, parallel::ThreadPool* pool);

  int size_ = 0;
  int padded_ = 0;  // size_ rounded up to a multiple of 4: the storage's rows and columns
  std::unique_ptr<double[]> L_;
};

}  // namespace smfem::sim
