#include "smfem/subspace/elastic_laplacian.hpp"

#include <vector>

#include "smfem/energies/lame.hpp"
#include "smfem/fem/linear_tet.hpp"
#include "smfem/subspace/detail/check_inputs.hpp"

namespace smfem::subspace {

Eigen::SparseMatrix<double> elastic_laplacian(
    const mesh::TetMesh& mesh, const Eigen::Ref<const Eigen::VectorXd>& youngs_modulus,
    const Eigen::Ref<const Eigen::VectorXd>& poisson_ratio) {
  const char* caller = "elastic_laplacian";
  const Eigen::Index tet_count = mesh.tets.rows();
  detail::check_materials(caller, tet_count, youngs_modulus, poisson_ratio);
  detail::check_tet_mesh(caller, mesh);

  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(tet_count) * 16);
  for (Eigen::Index t = 0; t < tet_count; ++t) {
    fem::TetCorners X;
    for (int j = 0; j < 4; ++j) X.row(j) = mesh.vertices.row(mesh.tets(t, j));
    const fem::TetCorners G = fem::linear_tet_dphi_dX(X);
    const auto [mu, lambda] =
        energies::lame_from_young_poisson(youngs_modulus(t), poisson_ratio(t));
    const Eigen::Matrix4d H_t =
        (fem::linear_tet_volume(X) * (4.0 * mu + lambda)) * G * G.transpose();
    // One value per unordered pair, so that H is symmetric bit for bit.
    for (int a = 0; a < 4; ++a) {
      entries.emplace_back(mesh.tets(t, a), mesh.tets(t, a), H_t(a, a));
      for (int b = 0; b < a; ++b) {
        entries.emplace_back(mesh.tets(t, a), mesh.tets(t, b), H_t(a, b));
        entries.emplace_back(mesh.tets(t, b), mesh.tets(t, a), H_t(a, b));
      }
    }
  }
  const auto vertex_count = mesh.vertices.rows();
  Eigen::SparseMatrix<double> H(vertex_count, vertex_count);
  H.setFromTriplets(entries.begin(), entries.end());
  return H;
}

}  // namespace smfem::subspace
