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
// On a pool, a panel's rows below its diagonal block are shared among the threads, and so are
// the updates one block column makes to later ones, by target column, balanced by their work;
// each entry is computed by the same operations on any thread: the factor is bit-identical for
// any thread count.
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
  // L's column p, from its panel of A less the updates of the columns before it.
  bool factor_panel(int p, parallel::ThreadPool* pool);
  // Column p's updates to later columns, each target once.
  void update_targets(int p, parallel::ThreadPool* pool);
  // Column p's updates to later column `target` (its t-th block below).
  void update(int p, std::size_t t);

  std::vector<Column> columns_;
  int size_ = 0;
  std::vector<double> A_, L_;
  // update_targets()'s: the thread of each target, and each thread's work.
  std::vector<int> owner_;
  std::vector<double> load_;
};

}  // namespace smfem::sim
