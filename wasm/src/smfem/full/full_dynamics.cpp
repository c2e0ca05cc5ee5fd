#include "smfem/full/full_dynamics.hpp"

#include <utility>

namespace smfem::full {

FullDynamics::FullDynamics(Eigen::VectorXd vertex_mass, std::vector<char> pinned, double timestep,
                           Eigen::SparseMatrix<double> bending, HingeSet hinges)
    : vertex_mass_(std::move(vertex_mass)),
      pinned_(std::move(pinned)),
      timestep_(timestep),
      bending_(std::move(bending)),
      hinges_(std::move(hinges)),
      predicted_(sim::ReducedMatrix::Zero(vertex_mass_.size(), 3)),
      force_(sim::ReducedMatrix::Zero(vertex_mass_.size(), 3)) {}

void FullDynamics::begin_step(const sim::ReducedMatrix& U_n, const sim::ReducedMatrix& Udot_n,
                              const sim::ReducedMatrix& force) {
  predicted_ = U_n + timestep_ * Udot_n;
  force_ = force;
  for (Eigen::Index v = 0; v < predicted_.rows(); ++v) {
    if (pinned_[static_cast<std::size_t>(v)]) {
      predicted_.row(v).setZero();
      force_.row(v).setZero();
    }
  }
}

double FullDynamics::spring_energy(const sim::ReducedMatrix& U) const {
  if (!spring_ || pinned_[static_cast<std::size_t>(spring_->node)]) return 0.0;
  const Eigen::Vector3d stretch =
      spring_->rest + U.row(spring_->node).transpose() - spring_->target;
  return 0.5 * spring_->stiffness * stretch.squaredNorm();
}

double FullDynamics::energy(const sim::ReducedMatrix& U) {
  const double inverse_h2 = 1.0 / (timestep_ * timestep_);
  const double bending = bending_.size() == 0 ? 0.0 : 0.5 * U.cwiseProduct(bending_ * U).sum();
  return 0.5 * inverse_h2 *
             (vertex_mass_.asDiagonal() * (U - predicted_)).cwiseProduct(U - predicted_).sum() -
         force_.cwiseProduct(U).sum() + bending + hinges_.energy(U) + spring_energy(U);
}

void FullDynamics::gradient(const sim::ReducedMatrix& U, sim::ReducedMatrix& out) {
  const double inverse_h2 = 1.0 / (timestep_ * timestep_);
  out = inverse_h2 * (vertex_mass_.asDiagonal() * (U - predicted_)) - force_;
  if (bending_.size() != 0) out += bending_ * U;
  hinges_.add_gradient(U, out);
  if (spring_) {
    out.row(spring_->node) +=
        spring_->stiffness *
        (spring_->rest + U.row(spring_->node).transpose() - spring_->target).transpose();
  }
  for (Eigen::Index v = 0; v < out.rows(); ++v) {
    if (pinned_[static_cast<std::size_t>(v)]) out.row(v).setZero();
  }
}

double FullDynamics::curvature(const sim::ReducedMatrix& dU) {
  const double inverse_h2 = 1.0 / (timestep_ * timestep_);
  const double bending = bending_.size() == 0 ? 0.0 : dU.cwiseProduct(bending_ * dU).sum();
  const double spring = spring_ && !pinned_[static_cast<std::size_t>(spring_->node)]
                            ? spring_->stiffness * dU.row(spring_->node).squaredNorm()
                            : 0.0;
  return inverse_h2 * (vertex_mass_.asDiagonal() * dU).cwiseProduct(dU).sum() + bending +
         hinges_.curvature(dU) + spring;
}

}  // namespace smfem::full
