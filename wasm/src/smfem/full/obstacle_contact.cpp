#include "smfem/full/obstacle_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "smfem/sim/contact/barrier.hpp"
#include "smfem/sim/contact/friction.hpp"

namespace smfem::full {

ObstacleContact::ObstacleContact(std::vector<Point> points,
                                 std::vector<contact::Obstacle> obstacles,
                                 const contact::ContactParameters& parameters)
    : points_(std::move(points)), obstacles_(std::move(obstacles)), parameters_(parameters) {
  for (std::size_t i = 0; i < points_.size(); ++i) {
    if (!points_[i].rest.allFinite() || !(points_[i].area > 0.0) || points_[i].node < 0) {
      throw std::invalid_argument("contact point " + std::to_string(i) +
                                  ": needs a node, a finite position and a positive area");
    }
  }
  for (const contact::Obstacle& obstacle : obstacles_) contact::check_obstacle(obstacle);
  if (!(parameters_.activation > 0.0) || !(parameters_.stiffness > 0.0) ||
      !(parameters_.keep > 0.0 && parameters_.keep < 1.0)) {
    throw std::invalid_argument("contact: dhat and stiffness must be positive, keep in (0, 1)");
  }
  blocks_.resize(points_.size(), {0, Eigen::Matrix3d::Zero()});
  for (std::size_t i = 0; i < points_.size(); ++i) blocks_[i].first = points_[i].node;
}

void ObstacleContact::begin_step(const sim::ReducedMatrix& U_before, const sim::ReducedMatrix& U_n,
                                 double timestep) {
  friction_.clear();
  static_slip_ = parameters_.slip * timestep;
  const double dhat = parameters_.activation;
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const Eigen::Vector3d before = position(points_[i], U_before);
    const Eigen::Vector3d x = position(points_[i], U_n);
    for (const contact::Obstacle& obstacle : obstacles_) {
      const double mu = obstacle.friction >= 0.0 ? obstacle.friction : parameters_.friction;
      if (!(mu > 0.0)) continue;
      // Sliding along a moving obstacle is measured against the obstacle: the point as it was
      // before the obstacles moved, carried with this one's motion. Along a still one, from
      // where the point starts the step (a push is an impulse, not a slide).
      const bool moved = obstacle.offset != obstacle.start_offset;
      const Eigen::Vector3d start =
          moved ? Eigen::Vector3d(before + obstacle.offset - obstacle.start_offset) : x;
      const contact::ObstacleDistance d =
          contact::obstacle_distance(obstacle, start, points_[i].skin);
      if (d.distance >= dhat) continue;
      friction_.push_back({i, contact::tangent_basis(d.direction), start,
                           mu * parameters_.stiffness * points_[i].area *
                               std::abs(contact::barrier_derivative(d.distance, dhat))});
    }
  }
}

void ObstacleContact::linearize(const sim::ReducedMatrix& U, sim::ReducedMatrix& gradient) {
  gradient.setZero(U.rows(), 3);
  const double dhat = parameters_.activation, kappa = parameters_.stiffness;
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const Point& p = points_[i];
    Eigen::Matrix3d& block = blocks_[i].second;
    block.setZero();
    const Eigen::Vector3d x = position(p, U);
    for (const contact::Obstacle& obstacle : obstacles_) {
      const contact::ObstacleDistance d = contact::obstacle_distance(obstacle, x, p.skin);
      if (d.distance >= dhat) continue;
      const double weight = kappa * p.area;
      gradient.row(p.node) +=
          weight * contact::barrier_derivative(d.distance, dhat) * d.direction.transpose();
      block += weight * contact::barrier_second_derivative(d.distance, dhat) * d.direction *
               d.direction.transpose();
    }
  }
  for (const FrictionPair& f : friction_) {
    const Eigen::Vector2d v = slip(f, U);
    const int node = points_[f.point].node;
    gradient.row(node) +=
        f.weight * (f.tangent * contact::friction_gradient(v, static_slip_)).transpose();
    blocks_[f.point].second +=
        f.weight * f.tangent * contact::friction_hessian(v, static_slip_) * f.tangent.transpose();
  }
}

