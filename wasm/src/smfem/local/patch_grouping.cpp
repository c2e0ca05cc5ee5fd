#include "smfem/local/patch_grouping.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "smfem/geometry/vertex_areas.hpp"
#include "smfem/local/weighted_kmeans.hpp"

namespace smfem::local {
namespace {

// Union-find over vertex ids.
int root(std::vector<int>& parent, int v) {
  while (parent[static_cast<std::size_t>(v)] != v) {
    parent[static_cast<std::size_t>(v)] =
        parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(v)])];
    v = parent[static_cast<std::size_t>(v)];
  }
  return v;
}

// A right-handed frame whose third column is the unit inward normal n.
Eigen::Matrix3d frame_of(const Eigen::Vector3d& n) {
  Eigen::Index least = 0;
  n.cwiseAbs().minCoeff(&least);
  const Eigen::Vector3d t1 = n.cross(Eigen::Vector3d::Unit(least)).normalized();
  Eigen::Matrix3d frame;
  frame << t1, n.cross(t1), n;
  return frame;
}

// k-means of the component's vertices (ascending) by area into at most k clusters, each
// ascending, in the order of their lowest vertex.
std::vector<std::vector<int>> cluster(const MeshPositions& rest, const std::vector<int>& vertices,
                                      const Eigen::VectorXd& area, int k) {
  Eigen::Matrix<double, Eigen::Dynamic, 3> points(static_cast<Eigen::Index>(vertices.size()), 3);
  Eigen::VectorXd weights(points.rows());
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    points.row(static_cast<Eigen::Index>(i)) = rest.row(vertices[i]);
    weights(static_cast<Eigen::Index>(i)) = area(vertices[i]);
  }
  const std::vector<int> labels = weighted_kmeans(points, weights, k);
  std::vector<std::vector<int>> clusters;
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const auto label = static_cast<std::size_t>(labels[i]);
    if (label >= clusters.size()) clusters.resize(label + 1);
    clusters[label].push_back(vertices[i]);
  }
  return clusters;
}

}  // namespace

std::vector<LoadPatch> group_into_patches(const MeshPositions& rest,
                                          const geometry::TriangleIndices& surface,
                                          const std::vector<int>& active, int budget) {
  const auto fail = [](const std::string& what) {
    throw std::invalid_argument("group_into_patches: " + what);
  };
  if (budget < 1) fail("the patch budget must be at least 1, not " + std::to_string(budget));
  const Eigen::Index nv = rest.rows();
  if (!rest.allFinite()) fail("a rest position is not finite");
  if (surface.size() > 0 && (surface.minCoeff() < 0 || surface.maxCoeff() >= nv)) {
    fail("a surface triangle's corner is not one of the mesh's " + std::to_string(nv) +
         " vertices");
  }
  // Each surface vertex's share of the area and its area-weighted outward normal.
  const Eigen::VectorXd area = geometry::vertex_areas(rest, surface);
  MeshPositions normal = MeshPositions::Zero(nv, 3);
  for (Eigen::Index f = 0; f < surface.rows(); ++f) {
    const Eigen::Vector3d a = rest.row(surface(f, 0)).transpose();
    const Eigen::Vector3d cross =
        (rest.row(surface(f, 1)).transpose() - a).cross(rest.row(surface(f, 2)).transpose() - a);
    for (int c = 0; c < 3; ++c) normal.row(surface(f, c)) += 0.5 * cross.transpose();
  }
  std::vector<char> is_active(static_cast<std::size_t>(nv), 0);
  for (const int v : active) {
    if (v < 0 || v >= nv) fail("active vertex " + std::to_string(v) + " is out of range");
    if (!(area(v) > 0.0)) fail("active vertex " + std::to_string(v) + " is not on the surface");
    is_active[static_cast<std::size_t>(v)] = 1;
  }
  std::vector<int> parent(static_cast<std::size_t>(nv));
  std::iota(parent.begin(), parent.end(), 0);
  for (Eigen::Index f = 0; f < surface.rows(); ++f) {
    for (int c = 0; c < 3; ++c) {
      const int v = surface(f, c), w = surface(f, (c + 1) % 3);
      if (is_active[static_cast<std::size_t>(v)] && is_active[static_cast<std::size_t>(w)]) {
        parent[static_cast<std::size_t>(root(parent, v))] = root(parent, w);
      }
    }
  }
  // Components in ascending order of their lowest vertex, each ascending.
  std::vector<std::vector<int>> components;
  std::vector<int> component_of(static_cast<std::size_t>(nv), -1);
  double total_area = 0.0;
  for (int v = 0; v < nv; ++v) {
    if (!is_active[static_cast<std::size_t>(v)]) continue;
    int& index = component_of[static_cast<std::size_t>(root(parent, v))];
    if (index < 0) {
      index = static_cast<int>(components.size());
      components.emplace_back();
    }
    components[static_cast<std::size_t>(index)].push_back(v);
    total_area += area(v);
  }
  std::vector<LoadPatch> patches;
  for (const std::vector<int>& component : components) {
    double component_area = 0.0;
    for (const int v : component) component_area += area(v);
    const int k =
        std::clamp(static_cast<int>(std::ceil(budget * component_area / total_area - 1e-9)), 1,
                   static_cast<int>(component.size()));
    for (const std::vector<int>& vertices : cluster(rest, component, area, k)) {
      LoadPatch patch;
      patch.vertices = vertices;
      Eigen::Vector3d outward = Eigen::Vector3d::Zero();
      double patch_area = 0.0, normals = 0.0;
      for (const int v : vertices) {
        patch.areas.push_back(area(v));
        patch.centre += area(v) * rest.row(v).transpose();
        outward += normal.row(v).transpose();
        normals += normal.row(v).norm();
        patch_area += area(v);
      }
      patch.centre /= patch_area;
      // Where the normals mostly cancel (a patch round a thin part, whose two faces k-means
      // cannot tell apart), their sum's direction is an accident: the largest vertex's is taken.
      if (!(outward.norm() > 0.2 * normals)) {
        const auto largest = std::max_element(vertices.begin(), vertices.end(),
                                              [&](int a, int b) { return area(a) < area(b); });
        outward = normal.row(*largest).transpose();
      }
      if (!(outward.norm() > 0.0)) {
        fail("the surface's normals cancel at vertex " + std::to_string(vertices.front()) +
             ": no inward direction for its patch");
      }
      patch.frame = frame_of(-outward.normalized());
      patches.push_back(std::move(patch));
    }
  }
  std::sort(patches.begin(), patches.end(), [](const LoadPatch& a, const LoadPatch& b) {
    return a.vertices.front() < b.vertices.front();
  });
  return patches;
}

}  // namespace smfem::local
