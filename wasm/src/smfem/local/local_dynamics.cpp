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
      coupled_(Eigen::VectorXd::Zero(patches.global_rows())),
      coefficients_(local_change_),
      spring_fields_(static_cast<std::size_t>(patches.patch_count()), Eigen::Matrix3d::Zero()),
      spring_(Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, 3 * patches.patch_count())),
      local_hessian_(Eigen::MatrixXd::Zero(3 * patches.patch_count(), 3 * patches.patch_count())) {
  for (auto& block : coupling_hessian_) {
    block.setZero(patches.global_rows(), 3 * patches.patch_count());
  }
}

void LocalDynamics::set_spring_fields(const std::vector<Eigen::Matrix3d>& fields) {
  if (fields.size() != spring_fields_.size()) {
    throw std::invalid_argument(
        "LocalDynamics::set_spring_fields: " + std::to_string(fields.size()) + " fields for " +
        std::to_string(spring_fields_.size()) + " patches");
  }
  spring_fields_ = fields;
}

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

  // The Hessian's blocks of the step (see the header).
  const double h2 = global_.timestep() * global_.timestep();
  for (int p = 0; p < patches_.patch_count(); ++p) {
    spring_.middleCols<3>(3 * p) =
        spring_on()
            ? Eigen::Matrix3d(patches_.rotation(p) * spring_fields_[static_cast<std::size_t>(p)])
            : Eigen::Matrix3d::Zero();
  }
  local_hessian_ = patches_.local_mass() / h2;
  for (int d = 0; d < 3; ++d) {
    coupling_hessian_[static_cast<std::size_t>(d)] = patches_.coupling(d) / h2;
  }
  if (spring_on()) {
    const double k = global_.spring().stiffness;
    local_hessian_.noalias() += k * spring_.transpose() * spring_;
    for (int d = 0; d < 3; ++d) {
      coupling_hessian_[static_cast<std::size_t>(d)].noalias() +=
          k * global_.spring().basis * spring_.row(d);
    }
  }
}

void LocalDynamics::split(const sim::ReducedMatrix& U) {
  const int n = patches_.global_rows();
  global_part_ = U.topRows(n);
  global_change_ = global_part_ - prediction_.topRows(n);
  for (int p = 0; p < patches_.patch_count(); ++p) {
    coefficients_.segment<3>(3 * p) = U.row(n + p).transpose();
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
  double energy = global_.energy(global_part_) + coupled(global_change_, local_change_) / h2 +
                  0.5 * local_curvature(local_change_) / h2 -
                  local_force_.cwiseProduct(U.bottomRows(patches_.patch_count())).sum();
  if (spring_on()) energy += spring_energy_beyond_global();
  return energy;
}

double LocalDynamics::spring_energy(const sim::ReducedMatrix& U) {
  split(U);
  double energy = global_.spring_energy(global_part_);
  if (spring_on()) energy += spring_energy_beyond_global();
  return energy;
}

double LocalDynamics::spring_energy_beyond_global() const {
  const Eigen::Vector3d dent = spring_displacement(coefficients_);
  const Eigen::Vector3d stretch = global_.spring_point(global_part_) - global_.spring().target;
  return global_.spring().stiffness * (stretch.dot(dent) + 0.5 * dent.squaredNorm());
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
  local_gradient_ /= h2;
  if (spring_on()) {
    // k b (S c)^T on U_g, k S^T (x_g + S c - t) on c.
    const double k = global_.spring().stiffness;
    const Eigen::Vector3d dent = spring_displacement(coefficients_);
    const Eigen::Vector3d stretch =
        global_.spring_point(global_part_) + dent - global_.spring().target;
    out.topRows(n).noalias() += k * global_.spring().basis * dent.transpose();
    local_gradient_.noalias() += k * spring_.transpose() * stretch;
  }
  for (int p = 0; p < patches_.patch_count(); ++p) {
    out.row(n + p) = local_gradient_.segment<3>(3 * p).transpose() - local_force_.row(p);
  }
}

double LocalDynamics::curvature(const sim::ReducedMatrix& dU) {
  const int n = patches_.global_rows();
  global_part_ = dU.topRows(n);
  for (int p = 0; p < patches_.patch_count(); ++p) {
    local_change_.segment<3>(3 * p) = dU.row(n + p).transpose();
  }
  const double h2 = global_.timestep() * global_.timestep();
  double curvature =
      global_.curvature(global_part_) +
      (2.0 * coupled(global_part_, local_change_) + local_curvature(local_change_)) / h2;
  if (spring_on()) {
    const Eigen::Vector3d dent = spring_displacement(local_change_);
    const Eigen::Vector3d moved = global_part_.transpose() * global_.spring().basis;
    curvature += global_.spring().stiffness * (2.0 * moved.dot(dent) + dent.squaredNorm());
  }
  return curvature;
}

}  // namespace smfem::local
