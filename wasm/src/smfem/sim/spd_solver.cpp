#include "smfem/sim/spd_solver.hpp"

#include <cmath>

namespace smfem::sim {

SpdSolver::SpdSolver(int size) : llt_(size) {}

int SpdSolver::solve(Eigen::MatrixXd& A, const Eigen::Ref<const Eigen::VectorXd>& b,
                     Eigen::Ref<Eigen::VectorXd> x) {
  const double mean_diagonal = A.diagonal().mean();
  if (!std::isfinite(mean_diagonal) || !(mean_diagonal > 0.0)) return -1;
  double shift = kFirstCholeskyShift * mean_diagonal;
  for (int shifts = 0; shifts <= kMaxCholeskyShifts; ++shifts) {
    if (shifts > 0) {
      A.diagonal().array() += shift;
      shift *= 100.0;
    }
    llt_.compute(A);
    if (llt_.info() == Eigen::Success) {
      x = b;
      llt_.solveInPlace(x);
      return shifts;
    }
  }
  return -1;
}

}  // namespace smfem::sim
