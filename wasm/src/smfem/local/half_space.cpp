#include "smfem/local/half_space.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace smfem::local {

Eigen::Matrix3d point_load_response(const Eigen::Vector3d& p, const HalfSpaceMaterial& material) {
  const double G = material.shear, nu = material.poisson;
  if (!(G > 0.0) || !std::isfinite(G)) {
    throw std::invalid_argument(
        "point_load_response: the shear modulus must be a positive number, "
        "not " +
        std::to_string(G));
  }
  if (!(nu > -1.0 && nu <= 0.5)) {
    throw std::invalid_argument("point_load_response: Poisson's ratio must be in (-1, 0.5], not " +
                                std::to_string(nu));
  }
  const double rho = p.norm();
  const double z = p.z();
  // rho + z vanishes at the origin and on the negative z axis only; above the surface (z < 0)
  // it is formed as (x^2 + y^2) / (rho - z), which keeps its digits near that axis.
  const double tangential = p.x() * p.x() + p.y() * p.y();
  const double rz = z >= 0.0 ? rho + z : tangential / (rho - z);
  if (!p.allFinite() || !(rho > 0.0) || !(rz > 0.0)) {
    throw std::invalid_argument(
        "point_load_response: the point must be finite, not the origin (where the force acts) "
        "nor on the negative z axis (outside the body, where the solution is singular)");
  }
  const double c = 1.0 / (4.0 * std::numbers::pi * G);
  const double soft = 1.0 - 2.0 * nu;  // vanishes for an incompressible body
  const double rho3 = rho * rho * rho;
  Eigen::Matrix3d response;
  // Tangential forces along a = x, y (Cerruti): t_a is the coordinate along a.
  for (int a = 0; a < 2; ++a) {
    for (int b = 0; b < 2; ++b) {
      const double delta = a == b ? 1.0 : 0.0;
      const double tt = p(a) * p(b);
      response(b, a) = c * (delta / rho + tt / rho3 + soft * (delta / rz - tt / (rho * rz * rz)));
    }
    response(2, a) = c * (p(a) * z / rho3 + soft * p(a) / (rho * rz));
  }
  // The normal force (Boussinesq).
  for (int b = 0; b < 2; ++b) response(b, 2) = c * (p(b) * z / rho3 - soft * p(b) / (rho * rz));
  response(2, 2) = c * (z * z / rho3 + 2.0 * (1.0 - nu) / rho);
  return response;
}

double truncation_weight(double distance, double outer) {
  if (!(outer > 0.0)) {
    throw std::invalid_argument("truncation_weight: the outer radius must be positive");
  }
  if (distance <= 0.0) return 1.0;
  if (distance >= outer) return 0.0;
  const double t = distance / outer;
  return 1.0 - t * t * t * (10.0 - t * (15.0 - 6.0 * t));
}

double support_radius(int modes, double mean_element_volume) {
  if (modes < 1 || !(mean_element_volume > 0.0) || !std::isfinite(mean_element_volume)) {
    throw std::invalid_argument(
        "support_radius: needs at least one mode and a positive mean element volume");
  }
  return std::cbrt(static_cast<double>(modes) * modes * mean_element_volume);
}

}  // namespace smfem::local
