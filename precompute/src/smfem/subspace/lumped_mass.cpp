#include "smfem/subspace/lumped_mass.hpp"

#include "smfem/fem/linear_tet.hpp"
#include "smfem/subspace/detail/check_inputs.hpp"

namespace smfem::subspace {

Eigen::VectorXd tet_rest_volumes(const mesh::TetMesh& mesh) {
  detail::check_tet_mesh("tet_rest_volumes", mesh);
  Eigen::VectorXd volumes(mesh.tets.rows());
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    fem::TetCorners X;
    for (int j = 0; j < 4; ++j) X.row(j) = mesh.vertices.row(mesh.tets(t, j));
    volumes(t) = fem::linear_tet_volume(X);
  }
  return volumes;
}

Eigen::VectorXd lumped_mass(const mesh::TetMesh& mesh,
                            const Eigen::Ref<const Eigen::VectorXd>& density) {
  detail::check_size("lumped_mass", "density", density.size(), mesh.tets.rows());
  detail::check_positive("lumped_mass", "density of tet", density);
  const Eigen::VectorXd volumes = tet_rest_volumes(mesh);
  Eigen::VectorXd mass = Eigen::VectorXd::Zero(mesh.vertices.rows());
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    const double corner_mass = 0.25 * density(t) * volumes(t);
    for (int j = 0; j < 4; ++j) mass(mesh.tets(t, j)) += corner_mass;
  }
  return mass;
}

}  // namespace smfem::subspace
