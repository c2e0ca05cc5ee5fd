#include "smfem/multibody/obstacle_push.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include <Eigen/Geometry>

namespace smfem::multibody {
namespace {

// Relative rounding of a translation's parts.
constexpr double kRounding = 1e-12;

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

// The bodies a push of `translation` moves together (obstacle_push.hpp): the struck body and,
// in turn, every body whose box comes within dhat of a mover's swept box. They move rigidly
// together, so none comes nearer another.
struct GroupPush {
  std::vector<int> bodies;
  Eigen::Vector3d translation;
  std::vector<Eigen::Vector3d> planes;  // the normals of the planes it slides along
};

Eigen::AlignedBox3d swept_box(const Eigen::AlignedBox3d& box, const Eigen::Vector3d& translation,
                              double activation) {
  Eigen::AlignedBox3d swept = box;
  swept.extend(swept.min() + translation).extend(swept.max() + translation);
  swept.min().array() -= activation;
  swept.max().array() += activation;
  return swept;
}

// The bodies a push of `translation` from body b carries along (b first).
std::vector<int> carried(const std::vector<PushCandidate>& bodies, std::size_t b,
                         const Eigen::Vector3d& translation, double activation) {
  std::vector<int> group{static_cast<int>(b)};
  std::vector<char> in(bodies.size(), 0);
  in[b] = 1;
  for (std::size_t next = 0; next < group.size(); ++next) {
    const Eigen::AlignedBox3d swept =
        swept_box(bodies[static_cast<std::size_t>(group[next])].box, translation, activation);
    for (std::size_t other = 0; other < bodies.size(); ++other) {
      if (!in[other] && swept.intersects(bodies[other].box)) {
        in[other] = 1;
        group.push_back(static_cast<int>(other));
      }
    }
  }
  return group;
}

// The push body b and the bodies it carries can make by `translation` (along a plane one of them
// would go into, the part along it), or nothing where one of them cannot translate or another
// obstacle stands in the way.
std::optional<GroupPush> clear_push(const std::vector<contact::Obstacle>& obstacles, std::size_t o,
                                    const std::vector<PushCandidate>& bodies, std::size_t b,
                                    const Eigen::Vector3d& translation, double activation) {
  GroupPush push{{}, translation, {}};
  // A push may bring a body as near another obstacle as dhat, and none of it nearer where it
  // is nearer already (resting on the floor, against a wall): pushed by a tenth of its distance
  // at each step, as CCD allows the solver, a box crept into a wall until the obstacle behind
  // crushed it.
  const auto blocked_by = [&](const contact::Obstacle& other, int body) {
    return approach(other, bodies[static_cast<std::size_t>(body)], push.translation, 1.0,
                    activation)
               .reach < 1.0;
  };
  // Sliding along a plane shortens the push, which may leave a body behind: the group is found
  // again until no plane shortens it.
  for (std::size_t pass = 0;; ++pass) {
    bool shortened = false;
    push.bodies = carried(bodies, b, push.translation, activation);
    for (const int body : push.bodies) {
      if (!bodies[static_cast<std::size_t>(body)].can_translate) return std::nullopt;
      for (std::size_t other = 0; other < obstacles.size(); ++other) {
        const contact::Obstacle& obstacle = obstacles[other];
        if (other == o || obstacle.kind != contact::ObstacleKind::plane) continue;
        // Into it beyond rounding: a push slid along a tilted plane keeps a part of -1e-17
        // into it, which would shorten it again at every pass.
        const double into = push.translation.dot(obstacle.normal);
        if (into < -kRounding * push.translation.norm() && blocked_by(obstacle, body)) {
          push.translation -= into * obstacle.normal;
          push.planes.push_back(obstacle.normal);
          shortened = true;
        }
      }
    }
    if (push.translation.norm() <= kRounding * translation.norm()) return std::nullopt;
    if (!shortened) break;
    // Planes meeting at an angle shorten it in turn without end: held, as a body in a corner.
    if (pass == obstacles.size()) return std::nullopt;
  }
  for (const int body : push.bodies) {
    for (std::size_t other = 0; other < obstacles.size(); ++other) {
      if (other != o && blocked_by(obstacles[other], body)) return std::nullopt;
    }
  }
  return push;
}

}  // namespace

ObstacleAdvance advance_obstacle(const std::vector<contact::Obstacle>& obstacles, std::size_t o,
                                 const Eigen::Vector3d& motion,
                                 const std::vector<PushCandidate>& bodies, double keep,
                                 double activation, double timestep) {
  const contact::Obstacle& obstacle = obstacles[o];
  ObstacleAdvance out;
  struct Pushing {
    GroupPush group;         // its translation for the whole motion
    Eigen::Vector3d normal;  // the contact's (Approach)
  };
  std::vector<Pushing> pushing;
  std::vector<int> pushed_by(bodies.size(), -1);  // per body: its place in `pushing`, or -1
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    if (pushed_by[b] >= 0) continue;  // carried by a push found before (and checked there)
    const Approach unpushed = approach(obstacle, bodies[b], -motion, keep);
    if (unpushed.reach >= 1.0) continue;
    // Along the contact's normal, by the rest of the motion's part along it: a sphere pressing
    // down into the top of a block on the floor pushes it into the floor (held), not along its
    // own slide (which dragged the block along under it).
    const Eigen::Vector3d& normal = unpushed.normal;
    const double closing = motion.dot(normal);
    std::optional<GroupPush> push =
        closing > 0.0 ? clear_push(obstacles, o, bodies, b,
                                   (1.0 - unpushed.reach) * closing * normal, activation)
                      : std::nullopt;
    // A group that would meet one pushed before is held (the two are not made one push).
    if (push && std::any_of(push->bodies.begin(), push->bodies.end(), [&](int body) {
          return pushed_by[static_cast<std::size_t>(body)] >= 0;
        })) {
      push.reset();
    }
    if (!push) {
      out.alpha = std::min(out.alpha, unpushed.reach);
      continue;
    }
    // Body and obstacle move together, linearly: as far as CCD keeps them apart (all the way
    // where the push takes the body out of the obstacle's way; less where it slides along a
    // plane, or the obstacle also comes at it across the normal). Every member, not only the
    // struck one: the obstacle may also come at a body it carries (one it held back before, or
    // one it reaches later).
    for (const int body : push->bodies) {
      out.alpha = std::min(out.alpha, approach(obstacle, bodies[static_cast<std::size_t>(body)],
                                               push->translation - motion, keep)
                                          .reach);
      pushed_by[static_cast<std::size_t>(body)] = static_cast<int>(pushing.size());
    }
    pushing.push_back({std::move(*push), normal});
  }
  // Each pushed body goes the obstacle's way as far as it goes (a prefix of the checked motion),
  // and as fast along the contact's normal.
  const Eigen::Vector3d velocity = out.alpha * motion / timestep;
  for (const Pushing& p : pushing) {
    const Eigen::Vector3d translation = out.alpha * p.group.translation;
    if (translation.isZero(0.0)) continue;
    for (const int b : p.group.bodies) {
      Push push{b, translation, Eigen::Vector3d::Zero()};
      const double behind = (velocity - bodies[static_cast<std::size_t>(b)].velocity).dot(p.normal);
      if (behind > 0.0) push.velocity = behind * p.normal;
      // Not into the planes it slides along.
      for (const Eigen::Vector3d& plane : p.group.planes) {
        push.velocity -= std::min(0.0, push.velocity.dot(plane)) * plane;
      }
      out.pushes.push_back(push);
    }
  }
  return out;
}

}  // namespace smfem::multibody
