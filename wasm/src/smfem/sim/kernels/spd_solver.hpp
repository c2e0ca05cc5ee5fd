#pragma once
// The dense r x r solve of each solver iteration: Cholesky (dense_cholesky.hpp) of a symmetric
// matrix that should be positive definite (H_u is, K is PSD by projection). Rounding, or a float
// assembly of K, can still make it fail; the solver then adds to each diagonal entry sigma times
// itself (times the mean diagonal where it is not positive), sigma = 1e-12, 1e-10, ..., and
// counts the shifts. Relative to each row, not to the mean: the mean of a heterogeneous
// object's diagonal is the stiff parts', and a shift of it swamps the soft ones (on the hinge
// with float K, MFEM at one iteration per step overshot to 6 times the converged kinetic energy).
// Workspaces are allocated once.
#include <cmath>

#include <Eigen/Core>

#include "smfem/sim/kernels/block_cholesky.hpp"
#include "smfem/sim/kernels/dense_cholesky.hpp"

namespace smfem::sim {

// The shift schedule above, for any factorization (also the full-space sparse one,
// full/full_system.hpp): try_factor() (true on success) until it succeeds, calling
// add_shift(sigma) between tries with sigma = 1e-12, 1e-10, ... up to 1e4; the caller adds sigma
// times its own diagonal scale (SpdSolver each row's diagonal, the full-space system the mean).
// Returns the shifts used, or -1 if even the largest failed or mean_diagonal (the matrix's mean
// diagonal) is not a positive number.
template <class AddShift, class TryFactor>
int factor_with_shifts(double mean_diagonal, AddShift&& add_shift, TryFactor&& try_factor) {
  constexpr int kMaxShifts = 8;
  if (!std::isfinite(mean_diagonal) || !(mean_diagonal > 0.0)) return -1;
  double sigma = 1e-12;
  for (int shifts = 0; shifts <= kMaxShifts; ++shifts) {
    if (shifts > 0) {
      add_shift(sigma);
      sigma *= 100.0;
    }
    if (try_factor()) return shifts;
  }
  return -1;
}

class SpdSolver {
 public:
  explicit SpdSolver(int size);

  // Solves A x = b using A's lower triangle (A's diagonal is changed by shifts, if any).
  // Returns the number of shifts (0 normally), or -1 if even the largest shift failed or A is
  // not finite.
  // pool: shares a large factorization's work (dense_cholesky.hpp); null: the caller's thread.
  int solve(Eigen::MatrixXd& A, const Eigen::Ref<const Eigen::VectorXd>& b,
            Eigen::Ref<Eigen::VectorXd> x, parallel::ThreadPool* pool = nullptr);

 private:
  DenseCholesky cholesky_;
  Eigen::VectorXd scale_;  // the diagonal the shifts are relative to
};

// The same shifted solve of a system of blocks (block_cholesky.hpp, which holds A; its diagonal
// is changed by the shifts, if any).
int solve_shifted(BlockCholesky& system, const Eigen::Ref<const Eigen::VectorXd>& b,
                  Eigen::Ref<Eigen::VectorXd> x, parallel::ThreadPool* pool = nullptr);

}  // namespace smfem::sim
