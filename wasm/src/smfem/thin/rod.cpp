#include "smfem/thin/rod.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>

#include <Eigen/Geometry>

#include "smfem/thin/detail/body_checks.hpp"

namespace smfem::thin {

Positions rod_line(int points, double length) {
  if (points < 2) throw std::invalid_argument("a rod needs at least 2 points");
  detail::require_positive_size(length, "the rod's length");
  Positions X = Positions::Zero(points, 3);
  for (int v = 0; v < points; ++v) X(v, 0) = length * v / (points - 1);
  return X;
}

ThinBody make_rod(const Positions& points, const RodMaterial& material, std::vector<int> pinned) {
  const auto n = static_cast<int>(points.rows());
  if (n < 2) throw std::invalid_argument("a rod needs at least 2 points");
  detail::require_finite(points);
  detail::require_positive_size(material.radius, "radius");
  detail::require_material(material.youngs, material.poisson, material.density);
  detail::require_pins(pinned, n);

  const int S = n - 1;
  const double section = std::numbers::pi * material.radius * material.radius;
  // Per unit length, about each normal: the integral of the squared distance from the axis.
  const double section_inertia = section * material.radius * material.radius / 4.0;
  ThinBody body;
  body.vertex_count = n;
  body.rest = points;
  body.edges.resize(S, 2);
  body.directions.resize(2 * S, 3);
  body.contact_areas = Eigen::VectorXd::Zero(n);
  full::ElementModel& model = body.model;
  model.source = "rod";
  model.defaults = thin_body_defaults();
  model.node_count = n + 2 * S;
  model.elements.resize(S, 4);
  model.weights.resize(S);
  model.youngs = Eigen::VectorXd::Constant(S, material.youngs);
  model.poisson = Eigen::VectorXd::Constant(S, material.poisson);
  model.node_mass = Eigen::VectorXd::Zero(n + 2 * S);
  const double extent = (points.colwise().maxCoeff() - points.colwise().minCoeff()).norm();
  Eigen::Vector3d first_tangent = Eigen::Vector3d::Zero();
  for (int s = 0; s < S; ++s) {
    const Eigen::Vector3d along = (points.row(s + 1) - points.row(s)).transpose();
    const double length = along.norm();
    if (!(length > 1e-12 * extent)) {
      throw std::invalid_argument("segment " + std::to_string(s) + " has no length");
    }
    const Eigen::Vector3d tangent = along / length;
    if (s == 0) first_tangent = tangent;
    // Any two unit normals completing the tangent to a right-handed frame.
    const Eigen::Vector3d normal = tangent.unitOrthogonal();
    const Eigen::Vector3d binormal = tangent.cross(normal);
    fem::TetCorners G;
    G.row(0) = -tangent.transpose() / length;
    G.row(1) = tangent.transpose() / length;
    G.row(2) = normal.transpose();
    G.row(3) = binormal.transpose();
    model.elements.row(s) << s, s + 1, n + 2 * s, n + 2 * s + 1;
    model.shape_gradients.push_back(G);
    body.directions.row(2 * s) = normal.transpose();
    body.directions.row(2 * s + 1) = binormal.transpose();
    model.weights(s) = section * length;
    const double mass = material.density * section * length;
    model.node_mass(s) += mass / 2.0;
    model.node_mass(s + 1) += mass / 2.0;
    body.contact_areas(s) += material.radius * length;
    body.contact_areas(s + 1) += material.radius * length;
    model.node_mass(n + 2 * s) = model.node_mass(n + 2 * s + 1) =
        material.density * section_inertia * length;
    body.edges.row(s) << s, s + 1;
  }
  model.translational_mass = model.node_mass;
  model.translational_mass.tail(2 * S).setZero();
  model.pinned = std::move(pinned);
  if (material.bending) {
    Eigen::Matrix<double, 2, 3> normals;
    normals.row(0) = first_tangent.unitOrthogonal().transpose();
    normals.row(1) = first_tangent.cross(first_tangent.unitOrthogonal()).transpose();
    if (detail::relative_offset(points, points.row(0), normals) > detail::kFlatTolerance) {
      throw std::invalid_argument(
          "bending needs a straight rest shape (its energy is measured from the line); this "
          "polyline bends: turn bending off or give a straight one");
    }
    model.bending = rod_bending(points, material.youngs * section_inertia, model.node_count);
  }
  return body;
}

}  // namespace smfem::thin
