#include "smfem/displacement/basis_deformation.hpp"

#include <numeric>

namespace smfem::displacement {

Quadrature exact_quadrature(const full::TetMeshDeformation& mesh) {
  Quadrature quadrature{std::vector<int>(static_cast<std::size_t>(mesh.tet_count())),
                        mesh.volumes()};
  std::iota(quadrature.tets.begin(), quadrature.tets.end(), 0);
  return quadrature;
}

BasisDeformation::BasisDeformation(const full::TetMeshDeformation& mesh, const BasisRows& basis,
                                   const Quadrature& quadrature)
    : mesh_(mesh), basis_(basis), quadrature_(quadrature) {}

Matrix3<double> BasisDeformation::displacement_gradient(int point,
                                                        const sim::ReducedMatrix& U) const {
  const int tet = quadrature_.tets[static_cast<std::size_t>(point)];
  const fem::TetCorners& G = mesh_.shape_gradients(tet);
  Matrix3<double> H = Matrix3<double>::Zero();
  for (int j = 0; j < 4; ++j) {
    const Eigen::Vector3d u = basis_.middleRows<3>(3 * mesh_.tets()(tet, j)) * U.col(0);
    H.noalias() += u * G.row(j);
  }
  return H;
}

void BasisDeformation::jacobian(int point, TetJacobian& out) const {
  const int tet = quadrature_.tets[static_cast<std::size_t>(point)];
  const fem::TetCorners& G = mesh_.shape_gradients(tet);
  out.setZero(9, basis_.cols());
  for (int j = 0; j < 4; ++j) {
    const auto rows = basis_.middleRows<3>(3 * mesh_.tets()(tet, j));
    for (int c = 0; c < 3; ++c) out.middleRows<3>(3 * c).noalias() += G(j, c) * rows;
  }
}

}  // namespace smfem::displacement
