#pragma once
// Cholesky factorization A = L L^T of a sparse symmetric positive definite matrix by the
// supernodal multifrontal method: the full-space system of a thin body or a tet mesh
// (full/full_system.hpp), whose pattern is fixed and whose values change every iteration.
//
// Why not Eigen's SimplicialLLT (which this replaced): it works entry by entry, at about 3e9
// multiply-adds a second natively and less in wasm, where Eigen has no SIMD path. A cloth's
// factor is dense in places (a 32 x 32 cloth with plate bending: 7.4e7 multiply-adds, 471,000
// nonzeros in L, most in the last few hundred columns), and columns of L with the same pattern
// below them (supernodes) are factored here as one dense front by the dense factorizations'
// tile kernel (detail/cholesky_tiles.hpp).
//
// analyze() orders the unknowns (Eigen's approximate minimum degree, then a postorder of the
// elimination tree, which keeps the fill and makes each subtree's columns contiguous), finds
// the supernodes, merges small ones into their parent where that adds few zeros (CHOLMOD's
// relaxed amalgamation rule), and lays out each supernode's panel once: A's entries then land at
// precomputed offsets. factor() visits the supernodes children first: add A's entries and the
// children's update matrices into the front, factor its pivot columns, and subtract their outer
// product from the rest (the update matrix its parent adds; kept on a stack until then).
//
// Fronts are column-major, their pivot columns padded in front by identity pivots and their
// rows at the bottom by zeros to multiples of four, so every tile is whole. On a pool (Plan
// below), whole subtrees are factored side by side, then their ancestors, the smaller ones side
// by side as soon as their children are done, the large ones with their update shared among
// the threads by column tiles. Each supernode is computed by the same operations whatever
// thread runs it, so the factor is bit-identical for any thread count.
#include <cstddef>
#include <vector>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "smfem/parallel/thread_pool.hpp"

namespace smfem::sim {

// Real: the factor's entries. float halves the memory the factorization streams and doubles the
// work of each SIMD instruction (wasm's 128-bit vectors hold 4 floats, 2 doubles); its solves
// are then accurate to about the condition number times float's rounding, which the caller
// refines (full/full_system.cpp). The solves' vectors are double either way.
template <typename Real>
class SparseCholesky {
 public:
  // The pattern of A's lower triangle, diagonal included (values ignored). Throws
  // std::invalid_argument if it is not square, lacks a diagonal entry or has one above it.
  void analyze(const Eigen::SparseMatrix<double>& lower);

  // Factors A, whose lower triangle has analyze()'s pattern (entry for entry). False if a pivot is
  // not positive (A not positive definite, or not finite): the factor is then unusable.
  bool factor(const Eigen::SparseMatrix<double>& lower, parallel::ThreadPool* pool = nullptr);
  // x <- A^-1 x with the last successful factor; on the factor's pool (the same thread count),
  // the pieces of the elimination tree side by side, the result the same to the bit.
  void solve_in_place(Eigen::Ref<Eigen::VectorXd> x, parallel::ThreadPool* pool = nullptr) const;

  // L's entries stored (padding and relaxed zeros included).
  std::size_t stored_entries() const { return factor_.size(); }

 private:
  struct Supernode {
    int first = 0, count = 0;  // its columns of L (new numbering): [first, first + count)
    int padding = 0;           // identity pivots before them: count + padding is a multiple of 4
    std::vector<int> rows;     // the rows below its columns where L may be nonzero, ascending
    int height = 0;            // the front's rows: pivots, rows, zeros to a multiple of 4
    std::size_t offset = 0;    // its panel's first entry in factor_ (height x pivots())
    int parent = -1;           // supernode
    std::vector<int> children;
    // Per row, where it is in the parent's front (the parent's pivots first, then its rows).
    std::vector<int> in_parent;
    int pivots() const { return count + padding; }
    int updates() const { return height - pivots(); }  // the update matrix's rows and columns
  };

