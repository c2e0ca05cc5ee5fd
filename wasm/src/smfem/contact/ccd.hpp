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
#include <limits>

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

}  // namespace smfem::contact