double ObstacleContact::curvature(const sim::ReducedMatrix& dU) const {
  double sum = 0.0;
  for (const auto& [node, block] : blocks_) {
    const Eigen::Vector3d du = dU.row(node).transpose();
    sum += du.dot(block * du);
  }
  return sum;
}

double ObstacleContact::max_step(const sim::ReducedMatrix& U, const sim::ReducedMatrix& dU) {
  double alpha = 1.0;
  for (const Point& p : points_) {
    const Eigen::Vector3d x = position(p, U);
    const Eigen::Vector3d dx = dU.row(p.node).transpose();
    for (const contact::Obstacle& obstacle : obstacles_) {
      alpha = std::min(alpha, contact::obstacle_time_of_impact(obstacle, x, dx, parameters_.keep,
                                                               parameters_.activation, p.skin));
    }
  }
  return alpha;
}

sim::ReducedMatrix ObstacleContact::limit_each(const sim::ReducedMatrix& U,
                                               const sim::ReducedMatrix& dU) const {
  Eigen::VectorXd scale = Eigen::VectorXd::Ones(dU.rows());
  for (const Point& p : points_) {
    const Eigen::Vector3d x = position(p, U);
    const Eigen::Vector3d dx = dU.row(p.node).transpose();
    for (const contact::Obstacle& obstacle : obstacles_) {
      scale(p.node) = std::min(scale(p.node),
                               contact::obstacle_time_of_impact(obstacle, x, dx, parameters_.keep,
                                                                parameters_.activation, p.skin));
    }
  }
  return scale.asDiagonal() * dU;
}

double ObstacleContact::energy_along(double /*alpha*/, const sim::ReducedMatrix& U_trial) {
  return energy(U_trial) + friction_energy(U_trial);
}

double ObstacleContact::friction_energy(const sim::ReducedMatrix& U) const {
  double sum = 0.0;
  for (const FrictionPair& f : friction_) {
    sum += f.weight * contact::friction_f0(slip(f, U).norm(), static_slip_);
  }
  return sum;
}

double ObstacleContact::energy(const sim::ReducedMatrix& U) const {
  const double dhat = parameters_.activation;
  double sum = 0.0;
  for (const Point& p : points_) {
    const Eigen::Vector3d x = position(p, U);
    for (const contact::Obstacle& obstacle : obstacles_) {
      const double d = contact::obstacle_distance(obstacle, x, p.skin).distance;
      if (d < dhat) sum += p.area * contact::barrier(d, dhat);
    }
  }
  return parameters_.stiffness * sum;
}

std::pair<double, int> ObstacleContact::closest(const sim::ReducedMatrix& U) const {
  double closest = std::numeric_limits<double>::infinity();
  int active = 0;
  for (const Point& p : points_) {
    const Eigen::Vector3d x = position(p, U);
    for (const contact::Obstacle& obstacle : obstacles_) {
      const double d = contact::obstacle_distance(obstacle, x, p.skin).distance;
      closest = std::min(closest, d);
      active += d < parameters_.activation ? 1 : 0;
    }
  }
  return {closest, active};
}

std::vector<Eigen::Vector3d> ObstacleContact::obstacle_forces(const sim::ReducedMatrix& U) const {
  std::vector<Eigen::Vector3d> forces = push_forces_;
  forces.resize(obstacles_.size(), Eigen::Vector3d::Zero());
  for (const Point& p : points_) {
    const Eigen::Vector3d x = position(p, U);
    for (std::size_t o = 0; o < obstacles_.size(); ++o) {
      forces[o] += contact::obstacle_reaction(obstacles_[o], x, parameters_.stiffness * p.area,
                                              parameters_.activation, p.skin);
    }
  }
  return forces;
}

