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
#include <Eigen/Core>

namespace smfem::contact {

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

}  // namespace smfem::contact
