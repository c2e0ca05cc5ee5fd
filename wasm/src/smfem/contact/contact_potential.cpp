#include "smfem/contact/contact_potential.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <Eigen/Geometry>

#include "smfem/contact/barrier.hpp"
#include "smfem/contact/ccd.hpp"
#include "smfem/contact/friction.hpp"
#include "smfem/geometry/point_triangle.hpp"

namespace smfem::contact {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

Eigen::AlignedBox3d grown_box(const Eigen::Vector3d& a, const Eigen::Vector3d& b, double margin) {
  Eigen::AlignedBox3d box(a.cwiseMin(b), a.cwiseMax(b));
  box.min().array() -= margin;
  box.max().array() += margin;
  return box;
}

double box_distance(const Eigen::AlignedBox3d& box, const Eigen::Vector3d& x) {
  return (x - x.cwiseMax(box.min()).cwiseMin(box.max())).norm();
}

// Barycentric coordinates of a point y of triangle (a, b, c).
Eigen::Vector3d barycentric(const Eigen::Vector3d& y, const Eigen::Vector3d& a,
                            const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  const Eigen::Vector3d e0 = b - a, e1 = c - a, v = y - a;
  const double d00 = e0.dot(e0), d01 = e0.dot(e1), d11 = e1.dot(e1);
  const double det = d00 * d11 - d01 * d01;
  if (!(det > 1e-30 * d00 * d11)) return Eigen::Vector3d(1.0, 0.0, 0.0);
  const double beta1 = (d11 * v.dot(e0) - d01 * v.dot(e1)) / det;
  const double beta2 = (d00 * v.dot(e1) - d01 * v.dot(e0)) / det;
  return Eigen::Vector3d(1.0 - beta1 - beta2, beta1, beta2);
}

// A unit tangent basis of the plane normal to n (3 x 2).
Eigen::Matrix<double, 3, 2> tangent_basis(const Eigen::Vector3d& n) {
  const Eigen::Vector3d helper =
      std::abs(n.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  Eigen::Matrix<double, 3, 2> basis;
  basis.col(0) = n.cross(helper).normalized();
  basis.col(1) = n.cross(basis.col(0));
  return basis;
}

Eigen::Vector3d unit_or_up(const Eigen::Vector3d& v, double length) {
  return length > 0.0 ? Eigen::Vector3d(v / length) : Eigen::Vector3d::UnitY();
}

}  // namespace

ContactPotential::ContactPotential(const ContactSurface& surface,
                                   std::vector<Eigen::Vector3d> offsets)
    : surface_(surface), offsets_(std::move(offsets)), basis_(surface_basis(surface)) {
  const int parts = surface.part.size() > 0 ? surface.part.maxCoeff() + 1 : 1;
  if (static_cast<int>(offsets_.size()) != parts) {
    throw std::invalid_argument("contact: " + std::to_string(offsets_.size()) +
                                " offsets for " + std::to_string(parts) + " parts");
  }
  const Eigen::Index n = 12 * surface.weights.cols();
  hessian_.setZero(n, n);
}

void ContactPotential::set_environment(const std::vector<Obstacle>* obstacles,
                                       const ContactParameters& parameters, double timestep) {
  obstacles_ = obstacles;
  parameters_ = parameters;
  timestep_ = timestep;
  candidates_.clear();
}

Eigen::Vector3d ContactPotential::vertex(int v, const ReducedMatrix& U) const {
  return offsets_[static_cast<std::size_t>(part(v))] + surface_.positions.row(v).transpose() +
         U.transpose() * basis_.row(v).transpose();
}

Eigen::Vector3d ContactPotential::motion(int v, const ReducedMatrix& dU) const {
  return dU.transpose() * basis_.row(v).transpose();
}

void ContactPotential::surface_positions(const ReducedMatrix& U, SurfacePositions& out) const {
  out.noalias() = basis_ * U;
  out += surface_.positions;
  for (Eigen::Index v = 0; v < out.rows(); ++v) {
    out.row(v) += offsets_[static_cast<std::size_t>(part(static_cast<int>(v)))].transpose();
  }
}

geometry::AabbTree ContactPotential::triangle_tree(const ReducedMatrix& U, const ReducedMatrix* dU,
                                                   double margin) const {
  std::vector<Eigen::AlignedBox3d> boxes(static_cast<std::size_t>(surface_.triangles.rows()));
  for (Eigen::Index t = 0; t < surface_.triangles.rows(); ++t) {
    Eigen::AlignedBox3d box;
    for (int c = 0; c < 3; ++c) {
      const int v = surface_.triangles(t, c);
      const Eigen::Vector3d x0 = vertex(v, U);
      box.extend(grown_box(x0, dU != nullptr ? Eigen::Vector3d(x0 + motion(v, *dU)) : x0, margin));
    }
    boxes[static_cast<std::size_t>(t)] = box;
  }
  return geometry::AabbTree(boxes);
}

void ContactPotential::gather(const ReducedMatrix& U, const ReducedMatrix& dU, double margin,
                              std::vector<Pair>& pairs) {
  pairs.clear();
  const Eigen::Index n = surface_.samples.size();
  const bool several_parts = surface_.part.size() > 0 && surface_.part.maxCoeff() > 0;
  // Between bodies: this model's triangles, swept, against its samples', swept.
  const geometry::AabbTree tree =
      several_parts ? triangle_tree(U, &dU, margin) : geometry::AabbTree({});
  for (Eigen::Index k = 0; k < n; ++k) {
    const int v = surface_.samples(k);
    const Eigen::Vector3d x0 = vertex(v, U);
    const Eigen::Vector3d dx = motion(v, dU);
    const double reach = dx.norm() + margin;
    if (obstacles_ != nullptr) {
      for (std::size_t o = 0; o < obstacles_->size(); ++o) {
        if (obstacle_distance((*obstacles_)[o], x0).distance < reach) {
          pairs.push_back({static_cast<int>(k), static_cast<int>(o), -1});
        }
      }
    }
    if (!several_parts) continue;
    const Eigen::AlignedBox3d swept = grown_box(x0, x0 + dx, 0.0);
    tree.for_each_overlapping(
        [&](const Eigen::AlignedBox3d& box) { return box.intersects(swept); },
        [&](int t) {
          if (part(surface_.triangles(t, 0)) != part(v)) {
            pairs.push_back({static_cast<int>(k), -1, t});
          }
        });
  }
}

ContactPotential::PairState ContactPotential::evaluate(const Pair& pair,
                                                       const ReducedMatrix& U) const {
  PairState state;
  const int v = surface_.samples(pair.sample);
  const Eigen::Vector3d x = vertex(v, U);
  state.area = surface_.areas(pair.sample);
  state.basis = basis_.row(v).transpose();
  state.rest = offsets_[static_cast<std::size_t>(part(v))] + surface_.positions.row(v).transpose();
  if (pair.obstacle >= 0) {
    const Obstacle& obstacle = (*obstacles_)[static_cast<std::size_t>(pair.obstacle)];
    const ObstacleDistance d = obstacle_distance(obstacle, x);
    state.distance = d.distance;
    state.direction = d.direction;
    state.friction = obstacle.friction >= 0.0 ? obstacle.friction : parameters_.friction;
    state.other_motion = obstacle.offset - obstacle.start_offset;
    return state;
  }
  Eigen::Vector3d corners[3];
  for (int c = 0; c < 3; ++c) corners[c] = vertex(surface_.triangles(pair.triangle, c), U);
  const Eigen::Vector3d y =
      geometry::closest_point_on_triangle(x, corners[0], corners[1], corners[2]);
  const Eigen::Vector3d beta = barycentric(y, corners[0], corners[1], corners[2]);
  for (int c = 0; c < 3; ++c) {
    const int w = surface_.triangles(pair.triangle, c);
    state.basis -= beta(c) * basis_.row(w).transpose();
    state.rest -= beta(c) * (offsets_[static_cast<std::size_t>(part(w))] +
                             surface_.positions.row(w).transpose());
  }
  const Eigen::Vector3d away = x - y;
  state.distance = away.norm();
  state.direction = unit_or_up(away, state.distance);
  state.friction = parameters_.friction;
  return state;
}

void ContactPotential::begin_step(const ReducedMatrix& U_n) {
  friction_.clear();
  gather(U_n, ReducedMatrix::Zero(U_n.rows(), 3), parameters_.activation, scratch_);
  for (const Pair& pair : scratch_) {
    const PairState state = evaluate(pair, U_n);
    if (!(state.distance < parameters_.activation) || state.friction <= 0.0) continue;
    FrictionPair f;
    f.basis = state.basis;
    f.rest = state.rest;
    // The relative position at the start, moved back by the obstacle's own step: sliding along
    // a moving obstacle's surface is measured against the obstacle.
    f.reference = state.rest + U_n.transpose() * state.basis + state.other_motion;
    f.tangent = tangent_basis(state.direction);
    f.weight = state.friction * parameters_.stiffness * state.area *
               std::abs(barrier_derivative(state.distance, parameters_.activation));
    friction_.push_back(std::move(f));
  }
}

double ContactPotential::max_step(const ReducedMatrix& U, const ReducedMatrix& dU) {
  gather(U, dU, parameters_.activation, candidates_);
  const double keep = parameters_.keep;
  double alpha = 1.0;
  for (const Pair& pair : candidates_) {
    const int v = surface_.samples(pair.sample);
    if (pair.obstacle >= 0) {
      alpha = std::min(alpha,
                       obstacle_time_of_impact((*obstacles_)[static_cast<std::size_t>(pair.obstacle)],
                                               vertex(v, U), motion(v, dU), keep));
      continue;
    }
    // The distance moves at most as fast as the sample relative to the triangle's points, which
    // move as convex combinations of the corners: max_j |dx_s - dx_j| bounds it.
    const Eigen::Vector3d sample_motion = motion(v, dU);
    double speed = 0.0;
    for (int c = 0; c < 3; ++c) {
      speed = std::max(speed,
                       (sample_motion - motion(surface_.triangles(pair.triangle, c), dU)).norm());
    }
    // Only the part of the segment not yet ruled out needs checking.
    const double reach = conservative_advancement(
        [&](double a) { return evaluate(pair, U + (a * alpha) * dU).distance; }, speed * alpha,
        keep);
    alpha *= reach;
  }
  return alpha;
}

double ContactPotential::energy(const ReducedMatrix& U) {
  double total = 0.0;
  for (const Pair& pair : candidates_) {
    const PairState state = evaluate(pair, U);
    total += parameters_.stiffness * state.area * barrier(state.distance, parameters_.activation);
  }
  const double eps = parameters_.slip * timestep_;
  for (const FrictionPair& f : friction_) {
    const Eigen::Vector2d slip =
        f.tangent.transpose() * (f.rest + U.transpose() * f.basis - f.reference);
    total += f.weight * friction_f0(slip.norm(), eps);
  }
  return total;
}

void ContactPotential::linearize(const ReducedMatrix& U, ReducedMatrix& gradient) {
  gather(U, ReducedMatrix::Zero(U.rows(), 3), parameters_.activation, candidates_);
  const Eigen::Index n = basis_.cols();
  gradient.setZero(n, 3);
  // Each active term: a basis vector b and a 3 x 3 Hessian S in x; H_de = sum S(d, e) b b^T.
  std::vector<Eigen::VectorXd> bases;
  std::vector<Eigen::Matrix3d> hessians;
  for (const Pair& pair : candidates_) {
    const PairState state = evaluate(pair, U);
    if (!(state.distance < parameters_.activation)) continue;
    const double scale = parameters_.stiffness * state.area;
    const double slope = scale * barrier_derivative(state.distance, parameters_.activation);
    gradient.noalias() += state.basis * (slope * state.direction).transpose();
    bases.push_back(state.basis);
    hessians.push_back(scale * barrier_second_derivative(state.distance, parameters_.activation) *
                       state.direction * state.direction.transpose());
  }
  const double eps = parameters_.slip * timestep_;
  for (const FrictionPair& f : friction_) {
    const Eigen::Vector2d slip =
        f.tangent.transpose() * (f.rest + U.transpose() * f.basis - f.reference);
    gradient.noalias() +=
        f.basis * (f.weight * f.tangent * friction_gradient(slip, eps)).transpose();
    bases.push_back(f.basis);
    hessians.push_back(f.weight * f.tangent * friction_hessian(slip, eps) *
                       f.tangent.transpose());
  }
  hessian_.setZero();
  if (bases.empty()) return;
  const auto K = static_cast<Eigen::Index>(bases.size());
  Eigen::MatrixXd G(K, n);
  for (Eigen::Index k = 0; k < K; ++k) G.row(k) = bases[static_cast<std::size_t>(k)].transpose();
  Eigen::VectorXd weight(K);
  for (int d = 0; d < 3; ++d) {
    for (int e = d; e < 3; ++e) {
      for (Eigen::Index k = 0; k < K; ++k) weight(k) = hessians[static_cast<std::size_t>(k)](d, e);
      hessian_.block(d * n, e * n, n, n).noalias() = G.transpose() * weight.asDiagonal() * G;
      if (e != d) {
        hessian_.block(e * n, d * n, n, n) = hessian_.block(d * n, e * n, n, n).transpose();
      }
    }
  }
}

void ContactPotential::add_hessian_to_lower(Eigen::MatrixXd& lower) const {
  lower.triangularView<Eigen::Lower>() += hessian_;
}

double ContactPotential::curvature(const ReducedMatrix& dU) const {
  const Eigen::Map<const Eigen::VectorXd> u(dU.data(), dU.size());
  return u.dot(hessian_ * u);
}

double ContactPotential::potential_energy(const ReducedMatrix& U) {
  gather(U, ReducedMatrix::Zero(U.rows(), 3), parameters_.activation, scratch_);
  double total = 0.0;
  for (const Pair& pair : scratch_) {
    const PairState state = evaluate(pair, U);
    total += parameters_.stiffness * state.area * barrier(state.distance, parameters_.activation);
  }
  return total;
}

ContactMeasure ContactPotential::measure(const ReducedMatrix& U) {
  ContactMeasure result;
  result.min_distance = kInfinity;
  const bool several_parts = surface_.part.size() > 0 && surface_.part.maxCoeff() > 0;
  const geometry::AabbTree tree =
      several_parts ? triangle_tree(U, nullptr, 0.0) : geometry::AabbTree({});
  const auto count = [&](double d) {
    result.min_distance = std::min(result.min_distance, d);
    if (d < parameters_.activation) ++result.active;
  };
  for (Eigen::Index k = 0; k < surface_.samples.size(); ++k) {
    const int v = surface_.samples(k);
    const Eigen::Vector3d x = vertex(v, U);
    if (obstacles_ != nullptr) {
      for (const Obstacle& obstacle : *obstacles_) count(obstacle_distance(obstacle, x).distance);
    }
    if (!several_parts) continue;
    const auto triangle_distance = [&](int t) {
      if (part(surface_.triangles(t, 0)) == part(v)) return kInfinity;
      const Eigen::Vector3d y = geometry::closest_point_on_triangle(
          x, vertex(surface_.triangles(t, 0), U), vertex(surface_.triangles(t, 1), U),
          vertex(surface_.triangles(t, 2), U));
      return (x - y).norm();
    };
    // The nearest triangle of another body, and every other active one.
    const double nearest = tree.minimize(
        [&](const Eigen::AlignedBox3d& box) { return box_distance(box, x); }, triangle_distance);
    count(nearest);
    if (!(nearest < parameters_.activation)) continue;
    const Eigen::AlignedBox3d near = grown_box(x, x, parameters_.activation);
    int active_here = 0;
    tree.for_each_overlapping(
        [&](const Eigen::AlignedBox3d& box) { return box.intersects(near); },
        [&](int t) { active_here += triangle_distance(t) < parameters_.activation ? 1 : 0; });
    result.active += active_here - 1;  // count() took the nearest
  }
  return result;
}

}  // namespace smfem::contact
