#include "smfem/local/render_dent.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <Eigen/Geometry>

#include "smfem/fem/linear_tet.hpp"
#include "smfem/geometry/aabb_tree.hpp"
#include "smfem/geometry/point_triangle.hpp"
#include "smfem/local/patch_support.hpp"

namespace smfem::local {
namespace {

// The barycentric coordinates of x in the tet with corners X (rows): the linear shape functions,
// phi(x) = e_0 + (dphi/dX) (x - X_0).
Eigen::Vector4d barycentric(const fem::TetCorners& X, const Eigen::Vector3d& x) {
  return Eigen::Vector4d::UnitX() + fem::linear_tet_dphi_dX(X) * (x - X.row(0).transpose());
}

// The distance from x to the tet (0 inside).
double distance_to_tet(const fem::TetCorners& X, const Eigen::Vector3d& x) {
  if (barycentric(X, x).minCoeff() >= 0.0) return 0.0;
  double closest = std::numeric_limits<double>::infinity();
  constexpr int kFaces[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  for (const auto& face : kFaces) {
    const Eigen::Vector3d y = geometry::closest_point_on_triangle(
        x, X.row(face[0]).transpose(), X.row(face[1]).transpose(), X.row(face[2]).transpose());
    closest = std::min(closest, (x - y).norm());
  }
  return closest;
}

}  // namespace

RenderDent::RenderDent(const full::FullModel& mesh, const Eigen::MatrixXd& render_rest)
    : mesh_vertices_(static_cast<int>(mesh.positions.rows())) {
  const auto tets = static_cast<int>(mesh.tets.rows());
  if (tets == 0) throw std::invalid_argument("RenderDent: the mesh has no tets");
  if (render_rest.cols() != 3)
    throw std::invalid_argument("RenderDent: render positions are nv x 3");
  std::vector<Eigen::AlignedBox3d> boxes;
  for (int t = 0; t < tets; ++t) {
    Eigen::AlignedBox3d box;
    for (int k = 0; k < 4; ++k) box.extend(mesh.positions.row(mesh.tets(t, k)).transpose());
    boxes.push_back(box);
  }
  const geometry::AabbTree tree(boxes);
  corners_.resize(render_rest.rows(), 4);
  barycentric_.resize(render_rest.rows(), 4);
  gradients_.resize(render_rest.rows(), 12);
  for (Eigen::Index v = 0; v < render_rest.rows(); ++v) {
    const Eigen::Vector3d x = render_rest.row(v).transpose();
    int nearest = 0;
    double best = std::numeric_limits<double>::infinity();
    tree.minimize([&](const Eigen::AlignedBox3d& box) { return box.exteriorDistance(x); },
                  [&](int t) {
                    const double distance = distance_to_tet(full::tet_corners(mesh, t), x);
                    if (distance < best) {
                      best = distance;
                      nearest = t;
                    }
                    return distance;
                  });
    const Eigen::Vector4d beta = barycentric(full::tet_corners(mesh, nearest), x).cwiseMax(0.0);
    corners_.row(v) = mesh.tets.row(nearest);
    barycentric_.row(v) = (beta / beta.sum()).transpose();
    const fem::TetCorners grad = fem::linear_tet_dphi_dX(full::tet_corners(mesh, nearest));
    for (int k = 0; k < 4; ++k) gradients_.block<1, 3>(v, 3 * k) = grad.row(k);
  }
}

void RenderDent::displacements(const PatchSet& patches, const sim::ReducedMatrix& C,
                               std::vector<float>& out) const {
  if (C.rows() != patches.patch_count()) {
    throw std::invalid_argument("RenderDent: one row of coefficients per patch");
  }
  // Each mesh vertex's dent, then the render vertices' by interpolation.
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> dent =
      Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>::Zero(mesh_vertices_, 3);
  for (int p = 0; p < patches.patch_count(); ++p) {
    const PatchSupport& support = patches.patch(p);
    const Eigen::Vector3d c = C.row(p).transpose();
    for (std::size_t k = 0; k < support.vertices.size(); ++k) {
      dent.row(support.vertices[k]) += (patches.rotation(p) * support.fields[k] * c).transpose();
    }
  }
  out.assign(static_cast<std::size_t>(kFloatsPerVertex * vertex_count()), 0.0F);
  for (Eigen::Index v = 0; v < corners_.rows(); ++v) {
    Eigen::Vector3d x = Eigen::Vector3d::Zero();
    Eigen::Matrix3d G = Eigen::Matrix3d::Zero();
    for (int k = 0; k < 4; ++k) {
      const Eigen::Vector3d corner = dent.row(corners_(v, k)).transpose();
      x += barycentric_(v, k) * corner;
      G += corner * gradients_.block<1, 3>(v, 3 * k);
    }
    float* at = out.data() + kFloatsPerVertex * v;
    for (int d = 0; d < 3; ++d) {
      at[d] = static_cast<float>(x(d));
      for (int e = 0; e < 3; ++e) at[3 + 3 * d + e] = static_cast<float>(G(d, e));
    }
  }
}

}  // namespace smfem::local
