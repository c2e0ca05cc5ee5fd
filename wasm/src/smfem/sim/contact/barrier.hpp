#pragma once
// The smoothly clamped log barrier of IPC (Li et al. 2020, eq. 6) on an unsigned distance d
// with activation distance dhat, scaled so that its value does not depend on the length unit:
//
//   b(d) = -(d - dhat)^2 ln(d / dhat)   for 0 < d < dhat,   0 for d >= dhat,
//
// C2 at dhat (b, b' and b'' all vanish there), +infinity as d -> 0, convex and decreasing on
// (0, dhat). The contact potential multiplies it by a stiffness and an area
// (contact_potential.hpp).
#include <cmath>
#include <limits>

namespace smfem::contact {

inline double barrier(double d, double dhat) {
  if (d >= dhat) return 0.0;
  if (!(d > 0.0)) return std::numeric_limits<double>::infinity();
  const double gap = d - dhat;
  return -gap * gap * std::log(d / dhat);
}

// db/dd (<= 0).
inline double barrier_derivative(double d, double dhat) {
  if (d >= dhat) return 0.0;
  const double gap = d - dhat;
  return -2.0 * gap * std::log(d / dhat) - gap * gap / d;
}

// d2b/dd2 (>= 0).
inline double barrier_second_derivative(double d, double dhat) {
  if (d >= dhat) return 0.0;
  const double gap = d - dhat;
  return -2.0 * std::log(d / dhat) - 4.0 * gap / d + gap * gap / (d * d);
}

}  // namespace smfem::contact
