#pragma once
// The dense r x r solve of each solver iteration: Cholesky (Eigen::LLT) of a symmetric matrix
// that should be positive definite (H_u is, K is PSD by projection). Rounding, or a float
// assembly of K, can still make it fail; the solver then adds a diagonal shift
// sigma = 1e-12 * mean(diag) and retries, multiplying sigma by 100 each time, and counts the
// shifts. Workspaces are allocated once.
#include <Eigen/Cholesky>
#include <Eigen/Core>

namespace smfem::sim {

// The shift schedule, shared with the full-space sparse solve (full/full_system.hpp).
inline constexpr double kFirstCholeskyShift = 1e-12;  // times mean(diag)
inline constexpr int kMaxCholeskyShifts = 8;          // sigma up to 1e4 * mean(diag)

class SpdSolver {
 public:
  explicit SpdSolver(int size);

  // Solves A x = b using A's lower triangle (A's diagonal is changed by shifts, if any).
  // Returns the number of shifts (0 normally), or -1 if even the largest shift failed or A is
  // not finite.
  int solve(Eigen::MatrixXd& A, const Eigen::Ref<const Eigen::VectorXd>& b,
            Eigen::Ref<Eigen::VectorXd> x);

 private:
  Eigen::LLT<Eigen::MatrixXd, Eigen::Lower> llt_;
};

}  // namespace smfem::sim
