#include "smfem/local/render_dent.hpp"

#include <stdexcept>

#include "smfem/fem/linear_tet.hpp"
#include "smfem/geometry/tet_locator.hpp"
#include "smfem/local/patch_support.hpp"

namespace smfem::local {

RenderDent::RenderDent(const full::FullModel& mesh, const Eigen::MatrixXd& render_rest)
    : mesh_vertices_(static_cast<int>(mesh.positions.rows())) {
  if (render_rest.cols() != 3)
    throw std::invalid_argument("RenderDent: render positions are nv x 3");
  const geometry::TetLocator locator(mesh.positions, mesh.tets);
  corners_.resize(render_rest.rows(), 4);
  barycentric_.resize(render_rest.rows(), 4);
  gradients_.resize(render_rest.rows(), 12);
  for (Eigen::Index v = 0; v < render_rest.rows(); ++v) {
    const geometry::TetLocator::Location where = locator.locate(render_rest.row(v).transpose());
    // Clamped outside the tets: the blend stays within the nearest tet's corners' dents.
    const Eigen::Vector4d beta = where.barycentric.cwiseMax(0.0);
    corners_.row(v) = mesh.tets.row(where.tet);
    barycentric_.row(v) = (beta / beta.sum()).transpose();
    const fem::TetCorners grad = fem::linear_tet_dphi_dX(full::tet_corners(mesh, where.tet));
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
