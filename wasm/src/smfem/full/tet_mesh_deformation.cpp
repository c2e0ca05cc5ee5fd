#include "smfem/full/tet_mesh_deformation.hpp"

namespace smfem::full {

TetMeshDeformation::TetMeshDeformation(const FullModel& model)
    : tets_(model.tets),
      shape_gradients_(static_cast<std::size_t>(model.tet_count())),
      volumes_(model.tet_count()) {
  for (int t = 0; t < model.tet_count(); ++t) {
    fem::TetCorners X;
    for (int j = 0; j < 4; ++j) X.row(j) = model.positions.row(tets_(t, j));
    shape_gradients_[static_cast<std::size_t>(t)] = fem::linear_tet_dphi_dX(X);
    volumes_(t) = fem::linear_tet_volume(X);
  }
}

Matrix3<double> TetMeshDeformation::displacement_gradient(int tet,
                                                          const sim::ReducedMatrix& U) const {
  const fem::TetCorners& G = shape_gradients_[static_cast<std::size_t>(tet)];
  Matrix3<double> H = Matrix3<double>::Zero();
  for (int j = 0; j < 4; ++j) H.noalias() += U.row(tets_(tet, j)).transpose() * G.row(j);
  return H;
}

}  // namespace smfem::full
