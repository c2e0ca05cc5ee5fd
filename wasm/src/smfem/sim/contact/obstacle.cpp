#include "smfem/sim/contact/obstacle.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "smfem/sim/contact/barrier.hpp"
#include "smfem/sim/contact/ccd.hpp"
#include "smfem/sim/contact/friction.hpp"

namespace smfem::contact {
namespace {

// The unit vector along v, or `fallback` where v is (nearly) zero.
Eigen::Vector3d unit_or(const Eigen::Vector3d& v, const Eigen::Vector3d& fallback) {
  const double length = v.norm();
  return length > 0.0 ? Eigen::Vector3d(v / length) : fallback;
}

ObstacleDistance from_point(const Eigen::Vector3d& x, const Eigen::Vector3d& nearest, double radius,
                            const Eigen::Vector3d& fallback) {
  const Eigen::Vector3d away = x - nearest;
  return {std::max(away.norm() - radius, 0.0), unit_or(away, fallback)};
}

Eigen::Vector3d nearest_on_segment(const Eigen::Vector3d& x, const Eigen::Vector3d& a,
                                   const Eigen::Vector3d& b) {
  const Eigen::Vector3d ab = b - a;
  const double length_squared = ab.squaredNorm();
  const double t =
      length_squared > 0.0 ? std::clamp((x - a).dot(ab) / length_squared, 0.0, 1.0) : 0.0;
  return a + t * ab;
}

}  // namespace

std::string_view obstacle_kind_name(ObstacleKind kind) {
  switch (kind) {
    case ObstacleKind::plane:
      return "plane";
    case ObstacleKind::sphere:
      return "sphere";
    case ObstacleKind::box:
      return "box";
    case ObstacleKind::capsule:
      return "capsule";
  }
  return "plane";
}

std::optional<ObstacleKind> obstacle_kind_from_name(std::string_view name) {
  for (const ObstacleKind kind :
       {ObstacleKind::plane, ObstacleKind::sphere, ObstacleKind::box, ObstacleKind::capsule}) {
    if (obstacle_kind_name(kind) == name) return kind;
  }
  return std::nullopt;
}

Eigen::Vector3d ObstaclePath::offset_at(double time) const {
  if (times.empty()) return Eigen::Vector3d::Zero();
  if (time <= times.front()) return offsets.front();
  if (time >= times.back()) return offsets.back();
  const auto after = std::upper_bound(times.begin(), times.end(), time);
  const auto i = static_cast<std::size_t>(after - times.begin());
  const double t = (time - times[i - 1]) / (times[i] - times[i - 1]);
  return (1.0 - t) * offsets[i - 1] + t * offsets[i];
}

ObstacleDistance obstacle_distance(const Obstacle& obstacle, const Eigen::Vector3d& x_world,
                                   double skin) {
  const Eigen::Vector3d x = x_world - obstacle.offset;
  switch (obstacle.kind) {
    case ObstacleKind::plane: {
      return {obstacle.normal.dot(x - obstacle.point) - skin, obstacle.normal};
    }
    case ObstacleKind::sphere:
      return from_point(x, obstacle.point, obstacle.radius + skin, Eigen::Vector3d::UnitY());
    case ObstacleKind::capsule:
      return from_point(x, nearest_on_segment(x, obstacle.point, obstacle.end),
                        obstacle.radius + skin, Eigen::Vector3d::UnitY());
    case ObstacleKind::box: {
      const Eigen::Vector3d local = x - obstacle.point;
      const Eigen::Vector3d nearest =
          local.cwiseMax(-obstacle.half_extents).cwiseMin(obstacle.half_extents);
      return from_point(local, nearest, skin, Eigen::Vector3d::UnitY());
    }
  }
  return {};
}

Eigen::Vector3d obstacle_reaction(const Obstacle& obstacle, const Eigen::Vector3d& x, double weight,
                                  double dhat, double skin) {
  const ObstacleDistance d = obstacle_distance(obstacle, x, skin);
  return weight * barrier_derivative(d.distance, dhat) * d.direction;
}

double clearance_from_plane(const Obstacle& plane, const Obstacle& shape) {
  const Eigen::Vector3d& n = plane.normal;
  const Eigen::Vector3d origin = plane.point + plane.offset;
  const double at_point = n.dot(shape.point + shape.offset - origin);
  switch (shape.kind) {
    case ObstacleKind::plane:
      return std::numeric_limits<double>::infinity();
    case ObstacleKind::sphere:
      return at_point - shape.radius;
    case ObstacleKind::capsule:
      return std::min(at_point, n.dot(shape.end + shape.offset - origin)) - shape.radius;
    case ObstacleKind::box:
      return at_point - n.cwiseAbs().dot(shape.half_extents);
  }
  return std::numeric_limits<double>::infinity();
}

void hold_by_hand(std::vector<Obstacle>& obstacles, std::size_t o, const Eigen::Vector3d& offset) {
  const std::string name = "obstacle " + std::to_string(o);
  if (o >= obstacles.size()) {
    throw std::invalid_argument(name + ": there are " + std::to_string(obstacles.size()));
  }
  if (obstacles[o].kind == ObstacleKind::plane) {
    throw std::invalid_argument(name + " is a plane, which is not moved by hand");
  }
  if (!offset.allFinite() || !(offset.cwiseAbs().maxCoeff() <= kMaxCoordinate)) {
    throw std::invalid_argument(name + ": its offset must be finite and within " +
                                std::to_string(int(kMaxCoordinate)) + " m");
  }
  Obstacle moved = obstacles[o];
  moved.offset = offset;
  for (const Obstacle& plane : obstacles) {
    if (plane.kind != ObstacleKind::plane) continue;
    moved.offset += std::max(0.0, -clearance_from_plane(plane, moved)) * plane.normal;
  }
  obstacles[o].path = ObstaclePath{{0.0}, {moved.offset}};
}

double obstacle_time_of_impact(const Obstacle& obstacle, const Eigen::Vector3d& x,
                               const Eigen::Vector3d& dx, double keep, double reach, double skin) {
  const ObstacleDistance start = obstacle_distance(obstacle, x, skin);
  if (!(start.distance > 0.0)) return 0.0;
  const double target = ccd_target(start.distance, keep, reach);
  switch (obstacle.kind) {
    case ObstacleKind::plane: {
      // The distance changes linearly, at the rate direction . dx.
      const double rate = start.direction.dot(dx);
      if (rate >= 0.0) return 1.0;
      return std::min(1.0, (start.distance - target) / -rate);
    }
    case ObstacleKind::sphere: {
      // |x + a dx - c| = radius + target: the first root of a quadratic in a.
      const Eigen::Vector3d from_center = x - obstacle.offset - obstacle.point;
      const double touch = obstacle.radius + skin + target;
      const double a = dx.squaredNorm();
      const double b = from_center.dot(dx);
      const double c = from_center.squaredNorm() - touch * touch;
      const double discriminant = b * b - a * c;
      if (a == 0.0 || b >= 0.0 || discriminant < 0.0) return 1.0;
      // The smaller root, written to avoid cancellation (b < 0, c > 0).
      const double root = c / (-b + std::sqrt(discriminant));
      return std::min(1.0, std::max(root, 0.0));
    }
    case ObstacleKind::box:
    case ObstacleKind::capsule:
      break;
  }
  // Both convex; outside them the distance's gradient is the unit direction from the nearest point.
  return convex_advancement(
      [&](double alpha) {
        const ObstacleDistance d = obstacle_distance(obstacle, x + alpha * dx, skin);
        return std::pair{d.distance, d.direction.dot(dx)};
      },
      keep, reach);
}

void check_obstacle(const Obstacle& o) {
  const std::string kind(obstacle_kind_name(o.kind));
  const auto fail = [&](const std::string& problem) {
    throw std::invalid_argument("obstacle (" + kind + "): " + problem);
  };
  if (!o.point.allFinite() || !o.normal.allFinite() || !o.half_extents.allFinite() ||
      !o.end.allFinite() || !std::isfinite(o.radius) || !o.offset.allFinite()) {
    fail("values must be finite");
  }
  if (o.kind == ObstacleKind::plane && std::abs(o.normal.norm() - 1.0) > 1e-9) {
    fail("the normal must be a unit vector");
  }
  if ((o.kind == ObstacleKind::sphere || o.kind == ObstacleKind::capsule) && !(o.radius > 0.0)) {
    fail("the radius must be positive");
  }
  if (o.kind == ObstacleKind::box && !(o.half_extents.minCoeff() > 0.0)) {
    fail("the half extents must be positive");
  }
  if (std::isnan(o.friction) || o.friction > kMaxFriction) {
    fail("friction must be a number at most " + std::to_string(int(kMaxFriction)));
  }
  if (o.path.times.size() != o.path.offsets.size()) fail("path times and offsets differ in count");
  for (std::size_t i = 0; i < o.path.times.size(); ++i) {
    if (!std::isfinite(o.path.times[i]) || !o.path.offsets[i].allFinite()) {
      fail("path values must be finite");
    }
    if (i > 0 && !(o.path.times[i] > o.path.times[i - 1])) fail("path times must increase");
  }
}

}  // namespace smfem::contact
