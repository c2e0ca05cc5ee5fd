#include "smfem/local/local_basis.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <Eigen/LU>  // determinant()

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
  if (tets.size() > 0 && (tets.minCoeff() < 0 || tets.maxCoeff() >= rest.rows())) {
    fail("a tet corner is not one of the mesh's vertices");
  }
  const Eigen::Matrix3d& R = patch.frame;
  if (!R.allFinite() || (R.transpose() * R - Eigen::Matrix3d::Identity()).norm() > 1e-9 ||
      R.determinant() < 0.0) {
    fail("the frame is not a rotation (orthonormal, right-handed columns)");
  }
  if (!patch.centre.allFinite()) fail("the centre is not finite");
  if (!rest.allFinite()) fail("a rest position is not finite");
  if (!(support > 0.0) || !std::isfinite(support)) fail("the support radius is not positive");
}

// The Green's tensor at p (patch frame); a point above the tangent plane (z < 0) takes the
// value at its mirror image below it. Above the plane the solution's continuation grows without
// bound towards the outward normal (20 times the surface's value at the same distance 8 degrees
// from it, for a tangential force at nu 0.3), and vertices there (a concave corner, a part across
// a gap) would set each field's scale; the mirror image is inside the half-space, where the
// solution is bounded by its value at that distance.
Eigen::Matrix3d response_at(Eigen::Vector3d p, const HalfSpaceMaterial& material) {
  p.z() = std::abs(p.z());
  return point_load_response(p, material);
}

}  // namespace

LocalColumns patch_columns(const MeshPositions& rest, const MeshTets& tets, const LoadPatch& patch,
                           const HalfSpaceMaterial& material, double support) {
  check_patch(rest, tets, patch, support);
  const Eigen::Matrix3d& R = patch.frame;
  // Where the response at a patch vertex itself is averaged: the centroids of its tets.
  std::vector<int> patch_index(static_cast<std::size_t>(rest.rows()), -1);
  for (std::size_t k = 0; k < patch.vertices.size(); ++k) {
    int& index = patch_index[static_cast<std::size_t>(patch.vertices[k])];
    if (index >= 0) {
      throw std::invalid_argument("patch_columns: patch vertex " +
                                  std::to_string(patch.vertices[k]) + " is listed twice");
    }
    index = static_cast<int>(k);
  }
  std::vector<std::vector<Eigen::Vector3d>> centroids(patch.vertices.size());
  for (Eigen::Index t = 0; t < tets.rows(); ++t) {
    for (int c = 0; c < 4; ++c) {
      const int k = patch_index[static_cast<std::size_t>(tets(t, c))];
      if (k < 0) continue;
      Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
      for (int d = 0; d < 4; ++d) centroid += rest.row(tets(t, d)).transpose() / 4.0;
      centroids[static_cast<std::size_t>(k)].push_back(centroid);
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
      // A vertex other than j may sit where j is (a seam): it takes j's own value.
      if (x != load) {
        local += patch.areas[k] * response_at(R.transpose() * (x - load), material);
        continue;
      }
      if (centroids[k].empty()) {
        throw std::invalid_argument("patch_columns: patch vertex " + std::to_string(j) +
                                    " is in no tet");
      }
      Eigen::Matrix3d mean = Eigen::Matrix3d::Zero();
      for (const Eigen::Vector3d& c : centroids[k]) {
        mean += response_at(R.transpose() * (c - load), material);
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
    // The Green's tensor's scale 1 / (4 pi G) cancels here; a shear modulus so small that it
    // overflows would leave infinities, refused rather than divided into NaN.
    if (!(largest > 0.0) || !std::isfinite(largest)) {
      throw std::invalid_argument("patch_columns: field " + std::to_string(a) +
                                  " is not finite and nonzero (shear modulus out of range?)");
    }
    for (Eigen::Matrix3d& d : columns.displacements) d.col(a) /= largest;
  }
  return columns;
}

}  // namespace smfem::local
