#include "smfem/thin/shell.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "smfem/thin/detail/body_checks.hpp"

namespace smfem::thin {

ShellMesh shell_grid(int nx, int ny, double width, double height) {
  if (nx < 2 || ny < 2) throw std::invalid_argument("a shell grid needs at least 2 x 2 vertices");
  detail::require_positive_size(width, "the grid's width");
  detail::require_positive_size(height, "the grid's height");
  ShellMesh mesh;
  mesh.positions.resize(nx * ny, 3);
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      mesh.positions.row(i + nx * j) << width * (static_cast<double>(i) / (nx - 1) - 0.5), 0.0,
          height * (static_cast<double>(j) / (ny - 1) - 0.5);
    }
  }
  mesh.triangles.resize(2 * (nx - 1) * (ny - 1), 3);
  int t = 0;
  for (int j = 0; j + 1 < ny; ++j) {
    for (int i = 0; i + 1 < nx; ++i) {
      const int a = i + nx * j, b = a + 1, c = a + nx, d = c + 1;  // c, d one row further in z
      // Counter-clockwise seen from +y (x to the right, z towards the viewer), every cell cut
      // along the same diagonal: on cells cut along alternating diagonals the bending's patches
      // (bending.hpp) let a cantilever sag 1.6 times too far.
      mesh.triangles.row(t++) << a, c, d;
      mesh.triangles.row(t++) << a, d, b;
    }
  }
  return mesh;
}

ThinBody make_shell(const ShellMesh& mesh, const ShellMaterial& material, std::vector<int> pinned) {
  const Positions& X = mesh.positions;
  const Triangles& triangles = mesh.triangles;
  const auto n = static_cast<int>(X.rows());
  const auto T = static_cast<int>(triangles.rows());
  if (T < 1) throw std::invalid_argument("a shell needs at least one triangle");
  detail::require_positions(X);
  detail::require_positive_size(material.thickness, "thickness");
  detail::require_material(material.youngs, material.poisson, material.density);
  detail::require_pins(pinned, n);

  ThinBody body;
  body.vertex_count = n;
  body.rest = X;
  body.triangles = triangles;
  body.directions.resize(T, 3);
  body.contact_areas = Eigen::VectorXd::Zero(n);
  body.contact_skins = Eigen::VectorXd::Constant(n, material.thickness / 2.0);
  full::ElementModel& model = body.model;
  model.source = "shell";
  model.defaults = thin_body_defaults();
  model.node_count = n + T;
  model.elements.resize(T, 4);
  model.weights.resize(T);
  model.youngs = Eigen::VectorXd::Constant(T, material.youngs);
  model.poisson = Eigen::VectorXd::Constant(T, material.poisson);
  model.node_mass = Eigen::VectorXd::Zero(n + T);
  std::map<std::pair<int, int>, int> edge_uses;
  const double extent = (X.colwise().maxCoeff() - X.colwise().minCoeff()).norm();
  Eigen::RowVector3d some_normal = Eigen::RowVector3d::Zero();
  for (int t = 0; t < T; ++t) {
    for (int k = 0; k < 3; ++k) {
      const int v = triangles(t, k);
      if (v < 0 || v >= n) {
        throw std::invalid_argument("triangle " + std::to_string(t) + " has vertex id " +
                                    std::to_string(v) + ", not below " + std::to_string(n));
      }
      const int w = triangles(t, (k + 1) % 3);
      if (w >= 0 && w < n && w != v) {
        if (++edge_uses[{std::min(v, w), std::max(v, w)}] > 2) {
          throw std::invalid_argument("edge " + std::to_string(v) + "-" + std::to_string(w) +
                                      " is shared by more than two triangles");
        }
      }
    }
    const Eigen::Vector3d x0 = X.row(triangles(t, 0)).transpose();
    Eigen::Matrix<double, 3, 2> edges;
    edges.col(0) = X.row(triangles(t, 1)).transpose() - x0;
    edges.col(1) = X.row(triangles(t, 2)).transpose() - x0;
    const Eigen::Vector3d cross = edges.col(0).cross(edges.col(1));
    const double area = 0.5 * cross.norm();
    if (!(area > 1e-12 * extent * extent)) {
      throw std::invalid_argument("triangle " + std::to_string(t) + " is degenerate (no area)");
    }
    const Eigen::Vector3d normal = cross.normalized();
    some_normal = normal.transpose();
    // In-plane barycentric gradients: the rows of the pseudo-inverse of the edge matrix.
    const Eigen::Matrix<double, 2, 3> inverse =
        (edges.transpose() * edges).inverse() * edges.transpose();
    fem::TetCorners G;
    G.row(1) = inverse.row(0);
    G.row(2) = inverse.row(1);
    G.row(0) = -(G.row(1) + G.row(2));
    G.row(3) = normal.transpose();
    const int director = n + t;
    model.elements.row(t) << triangles(t, 0), triangles(t, 1), triangles(t, 2), director;
    model.shape_gradients.push_back(G);
    body.directions.row(t) = normal.transpose();
    model.weights(t) = area * material.thickness;
    const double mass = material.density * area * material.thickness;
    for (int k = 0; k < 3; ++k) {
      model.node_mass(triangles(t, k)) += mass / 3.0;
      body.contact_areas(triangles(t, k)) += area / 3.0;
    }
    model.node_mass(director) = mass * material.thickness * material.thickness / 12.0;
  }
  for (int v = 0; v < n; ++v) {
    if (!(model.node_mass(v) > 0.0)) {
      throw std::invalid_argument("vertex " + std::to_string(v) + " is in no triangle");
    }
  }
  model.translational_mass = model.node_mass;
  model.translational_mass.tail(T).setZero();
  model.pinned = std::move(pinned);
  body.edges.resize(static_cast<Eigen::Index>(edge_uses.size()), 2);
  Eigen::Index e = 0;
  for (const auto& [edge, uses] : edge_uses) body.edges.row(e++) << edge.first, edge.second;
  if (material.bending) {
    const double nu = material.poisson;
    const double stiffness =
        material.youngs * std::pow(material.thickness, 3) / (12.0 * (1.0 - nu * nu));
    // Flat: the plate energy (constant, and exact in twist and for any nu); curved: the hinges.
    if (detail::relative_offset(X, X.row(triangles(0, 0)), some_normal) > detail::kFlatTolerance) {
      model.hinges = shell_hinges(X, triangles, stiffness, model.node_count);
    } else {
      model.bending = shell_bending(X, triangles, stiffness, nu, model.node_count);
    }
  }
  return body;
}

}  // namespace smfem::thin
