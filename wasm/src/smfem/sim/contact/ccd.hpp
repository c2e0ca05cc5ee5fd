#pragma once
// Continuous collision detection for linear motion by conservative advancement (the additive
// CCD of Li et al. 2021 in its simplest form): a distance d(alpha) that changes at most
// `speed` per unit alpha can be advanced by (d - target) / speed without going below target.
// Every alpha it returns, and every smaller one, keeps d >= target, whatever the shape of d:
// the bound, not the distance function, is what makes it safe.
//
// The target: `keep` times the distance, or times `reach` where that is less. A pair within reach
// (the barrier's dhat) keeps a fraction of its distance, as in IPC; a pair farther away may come
// to keep * reach at once, inside the barrier's range, where the next iteration sees it. Without
// the cap a pair approaching from afar gets a fraction closer per iteration and, at one or two
// iterations per step, never comes within range: the bodies stop short of each other, in the air.
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace smfem::contact {

inline constexpr int kMaxAdvancements = 100;

inline constexpr double kNoReach = std::numeric_limits<double>::infinity();

// The distance a CCD may advance a pair to (see above).
inline double ccd_target(double d0, double keep, double reach) {
  return keep * std::min(d0, reach);
}

// The largest alpha in [0, 1] reached by conservative advancement towards ccd_target.
// distance(alpha) must be the true distance; speed an upper bound of |d'(alpha)|.
template <class Distance>
double conservative_advancement(Distance&& distance, double speed, double keep,
                                double reach = kNoReach) {
  const double d0 = distance(0.0);
  if (!(d0 > 0.0)) return 0.0;
  const double target = ccd_target(d0, keep, reach);
  if (!(speed > 0.0) || speed <= d0 - target) return 1.0;
  double alpha = 0.0;
  double d = d0;
  for (int i = 0; i < kMaxAdvancements; ++i) {
    const double advance = (d - target) / speed;
    // Converged on the target (a contact is coming): close enough, and still safe.
    if (advance <= 1e-9 * (1.0 + alpha)) break;
    alpha = std::min(1.0, alpha + advance);
    if (alpha >= 1.0) return 1.0;
    d = distance(alpha);
    if (speed * (1.0 - alpha) <= d - target) return 1.0;
  }
  return alpha;
}

// The largest alpha in [0, 1] that keeps a point's distance to a convex shape at ccd_target or
// more, by Newton's steps from below. The distance to a convex set is convex along a line, so
// its tangent at any alpha lies below it from there on: the step to where the tangent meets the
// target is safe, and where the distance does not fall (slope >= 0) it never will. Where
// conservative advancement bounds the slope by the whole motion |dx|, a point sliding along the
// shape (slope near 0) was allowed d / |dx| of its step: a body sliding over a box moved a few
// percent of each step, as if braked, friction or none. at(alpha) returns the distance there and
// its derivative in alpha.
template <class DistanceAndSlope>
double convex_advancement(DistanceAndSlope&& at, double keep, double reach = kNoReach) {
  auto [d, slope] = at(0.0);
  if (!(d > 0.0)) return 0.0;
  const double target = ccd_target(d, keep, reach);
  double alpha = 0.0;
  for (int i = 0; i < kMaxAdvancements; ++i) {
    if (!(slope < 0.0)) return 1.0;
    const double advance = (d - target) / -slope;
    if (alpha + advance >= 1.0) return 1.0;
    // Converged on the target (a contact is coming): close enough, and still safe.
    if (!(advance > 1e-9 * (1.0 + alpha))) break;
    alpha += advance;
    std::tie(d, slope) = at(alpha);
  }
  return alpha;
}

// A second safe step for a point p against a triangle (a, b, c), all moving linearly by dp and
// (da, db, dc) over alpha in [0, 1], from the triangle's plane: the triangle translated by its
// corners' mean motion m keeps its plane, so the point's distance to it is at least
// |n . (p - a + alpha (dp - m))|, and the true triangle lies within alpha E of that one, E the
// largest corner deviation from m. So d(alpha) >= |s0| - alpha (approach + E), s0 the signed
// plane distance at the start and approach the rate at which the point nears the plane. For a
// point sliding over a triangle (resting contact, tangential motion) this bound barely shrinks
// while conservative advancement's |d'| <= speed allows steps of only d / speed: a pair resting
// at 1e-5 m under a 5 cm slide stalled the Newton iterations at 2 % of their steps.
// Returns the largest alpha in [0, 1] the bound keeps at or above `target` (0 where the start
// is not above it, or the triangle is degenerate).
inline double plane_bound_step(const Eigen::Vector3d& p, const Eigen::Vector3d& dp,
                               const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                               const Eigen::Vector3d& c, const Eigen::Vector3d& da,
                               const Eigen::Vector3d& db, const Eigen::Vector3d& dc,
                               double target) {
  const Eigen::Vector3d normal = (b - a).cross(c - a);
  const double norm = normal.norm();
  if (!(norm > 0.0)) return 0.0;
  const Eigen::Vector3d n = normal / norm;
  const double s0 = n.dot(p - a);
  const double clearance = std::abs(s0) - target;
  if (!(clearance > 0.0)) return 0.0;
  const Eigen::Vector3d mean = (da + db + dc) / 3.0;
  const double deviation = std::max({(da - mean).norm(), (db - mean).norm(), (dc - mean).norm()});
  const double approach = std::max(0.0, -std::copysign(1.0, s0) * n.dot(dp - mean));
  const double rate = approach + deviation;
  return rate <= clearance ? 1.0 : clearance / rate;
}

}  // namespace smfem::contact
