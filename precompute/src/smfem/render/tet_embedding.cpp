#include "smfem/render/tet_embedding.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "smfem/geometry/aabb_tree.hpp"
#include "smfem/geometry/detail/parallel_for.hpp"
#include "smfem/geometry/point_triangle.hpp"

namespace smfem::render {
namespace {

// Barycentric coordinates may dip this far below 0 for a point on a shared face.
constexpr double kInsideTolerance = 1e-9;

Eigen::Vector4d barycentric_of(const mesh::TetMesh& mesh, int t, const Eigen::Vector3d& p) {
  const Eigen::Vector3d x0 = mesh.vertices.row(mesh.tets(t, 0)).transpose();
  Eigen::Matrix3d edges;
  for (int k = 0; k < 3; ++k) {
    edges.col(k) = mesh.vertices.row(mesh.tets(t, k + 1)).transpose() - x0;
  }
  const Eigen::Vector3d lambda = edges.partialPivLu().solve(p - x0);
  return Eigen::Vector4d(1.0 - lambda.sum(), lambda.x(), lambda.y(), lambda.z());
}

double distance_to_tet(const mesh::TetMesh& mesh, int t, const Eigen::Vector3d& p) {
  if (barycentric_of(mesh, t, p).minCoeff() >= 0.0) return 0.0;
  constexpr int kTetFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  double nearest = std::numeric_limits<double>::infinity();
  for (const auto& face : kTetFaces) {
    const auto corner = [&](int k) -> Eigen::Vector3d {
      return mesh.vertices.row(mesh.tets(t, face[k])).transpose();
    };
    nearest = std::min(
        nearest,
        (geometry::closest_point_on_triangle(p, corner(0), corner(1), corner(2)) - p).norm());
  }
  return nearest;
}

}  // namespace

TetEmbedding embed_points(const mesh::TetMesh& mesh, Eigen::Ref<const geometry::Points> points) {
  if (mesh.tets.rows() == 0) throw std::invalid_argument("embed_points: the mesh has no tets");
  std::vector<Eigen::AlignedBox3d> boxes(static_cast<std::size_t>(mesh.tets.rows()));
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    for (int k = 0; k < 4; ++k) {
      boxes[static_cast<std::size_t>(t)].extend(
          Eigen::Vector3d(mesh.vertices.row(mesh.tets(t, k)).transpose()));
    }
  }
  const geometry::AabbTree tree(boxes);

  TetEmbedding embedding;
  const Eigen::Index count = points.rows();
  embedding.tet.resize(count);
  embedding.barycentric.resize(count, 4);
  embedding.distance.resize(count);
  geometry::detail::parallel_for(
      static_cast<std::size_t>(count), 256, [&](std::size_t begin, std::size_t end) {
        for (auto i = static_cast<Eigen::Index>(begin); i < static_cast<Eigen::Index>(end); ++i) {
          const Eigen::Vector3d p = points.row(i).transpose();
          int best = -1;
          double deepest = -std::numeric_limits<double>::infinity();
          tree.for_each_overlapping(
              [&](const Eigen::AlignedBox3d& box) { return box.squaredExteriorDistance(p) == 0.0; },
              [&](int t) {
                const double depth = barycentric_of(mesh, t, p).minCoeff();
                if (depth > deepest) deepest = depth, best = t;
              });
          double distance = 0.0;
          if (best < 0 || deepest < -kInsideTolerance) {
            // Outside every tet: the nearest one, starting from the best overlapping candidate.
            distance = best >= 0 ? distance_to_tet(mesh, best, p)
                                 : std::numeric_limits<double>::infinity();
            tree.minimize(
                [&](const Eigen::AlignedBox3d& box) {
                  return std::sqrt(box.squaredExteriorDistance(p));
                },
                [&](int t) {
                  const double d = distance_to_tet(mesh, t, p);
                  if (d < distance) distance = d, best = t;
                  return d;
                },
                distance);
          }
          embedding.tet[i] = best;
          embedding.barycentric.row(i) = barycentric_of(mesh, best, p).transpose();
          embedding.distance[i] = distance;
        }
      });
  return embedding;
}

}  // namespace smfem::render
