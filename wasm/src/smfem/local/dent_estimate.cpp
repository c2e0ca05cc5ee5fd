#include "smfem/local/dent_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <utility>

namespace smfem::local {

SurfaceNeighbours::SurfaceNeighbours(const geometry::TriangleIndices& surface, int vertex_count)
    : first_(static_cast<std::size_t>(vertex_count) + 1, 0) {
  // Each triangle's edge a-b gives a b and b a; an edge shared by two triangles comes twice.
  std::vector<std::pair<int, int>> edges;
  for (Eigen::Index f = 0; f < surface.rows(); ++f) {
    for (int c = 0; c < 3; ++c) {
      const int a = surface(f, c), b = surface(f, (c + 1) % 3);
      edges.emplace_back(a, b);
      edges.emplace_back(b, a);
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  for (const auto& [a, b] : edges) {
    ++first_[static_cast<std::size_t>(a) + 1];
    neighbours_.push_back(b);
  }
  std::partial_sum(first_.begin(), first_.end(), first_.begin());
}

std::span<const int> SurfaceNeighbours::of(int vertex) const {
  const auto v = static_cast<std::size_t>(vertex);
  return {neighbours_.data() + first_[v], static_cast<std::size_t>(first_[v + 1] - first_[v])};
}

namespace {

double plane_strain_modulus(const full::FullModel& mesh, int tet) {
  const double nu = mesh.poisson(tet);
  return mesh.youngs(tet) / (1.0 - nu * nu);
}

}  // namespace

Eigen::VectorXd vertex_plane_strain_modulus(const full::FullModel& mesh) {
  Eigen::VectorXd modulus =
      Eigen::VectorXd::Constant(mesh.vertex_count(), std::numeric_limits<double>::infinity());
  for (int t = 0; t < mesh.tet_count(); ++t) {
    for (int c = 0; c < 4; ++c) {
      double& at = modulus(mesh.tets(t, c));
      at = std::min(at, plane_strain_modulus(mesh, t));
    }
  }
  return modulus.unaryExpr([](double m) { return std::isfinite(m) ? m : 0.0; });
}

double stiffest_plane_strain_modulus(const full::FullModel& mesh, const Eigen::Vector3d& centre,
                                     double radius) {
  double stiffest = 0.0;
  for (int t = 0; t < mesh.tet_count(); ++t) {
    for (int c = 0; c < 4; ++c) {
      if ((mesh.positions.row(mesh.tets(t, c)).transpose() - centre).norm() > radius) continue;
      stiffest = std::max(stiffest, plane_strain_modulus(mesh, t));
      break;
    }
  }
  return stiffest;
}

std::vector<int> denting_loads(const std::vector<ContactLoad>& loads,
                               const SurfaceNeighbours& surface, const Eigen::VectorXd& modulus,
                               double resolution, const std::vector<int>& patched) {
  // The loaded vertices, ascending, each with its summed force and its sample's area.
  std::vector<ContactLoad> merged = loads;
  std::sort(merged.begin(), merged.end(),
            [](const ContactLoad& a, const ContactLoad& b) { return a.vertex < b.vertex; });
  std::vector<ContactLoad> vertices;
  for (const ContactLoad& load : merged) {
    if (!vertices.empty() && vertices.back().vertex == load.vertex) {
      vertices.back().force += load.force;
    } else {
      vertices.push_back(load);
    }
  }
  const auto index_of = [&](int vertex) {
    const auto at =
        std::lower_bound(vertices.begin(), vertices.end(), vertex,
                         [](const ContactLoad& load, int v) { return load.vertex < v; });
    return at != vertices.end() && at->vertex == vertex ? static_cast<int>(at - vertices.begin())
                                                        : -1;
  };
  // Regions: union-find over the surface edges whose ends are both loaded.
  std::vector<int> parent(vertices.size());
  std::iota(parent.begin(), parent.end(), 0);
  const auto root = [&](int i) {
    while (parent[static_cast<std::size_t>(i)] != i) {
      i = parent[static_cast<std::size_t>(i)] =
          parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])];
    }
    return i;
  };
  for (std::size_t a = 0; a < vertices.size(); ++a) {
    for (const int neighbour : surface.of(vertices[a].vertex)) {
      const int b = index_of(neighbour);
      if (b >= 0) parent[static_cast<std::size_t>(root(static_cast<int>(a)))] = root(b);
    }
  }
  struct Region {
    double force = 0.0, area = 0.0, stiffness_area = 0.0;
    bool patched = false;
  };
  std::vector<Region> regions(vertices.size());
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    Region& region = regions[static_cast<std::size_t>(root(static_cast<int>(i)))];
    const ContactLoad& load = vertices[i];
    region.force += load.force;
    region.area += load.area;
    region.stiffness_area += load.area * modulus(load.vertex);
    region.patched =
        region.patched || std::binary_search(patched.begin(), patched.end(), load.vertex);
  }
  const auto denting = [&](const Region& region) {
    if (region.patched) return true;
    if (region.area <= 0.0 || region.stiffness_area <= 0.0) return false;
    const double radius = std::sqrt(region.area / std::numbers::pi);
    const double plane_strain = region.stiffness_area / region.area;
    return 2.0 * region.force / (std::numbers::pi * radius * plane_strain) >= resolution;
  };
  std::vector<int> result;
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    if (denting(regions[static_cast<std::size_t>(root(static_cast<int>(i)))])) {
      result.push_back(vertices[i].vertex);
    }
  }
  return result;
}

}  // namespace smfem::local
