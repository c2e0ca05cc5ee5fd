#include "smfem/multibody/obstacle_push.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include <Eigen/Geometry>

namespace smfem::multibody {
namespace {

struct Approach {
  double reach = 1.0;  // the fraction of the motion the obstacle may make towards the body
  // The contact's normal (from the obstacle): its normals at the samples it would come too near,
  // weighted by how much of the motion each denies it. One sample's alone was tilted by where it
  // sat: a sphere striking a flat face between samples knocked a cube sideways.
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();
};

// How far the obstacle may come at the body's samples (each sees it come at it: -motion).
// keep, reach: as contact::obstacle_time_of_impact takes them.
Approach approach(const contact::Obstacle& obstacle, const PushCandidate& body,
                  const Eigen::Vector3d& relative_motion, double keep,
                  double reach_limit = contact::kNoReach) {
  Approach out;
  const Eigen::VectorXi& samples = *body.samples;
  for (Eigen::Index k = 0; k < samples.size(); ++k) {
    const Eigen::Vector3d x = body.surface->row(samples(k)).transpose();
    const double reach =
        contact::obstacle_time_of_impact(obstacle, x, relative_motion, keep, reach_limit);
    if (reach >= 1.0) continue;
    out.reach = std::min(out.reach, reach);
    out.normal += (1.0 - reach) * contact::obstacle_distance(obstacle, x).direction;
  }
  out.normal.normalize();  // zero stays zero
  return out;
}

// The push `body` can make by `translation` (along a plane it would go into, the part along
// it), or nothing where another obstacle or body stands in its way. planes: the normals of the
// planes it slides along.
std::optional<Eigen::Vector3d> clear_push(const std::vector<contact::Obstacle>& obstacles,
                                          std::size_t o, const std::vector<PushCandidate>& bodies,
                                          std::size_t b, Eigen::Vector3d translation,
                                          double activation, std::vector<Eigen::Vector3d>& planes) {
  const PushCandidate& body = bodies[b];
  if (!body.can_translate) return std::nullopt;
  // A push may bring the body as near another obstacle as dhat, and none of it nearer where it
  // is nearer already (resting on the floor, against a wall): pushed by a tenth of its distance
  // at each step, as CCD allows the solver, a box crept into a wall until the obstacle behind
  // crushed it.
  const auto blocked_by = [&](const contact::Obstacle& other) {
    return approach(other, body, translation, 1.0, activation).reach < 1.0;
  };
  for (std::size_t other = 0; other < obstacles.size(); ++other) {
    const contact::Obstacle& obstacle = obstacles[other];
    if (other == o || obstacle.kind != contact::ObstacleKind::plane) continue;
    const double into = translation.dot(obstacle.normal);
    if (into < 0.0 && blocked_by(obstacle)) {
      translation -= into * obstacle.normal;
      planes.push_back(obstacle.normal);
    }
  }
  if (translation.isZero(0.0)) return std::nullopt;
  for (std::size_t other = 0; other < obstacles.size(); ++other) {
    if (other != o && blocked_by(obstacles[other])) return std::nullopt;
  }
  // Another body: kept dhat apart from the swept box (a push does not carry a neighbour along).
  Eigen::AlignedBox3d swept = body.box;
  swept.extend(swept.min() + translation).extend(swept.max() + translation);
  swept.min().array() -= activation;
  swept.max().array() += activation;
  for (std::size_t other = 0; other < bodies.size(); ++other) {
    if (other != b && swept.intersects(bodies[other].box)) return std::nullopt;
  }
  return translation;
}

}  // namespace

ObstacleAdvance advance_obstacle(const std::vector<contact::Obstacle>& obstacles, std::size_t o,
                                 const Eigen::Vector3d& motion,
                                 const std::vector<PushCandidate>& bodies, double keep,
                                 double activation, double timestep) {
  const contact::Obstacle& obstacle = obstacles[o];
  ObstacleAdvance out;
  struct Pushing {
    int body;
    Eigen::Vector3d translation;  // for the whole motion
    Eigen::Vector3d normal;       // the contact's (Approach)
    std::vector<Eigen::Vector3d> planes;
  };
  std::vector<Pushing> pushing;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const Approach unpushed = approach(obstacle, bodies[b], -motion, keep);
    if (unpushed.reach >= 1.0) continue;
    // Along the contact's normal, by the rest of the motion's part along it: a sphere pressing
    // down into the top of a block on the floor pushes it into the floor (held), not along its
    // own slide (which dragged the block along under it).
    const Eigen::Vector3d& normal = unpushed.normal;
    const double closing = motion.dot(normal);
    std::vector<Eigen::Vector3d> planes;
    const std::optional<Eigen::Vector3d> push =
        closing > 0.0 ? clear_push(obstacles, o, bodies, b,
                                   (1.0 - unpushed.reach) * closing * normal, activation, planes)
                      : std::nullopt;
    if (!push) {
      out.alpha = std::min(out.alpha, unpushed.reach);
      continue;
    }
    // Body and obstacle move together, linearly: as far as CCD keeps them apart (all the way
    // where the push takes the body out of the obstacle's way; less where it slides along a
    // plane, or the obstacle also comes at it across the normal).
    out.alpha = std::min(out.alpha, approach(obstacle, bodies[b], *push - motion, keep).reach);
    pushing.push_back({static_cast<int>(b), *push, normal, std::move(planes)});
  }
  // Each pushed body goes the obstacle's way as far as it goes (a prefix of the checked motion).
  const Eigen::Vector3d velocity = out.alpha * motion / timestep;
  for (const Pushing& p : pushing) {
    const PushCandidate& body = bodies[static_cast<std::size_t>(p.body)];
    Push push{p.body, out.alpha * p.translation, Eigen::Vector3d::Zero()};
    if (push.translation.isZero(0.0)) continue;
    const double behind = (velocity - body.velocity).dot(p.normal);
    if (behind > 0.0) push.velocity = behind * p.normal;
    // Not into the planes it slides along.
    for (const Eigen::Vector3d& plane : p.planes) {
      push.velocity -= std::min(0.0, push.velocity.dot(plane)) * plane;
    }
    out.pushes.push_back(push);
  }
  return out;
}

}  // namespace smfem::multibody
