#pragma once
// Continuous collision detection for linear motion by conservative advancement (the additive
// CCD of Li et al. 2021 in its simplest form): a distance d(alpha) that changes at most
// `speed` per unit alpha can be advanced by (d - target) / speed without going below target.
// Every alpha it returns, and every smaller one, keeps d >= target, whatever the shape of d:
// the bound, not the distance function, is what makes it safe.
#include <algorithm>

namespace smfem::contact {

inline constexpr int kMaxAdvancements = 100;

// The largest alpha in [0, 1] reached by conservative advancement towards d = keep d(0).
// distance(alpha) must be the true distance; speed an upper bound of |d'(alpha)|.
template <class Distance>
double conservative_advancement(Distance&& distance, double speed, double keep) {
  const double d0 = distance(0.0);
  if (!(d0 > 0.0)) return 0.0;
  const double target = keep * d0;
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
