#include "smfem/sim/dynamics.hpp"

namespace smfem::sim {

Dynamics::Dynamics(const Eigen::MatrixXd& mass_block, double timestep)
    : mass_block_(mass_block), timestep_(timestep) {
  const Eigen::Index n = mass_block.rows();
  spring_.basis.setZero(n);
  predicted_.setZero(n, 3);
  force_.setZero(n, 3);
  work_.setZero(n, 3);
  product_.setZero(n, 3);
  rebuild_hessian();
}

void Dynamics::set_timestep(double timestep) {
  timestep_ = timestep;
  rebuild_hessian();
}

void Dynamics::set_spring(const DragSpring& spring) {
  spring_ = spring;
  has_spring_ = true;
  rebuild_hessian();
}

void Dynamics::clear_spring() {
  has_spring_ = false;
  rebuild_hessian();
}

void Dynamics::set_anchors(const Eigen::MatrixXd& block, const ReducedMatrix& pull) {
  anchor_block_ = block;
  anchor_pull_ = pull;
  has_anchors_ = true;
  rebuild_hessian();
}

void Dynamics::clear_anchors() {
  has_anchors_ = false;
  rebuild_hessian();
}

void Dynamics::rebuild_hessian() {
  hessian_block_ = mass_block_ / (timestep_ * timestep_);
  if (has_spring_) {
    hessian_block_.noalias() += spring_.stiffness * spring_.basis * spring_.basis.transpose();
  }
  if (has_anchors_) hessian_block_ += anchor_block_;
}

void Dynamics::begin_step(const ReducedMatrix& U_n, const ReducedMatrix& Udot_n,
                          const ReducedMatrix& force) {
  predicted_ = U_n + timestep_ * Udot_n;
  force_ = force;
}

Eigen::Vector3d Dynamics::spring_point(const ReducedMatrix& U) const {
  return spring_.rest + U.transpose() * spring_.basis;
}

double Dynamics::energy(const ReducedMatrix& U) {
  work_ = U - predicted_;
  product_.noalias() = mass_block_.lazyProduct(work_);
  // The inertia term first: spring_energy overwrites product_.
  const double inertia = 0.5 / (timestep_ * timestep_) * work_.cwiseProduct(product_).sum();
  return inertia - force_.cwiseProduct(U).sum() + spring_energy(U);
}

double Dynamics::spring_energy(const ReducedMatrix& U) {
  double energy = 0.0;
  if (has_spring_) {
    energy += 0.5 * spring_.stiffness * (spring_point(U) - spring_.target).squaredNorm();
  }
  if (has_anchors_) {
    product_.noalias() = anchor_block_.lazyProduct(U);
    energy += (0.5 * product_ - anchor_pull_).cwiseProduct(U).sum();
  }
  return energy;
}

void Dynamics::gradient(const ReducedMatrix& U, ReducedMatrix& out) {
  work_ = U - predicted_;
  out.noalias() = mass_block_.lazyProduct(work_);
  out *= 1.0 / (timestep_ * timestep_);
  out -= force_;
  if (has_spring_) {
    const Eigen::Vector3d stretch = spring_point(U) - spring_.target;
    out.noalias() += spring_.stiffness * spring_.basis * stretch.transpose();
  }
  if (has_anchors_) {
    out.noalias() += anchor_block_.lazyProduct(U);
    out -= anchor_pull_;
  }
}

double Dynamics::curvature(const ReducedMatrix& dU) {
  product_.noalias() = hessian_block_.lazyProduct(dU);
  return dU.cwiseProduct(product_).sum();
}

}  // namespace smfem::sim
