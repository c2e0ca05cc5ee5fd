#include "smfem/geometry/tet_locator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include <Eigen/LU>

#include "smfem/geometry/boundary_faces.hpp"
#include "smfem/geometry/point_triangle.hpp"

namespace smfem::geometry {
namespace {

// Barycentric coordinates may dip this far below 0 for a point on a shared face.
constexpr double kInsideTolerance = 1e-9;

std::vector<Eigen::AlignedBox3d> tet_boxes(const TetLocator::Vertices& vertices,
                                           const TetLocator::Tets& tets) {
  if (tets.rows() == 0) throw std::invalid_argument("TetLocator: the mesh has no tets");
  return element_boxes(vertices, tets);
}

}  // namespace

TetLocator::TetLocator(const Vertices& vertices, const Tets& tets)
    : vertices_(vertices), tets_(tets), tree_(tet_boxes(vertices, tets)) {}

Eigen::Vector4d TetLocator::barycentric(int tet, const Eigen::Vector3d& p) const {
  const Eigen::Vector3d x0 = vertices_.row(tets_(tet, 0)).transpose();
  Eigen::Matrix3d edges;
  for (int k = 0; k < 3; ++k) edges.col(k) = vertices_.row(tets_(tet, k + 1)).transpose() - x0;
  const Eigen::Vector3d lambda = edges.partialPivLu().solve(p - x0);
  return Eigen::Vector4d(1.0 - lambda.sum(), lambda.x(), lambda.y(), lambda.z());
}

double TetLocator::distance_to(int tet, const Eigen::Vector3d& p) const {
  if (barycentric(tet, p).minCoeff() >= 0.0) return 0.0;
  double nearest = std::numeric_limits<double>::infinity();
  for (const auto& face : kTetFaces) {
    const auto corner = [&](int k) -> Eigen::Vector3d {
      return vertices_.row(tets_(tet, face[k])).transpose();
    };
    nearest = std::min(nearest,
                       (closest_point_on_triangle(p, corner(0), corner(1), corner(2)) - p).norm());
  }
  return nearest;
}

TetLocator::Location TetLocator::locate(const Eigen::Vector3d& p) const {
  int best = -1;
  Eigen::Vector4d coordinates;  // best's
  double deepest = -std::numeric_limits<double>::infinity();
  tree_.for_each_overlapping(
      [&](const Eigen::AlignedBox3d& box) { return box.squaredExteriorDistance(p) == 0.0; },
      [&](int t) {
        const Eigen::Vector4d beta = barycentric(t, p);
        if (beta.minCoeff() > deepest) deepest = beta.minCoeff(), best = t, coordinates = beta;
      });
  if (best >= 0 && deepest >= -kInsideTolerance) return Location{best, coordinates, 0.0};
  // Outside every tet: the nearest one, starting from the best overlapping candidate.
  double distance = best >= 0 ? distance_to(best, p) : std::numeric_limits<double>::infinity();
  tree_.minimize(
      [&](const Eigen::AlignedBox3d& box) { return std::sqrt(box.squaredExteriorDistance(p)); },
      [&](int t) {
        const double d = distance_to(t, p);
        if (d < distance) distance = d, best = t;
        return d;
      },
      distance);
  return Location{best, barycentric(best, p), distance};
}

}  // namespace smfem::geometry
