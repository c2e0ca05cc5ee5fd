#include "smfem/thin/rod.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
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

Segments polyline_segments(int points) {
  Segments segments(std::max(points - 1, 0), 2);
  for (int s = 0; s + 1 < points; ++s) segments.row(s) << s, s + 1;
  return segments;
}

namespace {

// Whether the segments are one polyline in vertex order (0-1, 1-2, ...) along a straight line,
// every segment the same way (one that folds back on itself turns by pi at the fold: the
// curvature energy would not be blind to rigid motions there).
bool is_straight_polyline(const Positions& points, const Segments& segments) {
  const auto n = static_cast<int>(points.rows());
  if (segments.rows() != n - 1 || segments != polyline_segments(n)) return false;
  const Eigen::Vector3d tangent = (points.row(1) - points.row(0)).normalized().transpose();
  for (int s = 1; s + 1 < n; ++s) {
    if (!((points.row(s + 1) - points.row(s)).dot(tangent.transpose()) > 0.0)) return false;
  }
  Eigen::Matrix<double, 2, 3> normals;
  normals.row(0) = tangent.unitOrthogonal().transpose();
  normals.row(1) = tangent.cross(tangent.unitOrthogonal()).transpose();
  return detail::relative_offset(points, points.row(0), normals) <= detail::kFlatTolerance;
}

}  // namespace

ThinBody make_rods(const Positions& points, const Segments& segments, const RodMaterial& material,
                   std::vector<int> pinned) {
  const auto n = static_cast<int>(points.rows());
  const auto S = static_cast<int>(segments.rows());
  if (S < 1) throw std::invalid_argument("a rod needs at least one segment (two points)");
  detail::require_positions(points);
  detail::require_positive_size(material.radius, "radius");
  detail::require_material(material.youngs, material.poisson, material.density);
  detail::require_pins(pinned, n);

  const double section = std::numbers::pi * material.radius * material.radius;
  // Per unit length, about each normal: the integral of the squared distance from the axis.
  const double section_inertia = section * material.radius * material.radius / 4.0;
  ThinBody body;
  body.vertex_count = n;
  body.rest = points;
  body.edges = segments;
  body.lines = segments;
  body.line_radii = Eigen::VectorXd::Constant(S, material.radius);
  body.directions.resize(2 * S, 3);
  body.contact_areas = Eigen::VectorXd::Zero(n);
  body.contact_skins = Eigen::VectorXd::Constant(n, material.radius);
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
  std::set<std::pair<int, int>> seen;
  for (int s = 0; s < S; ++s) {
    const int a = segments(s, 0), b = segments(s, 1);
    const std::string name = "segment " + std::to_string(s);
    if (a < 0 || a >= n || b < 0 || b >= n) {
      throw std::invalid_argument(name + " joins " + std::to_string(a) + " and " +
                                  std::to_string(b) + ", not both vertices below " +
                                  std::to_string(n));
    }
    if (!seen.emplace(std::min(a, b), std::max(a, b)).second) {
      throw std::invalid_argument(name + " joins " + std::to_string(a) + " and " +
                                  std::to_string(b) + " a second time");
    }
    const Eigen::Vector3d along = (points.row(b) - points.row(a)).transpose();
    const double length = along.norm();
    if (!(length > 1e-12 * extent)) throw std::invalid_argument(name + " has no length");
    const Eigen::Vector3d tangent = along / length;
    // Any two unit normals completing the tangent to a right-handed frame.
    const Eigen::Vector3d normal = tangent.unitOrthogonal();
    const Eigen::Vector3d binormal = tangent.cross(normal);
    fem::TetCorners G;
    G.row(0) = -tangent.transpose() / length;
    G.row(1) = tangent.transpose() / length;
    G.row(2) = normal.transpose();
    G.row(3) = binormal.transpose();
    model.elements.row(s) << a, b, n + 2 * s, n + 2 * s + 1;
    model.shape_gradients.push_back(G);
    body.directions.row(2 * s) = normal.transpose();
    body.directions.row(2 * s + 1) = binormal.transpose();
    model.weights(s) = section * length;
    const double mass = material.density * section * length;
    model.node_mass(a) += mass / 2.0;
    model.node_mass(b) += mass / 2.0;
    body.contact_areas(a) += material.radius * length;
    body.contact_areas(b) += material.radius * length;
    model.node_mass(n + 2 * s) = model.node_mass(n + 2 * s + 1) =
        material.density * section_inertia * length;
  }
  for (int v = 0; v < n; ++v) {
    if (!(model.node_mass(v) > 0.0)) {
      throw std::invalid_argument("vertex " + std::to_string(v) + " is in no segment");
    }
  }
  model.translational_mass = model.node_mass;
  model.translational_mass.tail(2 * S).setZero();
  // The directors' inertia is tiny (rho pi r^4 / 4 per length): without the exact solve of each
  // segment's after every iteration, a net of rods gains energy at 2 iterations.
  model.relax_local_nodes = true;
  model.pinned = std::move(pinned);
  if (material.bending) {
    const double bending_stiffness = material.youngs * section_inertia;
    if (is_straight_polyline(points, segments)) {
      model.bending = rod_bending(points, bending_stiffness, model.node_count);
    } else {
      // J = 2 I for a circular section, G = E / (2 (1 + nu)); nu >= sim::kMinPoisson = 0 keeps
      // GJ <= 2 EI (bending.hpp).
      const double twisting_stiffness = bending_stiffness / (1.0 + material.poisson);
      model.bending = rod_joint_bending(model, n, bending_stiffness, twisting_stiffness);
      // A segment pinned at both ends is clamped: its directors are held too, so that the rod
      // cannot twist there (two points alone leave it free to turn about the segment).
      std::vector<char> is_pinned(static_cast<std::size_t>(n), 0);
      for (const int v : model.pinned) is_pinned[static_cast<std::size_t>(v)] = 1;
      for (int s = 0; s < S; ++s) {
        if (is_pinned[static_cast<std::size_t>(segments(s, 0))] &&
            is_pinned[static_cast<std::size_t>(segments(s, 1))]) {
          model.pinned.push_back(n + 2 * s);
          model.pinned.push_back(n + 2 * s + 1);
        }
      }
    }
  }
  return body;
}

ThinBody make_rod(const Positions& points, const RodMaterial& material, std::vector<int> pinned) {
  if (points.rows() < 2) throw std::invalid_argument("a rod needs at least 2 points");
  return make_rods(points, polyline_segments(static_cast<int>(points.rows())), material,
                   std::move(pinned));
}

}  // namespace smfem::thin
