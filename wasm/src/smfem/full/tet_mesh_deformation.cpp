#include "smfem/full/tet_mesh_deformation.hpp"

namespace smfem::full {

TetMeshDeformation::TetMeshDeformation(const ElementModel& model)
    : tets_(model.elements), shape_gradients_(model.shape_gradients), volumes_(model.weights) {}

TetMeshDeformation::TetMeshDeformation(const FullModel& model)
    : TetMeshDeformation(element_model(model)) {}

Matrix3<double> TetMeshDeformation::displacement_gradient(int tet,
                                                          const sim::ReducedMatrix& U) const {
  const fem::TetCorners& G = shape_gradients_[static_cast<std::size_t>(tet)];
  Matrix3<double> H = Matrix3<double>::Zero();
  for (int j = 0; j < 4; ++j) H.noalias() += U.row(tets_(tet, j)).transpose() * G.row(j);
  return H;
}

}  // namespace smfem::full
