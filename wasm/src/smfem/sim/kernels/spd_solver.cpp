#include "smfem/sim/kernels/spd_solver.hpp"

namespace smfem::sim {

SpdSolver::SpdSolver(int size) : cholesky_(size), scale_(size) {}

int SpdSolver::solve(Eigen::MatrixXd& A, const Eigen::Ref<const Eigen::VectorXd>& b,
                     Eigen::Ref<Eigen::VectorXd> x, parallel::ThreadPool* pool) {
  // Each row shifted in proportion to its own diagonal (the mean's where that is not positive).
  const double mean = A.diagonal().mean();
  scale_ = A.diagonal();
  for (Eigen::Index i = 0; i < scale_.size(); ++i) {
    if (!(scale_(i) > 0.0)) scale_(i) = mean;
  }
  const int shifts = factor_with_shifts(
      mean, [&](double sigma) { A.diagonal() += sigma * scale_; },
      [&] { return cholesky_.factor(A, pool); });
  if (shifts < 0) return -1;
  x = b;
  cholesky_.solve_in_place(x);
  return shifts;
}

}  // namespace smfem::sim
