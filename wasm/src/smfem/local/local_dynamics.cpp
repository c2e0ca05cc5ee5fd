#include "smfem/local/local_dynamics.hpp"

#include <stdexcept>
#include <string>

namespace smfem::local {

LocalDynamics::LocalDynamics(sim::Dynamics& global, const PatchSet& patches)
    : global_(global),
      patches_(patches),
      prediction_(sim::ReducedMatrix::Zero(patches.rows(), 3)),
      local_force_(sim::ReducedMatrix::Zero(patches.patch_count(), 3)),
      global_part_(sim::ReducedMatrix::Zero(patches.global_rows(), 3)),
      global_gradient_(global_part_),
      global_change_(global_part_),
      local_change_(Eigen::VectorXd::Zero(3 * patches.patch_count())),
      local_gradient_(local_change_),
      coupled_(Eigen::VectorXd::Zero(patches.global_rows())) {}

void LocalDynamics::begin_step(const sim::ReducedMatrix& U_n, const sim::ReducedMatrix& Udot_n,
                               const sim::ReducedMatrix& force,
                               const sim::ReducedMatrix& local_force) {
  const int n = patches_.global_rows();
  if (U_n.rows() != patches_.rows() || Udot_n.rows() != patches_.rows() || force.rows() != n ||
      local_force.rows() != patches_.patch_count()) {
    throw std::invalid_argument("LocalDynamics::begin_step: the state must have " +
                                std::to_string(patches_.rows()) + " rows, the force " +
                                std::to_string(n) + ", the patches' force one per patch");
  }
  global_part_ = U_n.topRows(n);
  global_change_ = Udot_n.topRows(n);
  global_.begin_step(global_part_, global_change_, force);
  prediction_.topRows(n) = global_.prediction();
  prediction_.bottomRows(patches_.patch_count()) =
      U_n.bottomRows(patches_.patch_count()) +
      global_.timestep() * Udot_n.bottomRows(patches_.patch_count());
  local_force_ = local_force;
}

void LocalDynamics::split(const sim::ReducedMatrix& U) {
  const int n = patches_.global_rows();
  global_part_ = U.topRows(n);
  global_change_ = global_part_ - prediction_.topRows(n);
  for (int p = 0; p < patches_.patch_count(); ++p) {
    local_change_.segment<3>(3 * p) = (U.row(n + p) - prediction_.row(n + p)).transpose();
  }
}

// sum_d a_d . (N_d c) for the columns a_d of `a`, without temporaries.
double LocalDynamics::coupled(const sim::ReducedMatrix& a, const Eigen::VectorXd& c) {
  double sum = 0.0;
  for (int d = 0; d < 3; ++d) {
    coupled_.noalias() = patches_.coupling(d) * c;
    sum += a.col(d).dot(coupled_);
  }
  return sum;
}

double LocalDynamics::local_curvature(const Eigen::VectorXd& c) {
  local_gradient_.noalias() = patches_.local_mass() * c;
  return c.dot(local_gradient_);
}

double LocalDynamics::energy(const sim::ReducedMatrix& U) {
  split(U);
  const double h2 = global_.timestep() * global_.timestep();
  return global_.energy(global_part_) + coupled(global_change_, local_change_) / h2 +
         0.5 * local_curvature(local_change_) / h2 -
         local_force_.cwiseProduct(U.bottomRows(patches_.patch_count())).sum();
}

void LocalDynamics::gradient(const sim::ReducedMatrix& U, sim::ReducedMatrix& out) {
  split(U);
  const double h2 = global_.timestep() * global_.timestep();
  const int n = patches_.global_rows();
  global_.gradient(global_part_, global_gradient_);
  out.resize(U.rows(), 3);
  local_gradient_.noalias() = patches_.local_mass() * local_change_;
  for (int d = 0; d < 3; ++d) {
    coupled_.noalias() = patches_.coupling(d) * local_change_;
    out.col(d).head(n) = global_gradient_.col(d) + coupled_ / h2;
    local_gradient_.noalias() += patches_.coupling(d).transpose() * global_change_.col(d);
  }
  for (int p = 0; p < patches_.patch_count(); ++p) {
    out.row(n + p) = local_gradient_.segment<3>(3 * p).transpose() / h2 - local_force_.row(p);
  }
}

double LocalDynamics::curvature(const sim::ReducedMatrix& dU) {
  const int n = patches_.global_rows();
  global_part_ = dU.topRows(n);
  for (int p = 0; p < patches_.patch_count(); ++p) {
    local_change_.segment<3>(3 * p) = dU.row(n + p).transpose();
  }
  const double h2 = global_.timestep() * global_.timestep();
  return global_.curvature(global_part_) +
         (2.0 * coupled(global_part_, local_change_) + local_curvature(local_change_)) / h2;
}

}  // namespace smfem::local
