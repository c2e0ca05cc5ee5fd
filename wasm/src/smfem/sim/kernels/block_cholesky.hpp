#pragma once
// Cholesky factorization A = L L^T of a symmetric positive definite matrix of dense blocks with
// zeros between most of them: the system of an island of several bodies (reduced_system.hpp),
// each body a dense block of its 12m unknowns, contact coupling some pairs of them. Only the
// blocks that can be nonzero are stored: A's, and the fill the factorization adds. Each block
// column of L is one dense panel (supernodal), the diagonal block on top of the blocks below it,
// so storage and work follow the coupling, not the square of the island's unknowns (a dense
// factor of 30 jelly cubes, 2,880 unknowns, copied and scanned 66 MB per solve).
//
// The blocks are given in elimination order (reduced_system.hpp chooses it): unknown i of block p
// is unknown first(p) + i of the system. The arithmetic is the dense Cholesky's
// (dense_cholesky.hpp): panels of 32 columns, then four-column tiles of four-lane vectors.
//
// On a pool, independent subtrees of the elimination tree (a block column's parent is the first
// block below its diagonal) are factored side by side first, one thread each, balanced by their
// work (where they hold enough work to wake the pool for): a column's updates reach only its
// ancestors, so a subtree's columns write to the subtree and to the columns above the chosen
// subtrees, whose updates wait for the second phase. That
// phase goes through all columns in order, as the one-thread factorization does: it factors the
// columns above the subtrees and applies every update to them. There a panel's rows below its
// diagonal block are shared among the threads, and so are the updates one block column makes to
// later ones, by target column, balanced by their work. Each entry gets the same operations in the
// same order on any thread (its updates by ascending column): the factor is bit-identical for any
// thread count. (The pile of 30 jelly cubes, minimum-degree ordered: three quarters of the
// factorization's multiply-adds fall in such subtrees, shared evenly between two threads, where
// most of their columns were too small to share.)
#include <cstddef>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "smfem/parallel/thread_pool.hpp"

namespace smfem::sim {

class BlockCholesky {
 public:
  using BlockView = Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>;

  // sizes: each block's unknowns (a positive multiple of 4), in elimination order; couplings:
  // the pairs of blocks whose block of A off the diagonal may be nonzero. A's entries are then
  // unspecified until set_zero().
  void set_structure(const std::vector<int>& sizes,
                     const std::vector<std::pair<int, int>>& couplings);
  int size() const { return size_; }

  // A = 0 on every stored block.
  void set_zero();
  // Unknowns [row, row + rows) x [col, col + cols) of A, within one block row and one block
  // column, the row's block at or after the column's; throws std::out_of_range where that block
  // is not stored (its blocks were not coupled). Of a diagonal block only the lower triangle is
  // read.
  BlockView block(int row, int col, int rows, int cols);
  Eigen::VectorXd diagonal() const;
  void add_to_diagonal(const Eigen::Ref<const Eigen::VectorXd>& values);

  // Factors A (it is kept). False if a pivot is not positive (A not positive definite, or not
  // finite): the factor is then unusable.
  bool factor(parallel::ThreadPool* pool = nullptr);
  // How many block columns the last factor() planned to factor in subtrees side by side (0
  // alone, or where the subtrees hold too little work), whether or not the factorization
  // succeeded.
  int columns_side_by_side() const { return side_by_side_columns_; }
  // x <- A^-1 x with the last successful factor.
  void solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const;

 private:
  struct Column {
    int first = 0, size = 0;      // its unknowns
    int height = 0;               // the panel's rows: its own, then each block's below
    std::size_t offset = 0;       // the panel's first entry (column-major, `height` rows)
    std::vector<int> below;       // the blocks below the diagonal that may be nonzero, ascending
    std::vector<int> below_rows;  // where each starts in the panel
    bool operator==(const Column&) const = default;
  };

  int block_of(int unknown) const;
  // The panel row of block `row_block`'s first unknown in column `column`'s panel.
  int panel_row(int row_block, int column) const;
  // Each column's subtree thread for `threads` threads (subtree_thread_), chosen once per
  // structure and thread count.
  void plan_subtrees(int threads);
  // The subtrees' columns, each on its thread, with their updates within their subtree.
  bool factor_subtrees(parallel::ThreadPool& pool);
  // L's column p, from its panel of A less the updates of the columns before it.
  bool factor_panel(int p, parallel::ThreadPool* pool);
  // Column p's updates to later columns outside every subtree, each target once.
  void update_targets(int p, parallel::ThreadPool* pool);
  // Column p's updates to later column `target` (its t-th block below).
  void update(int p, std::size_t t);
  // Multiply-adds of column c's update to its t-th block below: the target's rows at or below
  // it in c's panel, times the target's columns, times c's.
  double update_work(const Column& c, std::size_t t) const;

  std::vector<Column> columns_;
  int size_ = 0;
  std::vector<double> A_, L_;
  // update_targets()'s: the targets left (indices into the column's blocks below), the thread
  // of each, and each thread's work.
  std::vector<std::size_t> targets_;
  std::vector<int> owner_;
  std::vector<double> load_;
  // Per column: the thread whose subtree holds it, -1 above the subtrees (plan_subtrees()).
  std::vector<int> subtree_thread_;
  int planned_threads_ = 0;  // what subtree_thread_ was planned for (0: not planned)
  int side_by_side_columns_ = 0;
};

}  // namespace smfem::sim
