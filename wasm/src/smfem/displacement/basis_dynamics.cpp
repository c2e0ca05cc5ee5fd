#include "smfem/displacement/basis_dynamics.hpp"

#include <utility>

namespace smfem::displacement {

BasisDynamics::BasisDynamics(Eigen::MatrixXd reduced_mass, double timestep)
    : reduced_mass_(std::move(reduced_mass)),
      timestep_(timestep),
      predicted_(sim::ReducedMatrix::Zero(reduced_mass_.rows(), 3)),
      force_(sim::ReducedMatrix::Zero(reduced_mass_.rows(), 3)) {}

void BasisDynamics::begin_step(const sim::ReducedMatrix& q_n, const sim::ReducedMatrix& qdot_n,
                               const sim::ReducedMatrix& force) {
  predicted_ = q_n + timestep_ * qdot_n;
  force_ = force;
}

double BasisDynamics::energy(const sim::ReducedMatrix& U) {
  const Eigen::VectorXd dq = U.col(0) - predicted_.col(0);
  return 0.5 / (timestep_ * timestep_) * dq.dot(reduced_mass_ * dq) - force_.col(0).dot(U.col(0));
}

void BasisDynamics::gradient(const sim::ReducedMatrix& U, sim::ReducedMatrix& out) {
  out.setZero(U.rows(), 3);
  out.col(0) =
      reduced_mass_ * (U.col(0) - predicted_.col(0)) / (timestep_ * timestep_) - force_.col(0);
}

double BasisDynamics::curvature(const sim::ReducedMatrix& dU) {
  return dU.col(0).dot(reduced_mass_ * dU.col(0)) / (timestep_ * timestep_);
}

}  // namespace smfem::displacement
