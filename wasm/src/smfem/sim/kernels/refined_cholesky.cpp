#include "smfem/sim/kernels/refined_cholesky.hpp"

namespace smfem::sim {

void RefinedCholesky::analyze(const Eigen::SparseMatrix<double>& lower) {
  float_.analyze(lower);
  double_analyzed_ = false;
}

bool RefinedCholesky::factor(const Eigen::SparseMatrix<double>& lower, parallel::ThreadPool* pool) {
  lower_ = &lower;
  pool_ = pool;
  in_double_ = !float_.factor(lower, pool);
  return !in_double_ || factor_in_double();
}

bool RefinedCholesky::factor_in_double() {
  if (!double_analyzed_) {
    double_.analyze(*lower_);
    double_analyzed_ = true;
  }
  in_double_ = true;
  return double_.factor(*lower_, pool_);
}

void RefinedCholesky::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  x = b;
  if (in_double_) {
    double_.solve_in_place(x, pool_);
    return;
  }
  float_.solve_in_place(x, pool_);
  const double target = kTargetResidual * b.norm();
  for (int k = 0;; ++k) {
    residual_.noalias() = b - lower_->selfadjointView<Eigen::Lower>() * x;
    if (residual_.norm() <= target) return;
    if (k == kCorrections) break;
    float_.solve_in_place(residual_, pool_);
    x += residual_;
  }
  // Too ill-conditioned for float: this factor's solves are double's from now on. (A that was
  // definite enough for float's factor is for double's: should it still fail, x stays refined.)
  if (factor_in_double()) {
    x = b;
    double_.solve_in_place(x, pool_);
  }
}

}  // namespace smfem::sim