  // Where the supernodes are factored on `threads` threads. First the pieces: whole subtrees,
  // each at most half a thread's share of the work, taken heaviest first by whichever thread is
  // free (their fronts vary in size, and so does the speed of their work, so a fixed share per
  // thread left one thread waiting), each thread with a stack of update matrices of its own.
  // Then the rest, the top, their ancestors, each with its update matrix at a place of its own:
  // first as tasks, a front to a thread as soon as its children are factored (independent
  // branches of the top side by side), then the shared fronts (those heavier than half a
  // thread's share of the top, and their ancestors) one after another, each front's update
  // shared among the threads. On one thread the pieces are the trees, and there is no top.
  struct Plan {
    int threads = 0;
    std::vector<int> pieces;  // their roots, heaviest first
    std::vector<int> top;     // postorder
    std::size_t shared = 0;   // top[shared ...] are shared, the ones before are in tasks
    // A task: a chain of top supernodes, each the only child in the tasks of the next (on one
    // thread: a rope's chain of fronts passed from thread to thread cost more than it saved),
    // and the tasks it waits for (taken before it).
    struct Task {
      std::vector<int> supernodes;
      std::vector<int> waits;
    };
    std::vector<Task> tasks;
    // Per supernode: where its update matrix is left: on its thread's stack, to be taken by its
    // parent in the same piece (kInPiece), on its stack until the top takes it (kPieceRoot), or at
    // update_at_ for good (kTop).
    std::vector<char> kind;
    std::size_t stack_size = 0;  // per thread (after the top's places)
    // Per thread: A's entries (in storage order) whose places in factor_ are in the thread's
    // share of it, which the thread zeroes and fills.
    std::vector<std::vector<std::size_t>> entries;
  };
  static constexpr char kInPiece = 0, kPieceRoot = 1, kTop = 2;
  struct Stack {
    std::size_t top = 0;
    std::vector<std::size_t> pushed;  // where each update matrix on it starts
  };
  // plan_ for a pool of `threads` (the same as the last call's: nothing to do), and the places
  // of the update matrices.
  void plan_for(int threads);
  // Supernode s's front: its children's update matrices added, its pivots factored, its own
  // update matrix left on `stack` (null for a top supernode: at update_at_[s]). False if a pivot
  // is not positive.
  bool factor_supernode(int s, Stack* stack, parallel::ThreadPool* pool);
  // The parts of factor() on a pool of several threads; false if a pivot is not positive.
  void scatter(const Eigen::SparseMatrix<double>& lower, parallel::ThreadPool& pool);
  bool factor_pieces(parallel::ThreadPool& pool);
  bool factor_top_tasks(parallel::ThreadPool& pool);
  // The solves at supernode s, on y in the elimination order; below_rows: room for its rows.
  // forward() leaves in below_rows what its pivots subtract from its rows, for the caller.
  void forward(int s, double* y, double* below_rows) const;
  void backward(int s, double* y, double* below_rows) const;
  void solve_on_pool(parallel::ThreadPool& pool) const;

  std::vector<Supernode> supernodes_;  // children before parents
  std::vector<int> subtree_first_;     // per supernode: the first of its subtree
  std::vector<double> subtree_work_;   // per supernode: its subtree's multiply-adds
  // Per entry of A's lower triangle (in storage order): its place in factor_.
  std::vector<std::size_t> entry_offsets_;
  std::vector<int> new_index_;  // per unknown of A: where it is eliminated
  std::vector<Real> factor_;    // the supernodes' panels
  Plan plan_;
  std::vector<Real> update_stack_;      // the top's update matrices, then each thread's stack
  std::vector<std::size_t> update_at_;  // per supernode: where its update matrix is
  mutable Eigen::VectorXd work_;        // solve_in_place()'s, in the elimination order
  // And per thread, most_rows_ for a supernode's rows below its pivots.
  mutable Eigen::VectorXd gathered_;
  std::size_t most_rows_ = 0;
  // The parallel solve's (plan_for): per column, whether it is a top supernode's; per supernode
  // of a piece, where in stash_ it leaves what it subtracts from the top's rows.
  std::vector<char> top_column_;
  std::vector<std::size_t> stash_at_;
  mutable std::vector<double> stash_;
};

}  // namespace smfem::sim
