#pragma once
// Sparse Cholesky A = L L^T by the multifrontal method on a nested-dissection tree: each tree
// node eliminates its pivots as one dense block (Eigen's blocked LLT, triangular solve and
// rank update), so the arithmetic runs at dense-matrix speed instead of entry by entry, and
// the two halves below a node are independent, so they are factored on separate threads.
//
// Per node with s pivots and r boundary rows (ancestor pivots that its subtree touches): the
// front F ((s + r) x (s + r)) gathers A's entries of the pivots' columns and the children's
// update matrices; then L11 = chol(F11), L21 = F21 L11^-T, and U = F22 - L21 L21^T goes to the
// parent. Factoring (the bulk of the work) is deterministic whatever the thread count.
#include <vector>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "smfem/subspace/detail/nested_dissection.hpp"

namespace smfem::subspace::detail {

class MultifrontalCholesky {
 public:
  // Factors A (n x n, symmetric; only its lower triangle is read), ordered by tree. threads: at
  // most this many run at once (>= 1). Throws std::runtime_error if A is not positive definite.
  void factor(const Eigen::SparseMatrix<double>& A, const DissectionTree& tree, int threads);

  // x <- A^-1 x, x in A's original numbering.
  void solve(Eigen::Ref<Eigen::VectorXd> x) const;
  // The same for every column of X (n x c), in one pass over the factor: the fronts' products
  // become matrix products, and the factor (which dominates the time of a solve: it is read
  // from memory once) is read once for all columns.
  void solve_columns(Eigen::Ref<Eigen::MatrixXd> X) const;

 private:
  struct Front {
    int pivot_begin = 0;
    int pivot_end = 0;
    std::vector<int> boundary;  // new indices of the boundary rows, ascending
    Eigen::MatrixXd L11;        // s x s, lower triangle
    Eigen::MatrixXd L21;        // r x s
  };

  Eigen::MatrixXd factor_subtree(int node, int parallel_depth);
  // L L^T work = b in place, in the new numbering (Work: a vector or a matrix of columns).
  template <class Work>
  void substitute(Work& work) const;

  DissectionTree tree_;
  Eigen::SparseMatrix<double> permuted_;  // P A P^T, lower triangle, new numbering
  std::vector<Front> fronts_;
  mutable Eigen::VectorXd work_;
  mutable Eigen::MatrixXd column_work_;
};

}  // namespace smfem::subspace::detail
