#include "smfem/sim/step/dynamics.hpp"

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
  // The coupling pattern of every term (not of their sum, where entries could cancel), read
  // where it is needed rather than held: an island of 30 bodies' pattern was a 7 MB matrix. Every
  // term is symmetric, so column r (contiguous) says what row r couples to.
  const auto coupled = [&](Eigen::Index r, Eigen::Index c) {
    return mass_block_(c, r) != 0.0 ||
           (has_spring_ && spring_.basis(r) != 0.0 && spring_.basis(c) != 0.0) ||
           (has_anchors_ && anchor_block_(c, r) != 0.0);
  };
  // A block ends at row r when no row up to r is coupled to a row after it.
  diagonal_blocks_.clear();
  const Eigen::Index n = mass_block_.rows();
  Eigen::Index first = 0, reach = 0;
  for (Eigen::Index r = 0; r < n; ++r) {
    for (Eigen::Index c = n - 1; c > reach; --c) {
      if (coupled(r, c)) {
        reach = c;
        break;
      }
    }
    if (reach <= r) {
      diagonal_blocks_.push_back({first, r + 1 - first});
      first = r + 1;
      reach = first;
    }
  }
  // H_block on those blocks, zero elsewhere: the whole n x n's arithmetic was most of a 30-body
  // island's build (and of a drag's start on it).
  hessian_block_.setZero(n, n);
  for (const Range& range : diagonal_blocks_) {
    auto block = hessian_block_.block(range.first, range.first, range.size, range.size);
    block = mass_block_.block(range.first, range.first, range.size, range.size) /
            (timestep_ * timestep_);
    if (has_spring_) {
      const auto basis = spring_.basis.segment(range.first, range.size);
      block.noalias() += spring_.stiffness * basis * basis.transpose();
    }
    if (has_anchors_)
      block += anchor_block_.block(range.first, range.first, range.size, range.size);
  }
}

void Dynamics::block_product(const Eigen::MatrixXd& block, const ReducedMatrix& U,
                             ReducedMatrix& out) const {
  out.resize(U.rows(), 3);
  for (const Range& range : diagonal_blocks_) {
    out.middleRows(range.first, range.size).noalias() =
        block.block(range.first, range.first, range.size, range.size)
            .lazyProduct(U.middleRows(range.first, range.size));
  }
}

void Dynamics::begin_step(const ReducedMatrix& U_n, const ReducedMatrix& Udot_n,
                          const ReducedMatrix& force) {
  predicted_ = U_n + timestep_ * Udot_n;
  force_ = force;
}

Eigen::Vector3d Dynamics::spring_point(const ReducedMatrix& U) const { return spring_.point(U); }

double Dynamics::energy(const ReducedMatrix& U) {
  work_ = U - predicted_;
  block_product(mass_block_, work_, product_);
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
    block_product(anchor_block_, U, product_);
    energy += (0.5 * product_ - anchor_pull_).cwiseProduct(U).sum();
  }
  return energy;
}

void Dynamics::gradient(const ReducedMatrix& U, ReducedMatrix& out) {
  work_ = U - predicted_;
  block_product(mass_block_, work_, out);
  out *= 1.0 / (timestep_ * timestep_);
  out -= force_;
  if (has_spring_) {
    const Eigen::Vector3d stretch = spring_point(U) - spring_.target;
    out.noalias() += spring_.stiffness * spring_.basis * stretch.transpose();
  }
  if (has_anchors_) {
    block_product(anchor_block_, U, product_);
    out += product_;
    out -= anchor_pull_;
  }
}

double Dynamics::curvature(const ReducedMatrix& dU) {
  block_product(hessian_block_, dU, product_);
  return dU.cwiseProduct(product_).sum();
}

}  // namespace smfem::sim
