#include "smfem/sim/kernels/spd_solver.hpp"

namespace smfem::sim {
namespace {

// Each row's shift scale: its own diagonal (what `scale` holds on entry), the mean's where that
// is not positive. Returns the mean.
double shift_scale(Eigen::VectorXd& scale) {
  const double mean = scale.mean();
  for (Eigen::Index i = 0; i < scale.size(); ++i) {
    if (!(scale(i) > 0.0)) scale(i) = mean;
  }
  return mean;
}

}  // namespace

SpdSolver::SpdSolver(int size) : cholesky_(size), scale_(size) {}

int SpdSolver::solve(Eigen::MatrixXd& A, const Eigen::Ref<const Eigen::VectorXd>& b,
                     Eigen::Ref<Eigen::VectorXd> x, parallel::ThreadPool* pool) {
  scale_ = A.diagonal();
  const double mean = shift_scale(scale_);
  const int shifts = factor_with_shifts(
      mean, [&](double sigma) { A.diagonal() += sigma * scale_; },
      [&] { return cholesky_.factor(A, pool); });
  if (shifts < 0) return -1;
  x = b;
  cholesky_.solve_in_place(x);
  return shifts;
}

int solve_shifted(BlockCholesky& system, const Eigen::Ref<const Eigen::VectorXd>& b,
                  Eigen::Ref<Eigen::VectorXd> x, parallel::ThreadPool* pool) {
  Eigen::VectorXd scale = system.diagonal();
  const double mean = shift_scale(scale);
  const int shifts = factor_with_shifts(
      mean, [&](double sigma) { system.add_to_diagonal(sigma * scale); },
      [&] { return system.factor(pool); });
  if (shifts < 0) return -1;
  x = b;
  system.solve_in_place(x);
  return shifts;
}

}  // namespace smfem::sim