double ObstacleContact::held_reach(const contact::Obstacle& obstacle, const Point& p,
                                   const Eigen::Vector3d& x, const Eigen::Vector3d& motion) const {
  const double floor = parameters_.keep * parameters_.activation;
  const double distance = contact::obstacle_distance(obstacle, x, p.skin).distance;
  if (distance <= floor) return 0.0;
  // keep * max(distance, dhat) as a fraction of the distance: below 1, as distance > floor.
  return contact::obstacle_time_of_impact(
      obstacle, x, -motion, parameters_.keep * std::max(1.0, parameters_.activation / distance),
      contact::kNoReach, p.skin);
}

bool ObstacleContact::obstacles_move() const {
  return std::any_of(obstacles_.begin(), obstacles_.end(),
                     [](const contact::Obstacle& o) { return !o.path.times.empty(); });
}

int ObstacleContact::advance_obstacles(sim::ReducedMatrix& U, sim::ReducedMatrix& Udot,
                                       double end_time, double timestep,
                                       const std::vector<char>& fixed,
                                       const Eigen::VectorXd& node_mass) {
  int pushed = 0;
  push_forces_.assign(obstacles_.size(), Eigen::Vector3d::Zero());
  std::vector<double> reach(points_.size());
  for (std::size_t o = 0; o < obstacles_.size(); ++o) {
    contact::Obstacle& obstacle = obstacles_[o];
    obstacle.start_offset = obstacle.offset;
    if (obstacle.path.times.empty()) continue;
    const Eigen::Vector3d motion = obstacle.path.offset_at(end_time) - obstacle.offset;
    if (motion.isZero(0.0)) continue;
    // reach[i]: the fraction of the motion point i lets the obstacle make unpushed (the point
    // sees it come at it). The obstacle goes as far as the points that cannot be pushed let it.
    double alpha = 1.0;
    for (std::size_t i = 0; i < points_.size(); ++i) {
      const Eigen::Vector3d x = position(points_[i], U);
      reach[i] = contact::obstacle_time_of_impact(obstacle, x, -motion, parameters_.keep,
                                                  contact::kNoReach, points_[i].skin);
      // A pinned point holds it whether or not it comes within a tenth of its distance (a slow
      // obstacle within dhat would otherwise creep closer step by step).
      bool held = fixed[static_cast<std::size_t>(points_[i].node)] != 0;
      if (!held && reach[i] >= 1.0) continue;
      for (std::size_t other = 0; other < obstacles_.size() && !held; ++other) {
        held = other != o && contact::obstacle_time_of_impact(
                                 obstacles_[other], x, (1.0 - reach[i]) * motion, parameters_.keep,
                                 contact::kNoReach, points_[i].skin) < 1.0;
      }
      // Nothing pushes a held point away, so the obstacle stops at a tenth (keep) of dhat from
      // it, not a tenth of its distance each step, which would take it to rounding's distance.
      if (held) alpha = std::min(alpha, held_reach(obstacle, points_[i], x, motion));
    }
    obstacle.offset += alpha * motion;
    // The rest of the way a point could not let it come, the point goes along: relative to the
    // obstacle it then moves by -reach[i] motion, which CCD keeps clear (a shorter push, of the
    // same direction, than the one checked against the other obstacles).
    // Its velocity towards the point then at least the obstacle's (an inelastic push along the
    // contact's normal: a point struck obliquely keeps its slide along the surface).
    const Eigen::Vector3d velocity = alpha * motion / timestep;
    for (std::size_t i = 0; i < points_.size(); ++i) {
      if (reach[i] >= alpha) continue;
      const int node = points_[i].node;
      U.row(node) += ((alpha - reach[i]) * motion).transpose();
      const Eigen::Vector3d normal =
          contact::obstacle_distance(obstacle, position(points_[i], U), points_[i].skin).direction;
      const double behind = velocity.dot(normal) - Udot.row(node).dot(normal);
      if (behind > 0.0) {
        Udot.row(node) += (behind * normal).transpose();
        push_forces_[o] -= node_mass(node) * behind / timestep * normal;
      }
      ++pushed;
    }
  }
  return pushed;
}

void ObstacleContact::hold_obstacle(std::size_t o, const Eigen::Vector3d& offset) {
  contact::hold_by_hand(obstacles_, o, offset);
}

}  // namespace smfem::full
