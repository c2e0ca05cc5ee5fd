#include "smfem/sim/reduced_system.hpp"

namespace smfem::sim {

ReducedSystem::ReducedSystem(const CubatureRows& cubature_Y, const Eigen::VectorXd& weights,
                             const Dynamics& dynamics, int thread_count)
    : dynamics_(dynamics),
      assembly_(cubature_Y, weights, thread_count),
      spd_(3 * static_cast<int>(cubature_Y.cols())) {
  const Eigen::Index n = cubature_Y.cols();
  matrix_.setZero(3 * n, 3 * n);
  rhs_.setZero(n, 3);
  rhs_vector_.setZero(3 * n);
  solution_.setZero(3 * n);
}

int ReducedSystem::solve(const ReducedMatrix& dynamics_gradient, ReducedMatrix& du) {
  const Eigen::Index n = rhs_.rows();
  rhs_ = -(dynamics_gradient + assembly_.force());
  assembly_.add_to_lower(dynamics_.hessian_block(), matrix_);
  if (contact_ != nullptr) contact_->add_hessian_to_lower(matrix_);
  // vec(U) = u: the columns of the 4m x 3 matrices, stacked.
  rhs_vector_ = Eigen::Map<const Eigen::VectorXd>(rhs_.data(), 3 * n);
  const int shifts = spd_.solve(matrix_, rhs_vector_, solution_);
  du = Eigen::Map<const ReducedMatrix>(solution_.data(), n, 3);
  return shifts;
}

}  // namespace smfem::sim
