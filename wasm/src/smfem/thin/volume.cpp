#include "smfem/thin/volume.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include <Eigen/Geometry>

#include "smfem/fem/linear_tet.hpp"
#include "smfem/thin/detail/body_checks.hpp"

namespace smfem::thin {

ThinBody make_volume(const Positions& X, const Tets& tets, const VolumeMaterial& material,
                     std::vector<int> pinned) {
  const auto n = static_cast<int>(X.rows());
  const auto T = static_cast<int>(tets.rows());
  if (T < 1) throw std::invalid_argument("a volume needs at least one tet");
  detail::require_positions(X);
  detail::require_material(material.youngs, material.poisson, material.density);
  detail::require_pins(pinned, n);

  ThinBody body;
  body.vertex_count = n;
  body.rest = X;
  body.directions.resize(0, 3);
  full::ElementModel& model = body.model;
  model.source = "volume";
  model.defaults = thin_body_defaults();
  model.node_count = n;
  model.elements.resize(T, 4);
  model.weights.resize(T);
  model.youngs = Eigen::VectorXd::Constant(T, material.youngs);
  model.poisson = Eigen::VectorXd::Constant(T, material.poisson);
  model.node_mass = Eigen::VectorXd::Zero(n);
  const double extent = (X.colwise().maxCoeff() - X.colwise().minCoeff()).norm();
  // Each face by its sorted corners: how many tets hold it, and its corners turned outwards
  // from the last tet that held it (a boundary face has one).
  std::map<std::array<int, 3>, std::pair<int, std::array<int, 3>>> faces;
  std::map<std::pair<int, int>, int> edges;
  for (int t = 0; t < T; ++t) {
    std::array<int, 4> ids{};
    fem::TetCorners corners;
    for (int j = 0; j < 4; ++j) {
      ids[static_cast<std::size_t>(j)] = tets(t, j);
      if (tets(t, j) < 0 || tets(t, j) >= n) {
        throw std::invalid_argument("tet " + std::to_string(t) + " has vertex id " +
                                    std::to_string(tets(t, j)) + ", not below " +
                                    std::to_string(n));
      }
      corners.row(j) = X.row(tets(t, j));
    }
    double volume = fem::linear_tet_volume(corners);
    if (volume < 0.0) {  // inverted: two corners swapped make it positive
      std::swap(ids[2], ids[3]);
      corners.row(2).swap(corners.row(3));
      volume = -volume;
    }
    if (!(volume > 1e-15 * extent * extent * extent)) {
      throw std::invalid_argument("tet " + std::to_string(t) + " is degenerate (no volume)");
    }
    for (int j = 0; j < 4; ++j) model.elements(t, j) = ids[static_cast<std::size_t>(j)];
    model.shape_gradients.push_back(fem::linear_tet_dphi_dX(corners));
    model.weights(t) = volume;
    for (const int v : ids) model.node_mass(v) += material.density * volume / 4.0;
    // The faces opposite each corner, wound so that their normal points out of the tet.
    const std::array<std::array<int, 3>, 4> opposite = {{{ids[1], ids[2], ids[3]},
                                                         {ids[0], ids[3], ids[2]},
                                                         {ids[0], ids[1], ids[3]},
                                                         {ids[0], ids[2], ids[1]}}};
    for (const std::array<int, 3>& face : opposite) {
      std::array<int, 3> key = face;
      std::sort(key.begin(), key.end());
      auto& [uses, wound] = faces[key];
      ++uses;
      wound = face;
    }
    for (int a = 0; a < 4; ++a) {
      for (int b = a + 1; b < 4; ++b) {
        const int u = ids[static_cast<std::size_t>(a)], w = ids[static_cast<std::size_t>(b)];
        edges[{std::min(u, w), std::max(u, w)}] = 1;
      }
    }
  }
  for (int v = 0; v < n; ++v) {
    if (!(model.node_mass(v) > 0.0)) {
      throw std::invalid_argument("vertex " + std::to_string(v) + " is in no tet");
    }
  }
  model.translational_mass = model.node_mass;
  model.pinned = std::move(pinned);
  body.contact_areas = Eigen::VectorXd::Zero(n);
  body.contact_skins = Eigen::VectorXd::Zero(n);
  std::vector<std::array<int, 3>> boundary;
  for (const auto& [key, use] : faces) {
    if (use.first != 1) continue;
    const std::array<int, 3>& f = use.second;
    boundary.push_back(f);
    const double area = 0.5 * (X.row(f[1]) - X.row(f[0])).cross(X.row(f[2]) - X.row(f[0])).norm();
    for (const int v : f) body.contact_areas(v) += area / 3.0;
  }
  body.triangles.resize(static_cast<Eigen::Index>(boundary.size()), 3);
  for (std::size_t f = 0; f < boundary.size(); ++f) {
    for (int c = 0; c < 3; ++c)
      body.triangles(static_cast<Eigen::Index>(f), c) = boundary[f][static_cast<std::size_t>(c)];
  }
  body.edges.resize(static_cast<Eigen::Index>(edges.size()), 2);
  Eigen::Index e = 0;
  for (const auto& [edge, unused] : edges) body.edges.row(e++) << edge.first, edge.second;
  return body;
}

}  // namespace smfem::thin
