#include "smfem/sim/spd_solver.hpp"

namespace smfem::sim {

SpdSolver::SpdSolver(int size) : cholesky_(size) {}

int SpdSolver::solve(Eigen::MatrixXd& A, const Eigen::Ref<const Eigen::VectorXd>& b,
                     Eigen::Ref<Eigen::VectorXd> x) {
  const int shifts = factor_with_shifts(
      A.diagonal().mean(), [&](double shift) { A.diagonal().array() += shift; },
      [&] { return cholesky_.factor(A); });
  if (shifts < 0) return -1;
  x = b;
  cholesky_.solve_in_place(x);
  return shifts;
}

}  // namespace smfem::sim
