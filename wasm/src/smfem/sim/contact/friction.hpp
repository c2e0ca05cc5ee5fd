#pragma once
// IPC's smoothed Coulomb friction (Li et al. 2020, §5): with a lagged normal force lambda, a
// lagged tangent basis T (3 x 2) and the tangential slip y = |T^T dx| over the step, the
// dissipative potential is mu lambda f0(y), where
//
//   f0(y) = -y^3 / (3 eps^2) + y^2 / eps + eps / 3   for y < eps,   y beyond,
//
// eps = eps_v h the slip below which friction acts as a stiff spring (static friction's
// smoothing). Its derivative f1 = f0' is min(1, 2y/eps - y^2/eps^2): the friction force
// mu lambda f1(y) never exceeds mu lambda, the Coulomb cone. The Hessian in v = T^T dx,
//
//   mu lambda [ f1(y)/y I_2 + (f1'(y) - f1(y)/y) v v^T / y^2 ],
//
// has eigenvalues mu lambda f1/y and mu lambda f1' >= 0: positive semi-definite as it is.
#include <cmath>

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace smfem::contact {

// eps_v's default, m/s. A contact held by static friction under a tangential load of a
// fraction r of mu lambda slips eps (1 - sqrt(1 - r)) a step: it creeps at eps_v (1 - sqrt(1 -
// r)), never faster than eps_v (0.68 eps_v at r = 0.9; a body at rest on level ground, r near 0,
// hardly at all, and sleeping stops it). IPC's 1e-3 m/s assumes Newton run to convergence: at
// the page's 1-2 iterations its static zone (16 um a step at h = 16 ms) was narrower than a
// settled soft body's wobble, so the exact Newton step was refused at every iteration and many
// resting steps were retried (a jelly cube at rest: 38 of 90 steps). Measured on the eight
// shipped contact scenes at 2 iterations (`smfem-scene`, 90-300 steps each): 1e-2 m/s takes 23 %
// fewer iterations in all than 1e-3, 3e-3 17 % fewer (the jelly cube's retries 38 -> 13).
// Landings, a box with a soft end dropped on an edge onto a slope from eleven heights (0.8 to
// 1.3 m, test ContactScene.LandingsAtOneAndTwoIterations...): at 2 iterations the landing keeps a
// quarter of the converged rebound from 10 of 11 heights at 1e-3 (median 0.62 of it), 4 of 11
// at 3e-3 (median 0.10), 7 of 11 at 1e-2 (median 0.73). 3e-3 was the default for a session on
// the strength of one of those heights, where it happened to keep 31 %.
inline constexpr double kDefaultSlip = 1e-2;

// The largest Coulomb coefficient a scene or an obstacle may set (a rubber sole on concrete is
// about 1; beyond 10 is a typing error, not a material).
inline constexpr double kMaxFriction = 10.0;

// A unit tangent basis T of the plane normal to the unit n (3 x 2): friction's slip is T^T dx.
inline Eigen::Matrix<double, 3, 2> tangent_basis(const Eigen::Vector3d& n) {
  const Eigen::Vector3d helper =
      std::abs(n.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  Eigen::Matrix<double, 3, 2> basis;
  basis.col(0) = n.cross(helper).normalized();
  basis.col(1) = n.cross(basis.col(0));
  return basis;
}

inline double friction_f0(double y, double eps) {
  if (y >= eps) return y;
  return -y * y * y / (3.0 * eps * eps) + y * y / eps + eps / 3.0;
}

// f1(y) / y, finite at y = 0 (its limit 2 / eps).
inline double friction_f1_over_y(double y, double eps) {
  if (y >= eps) return 1.0 / y;
  return 2.0 / eps - y / (eps * eps);
}

// The potential's gradient in v (2) and Hessian in v (2 x 2), per unit mu lambda.
inline Eigen::Vector2d friction_gradient(const Eigen::Vector2d& v, double eps) {
  return friction_f1_over_y(v.norm(), eps) * v;
}

inline Eigen::Matrix2d friction_hessian(const Eigen::Vector2d& v, double eps) {
  const double y = v.norm();
  Eigen::Matrix2d hessian = friction_f1_over_y(y, eps) * Eigen::Matrix2d::Identity();
  if (y == 0.0) return hessian;
  // (f1' - f1/y) / y^2: -1/(eps^2 y) below eps, -1/y^3 beyond.
  const double c = y < eps ? -1.0 / (eps * eps * y) : -1.0 / (y * y * y);
  hessian += c * v * v.transpose();
  return hessian;
}

// A curvature that bounds the potential from above (per unit mu lambda): f1(y)/y I_2. Since
// f1(y)/y never grows with y, f0(sqrt(t)) is concave in t, so
//
//   f0(|w|) <= f0(y) + f1(y)/(2y) (|w|^2 - y^2)   for every w,
//
// a quadratic in w that touches the potential at v with its gradient and has this curvature.
// Beyond the static zone the exact Hessian has no curvature along the slip, so a Newton step
// from a sliding start overshoots by as much as the other terms are soft along it; with this
// one a slip with nothing else to resist it goes straight back to zero, and whatever the step
// gains on the model it gains at least as much on the potential.
inline Eigen::Matrix2d friction_majorizer(const Eigen::Vector2d& v, double eps) {
  return friction_f1_over_y(v.norm(), eps) * Eigen::Matrix2d::Identity();
}

}  // namespace smfem::contact
