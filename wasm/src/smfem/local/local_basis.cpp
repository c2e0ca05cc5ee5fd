#include "smfem/local/local_basis.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace smfem::local {
namespace {

void check_patch(const MeshPositions& rest, const MeshTets& tets, const LoadPatch& patch,
                 double support) {
  const auto fail = [](const std::string& what) {
    throw std::invalid_argument("patch_columns: " + what);
  };
  if (patch.vertices.empty()) fail("the patch has no vertices");
  if (patch.areas.size() != patch.vertices.size()) {
    fail("the patch has " + std::to_string(patch.vertices.size()) + " vertices but " +
         std::to_string(patch.areas.size()) + " areas");
  }
  for (std::size_t k = 0; k < patch.vertices.size(); ++k) {
    const int v = patch.vertices[k];
    if (v < 0 || v >= rest.rows()) {
      fail("patch vertex " + std::to_string(v) + " is not one of the mesh's " +
           std::to_string(rest.rows()));
    }
    if (!(patch.areas[k] > 0.0) || !std::isfinite(patch.areas[k])) {
      fail("the area of patch vertex " + std::to_string(v) + " is not a positive number");
    }
  }
  std::vector<int> sorted = patch.vertices;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    fail("a patch vertex is listed twice");
  }
  if (tets.size() > 0 && (tets.minCoeff() < 0 || tets.maxCoeff() >= rest.rows())) {
    fail("a tet corner is not one of the mesh's vertices");
  }
  const Eigen::Matrix3d& R = patch.frame;
  if (!R.allFinite() || (R.transpose() * R - Eigen::Matrix3d::Identity()).norm() > 1e-9 ||
      R.determinant() < 0.0) {
    fail("the frame is not a rotation (orthonormal, right-handed columns)");
  }
  if (!patch.centre.allFinite()) fail("the centre is not finite");
  if (!(support > 0.0) || !std::isfinite(support)) fail("the support radius is not positive");
}

// The Green's tensor at p (patch frame), outside the singular cone about the outward normal
// (-z): within it, at the point of the cone's edge at the same distance in the same azimuth.
Eigen::Matrix3d response_off_axis(Eigen::Vector3d p, const HalfSpaceMaterial& material) {
  constexpr double kConeCosine = 0.99;  // the cone: -z within acos(0.99) = 8.1 degrees
  const double rho = p.norm();
  if (p.z() < -kConeCosine * rho) {
    Eigen::Vector2d azimuth = p.head<2>();
    azimuth =
        azimuth.norm() > 0.0 ? Eigen::Vector2d(azimuth.normalized()) : Eigen::Vector2d::UnitX();
    p << std::sqrt(1.0 - kConeCosine * kConeCosine) * rho * azimuth, -kConeCosine * rho;
  }
  return point_load_response(p, material);
}

}  // namespace

LocalColumns patch_columns(const MeshPositions& rest, const MeshTets& tets, const LoadPatch& patch,
                           const HalfSpaceMaterial& material, double support) {
  check_patch(rest, tets, patch, support);
  const Eigen::Matrix3d& R = patch.frame;
  // Where the response at a patch vertex itself is averaged: the centroids of its tets.
  std::vector<std::vector<Eigen::Vector3d>> centroids(patch.vertices.size());
  for (Eigen::Index t = 0; t < tets.rows(); ++t) {
    for (int c = 0; c < 4; ++c) {
      const auto found = std::find(patch.vertices.begin(), patch.vertices.end(), tets(t, c));
      if (found == patch.vertices.end()) continue;
      Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
      for (int d = 0; d < 4; ++d) centroid += rest.row(tets(t, d)).transpose() / 4.0;
      centroids[static_cast<std::size_t>(found - patch.vertices.begin())].push_back(centroid);
    }
  }
  LocalColumns columns;
  for (Eigen::Index v = 0; v < rest.rows(); ++v) {
    const Eigen::Vector3d x = rest.row(v).transpose();
    const double weight = truncation_weight((x - patch.centre).norm(), support);
    if (weight == 0.0) continue;
    // The response in the patch frame to a unit force along each of its axes, summed.
    Eigen::Matrix3d local = Eigen::Matrix3d::Zero();
    for (std::size_t k = 0; k < patch.vertices.size(); ++k) {
      const int j = patch.vertices[k];
      const Eigen::Vector3d load = rest.row(j).transpose();
      if (j != v) {
        local += patch.areas[k] * response_off_axis(R.transpose() * (x - load), material);
        continue;
      }
      if (centroids[k].empty()) {
        throw std::invalid_argument("patch_columns: patch vertex " + std::to_string(j) +
                                    " is in no tet");
      }
      Eigen::Matrix3d mean = Eigen::Matrix3d::Zero();
      for (const Eigen::Vector3d& c : centroids[k]) {
        mean += response_off_axis(R.transpose() * (c - load), material);
      }
      local += patch.areas[k] * mean / static_cast<double>(centroids[k].size());
    }
    columns.vertices.push_back(static_cast<int>(v));
    // Displacements in the mesh's frame, per unit force along each of the patch's axes.
    columns.displacements.push_back(weight * R * local);
  }
  if (columns.vertices.empty()) {
    throw std::invalid_argument("patch_columns: no mesh vertex lies within the support radius " +
                                std::to_string(support) + " m of the patch's centre");
  }
  for (int a = 0; a < 3; ++a) {
    double largest = 0.0;
    for (const Eigen::Matrix3d& d : columns.displacements)
      largest = std::max(largest, d.col(a).norm());
    for (Eigen::Matrix3d& d : columns.displacements) d.col(a) /= largest;
  }
  return columns;
}

}  // namespace smfem::local
