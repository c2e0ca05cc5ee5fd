#include "smfem/subspace/elastic_stiffness.hpp"

#include <vector>

#include "smfem/energies/lame.hpp"
#include "smfem/fem/linear_tet.hpp"
#include "smfem/subspace/detail/check_inputs.hpp"

namespace smfem::subspace {

Eigen::SparseMatrix<double> elastic_stiffness(
    const mesh::TetMesh& mesh, const Eigen::Ref<const Eigen::VectorXd>& youngs_modulus,
    const Eigen::Ref<const Eigen::VectorXd>& poisson_ratio) {
  const char* caller = "elastic_stiffness";
  const Eigen::Index tet_count = mesh.tets.rows();
  detail::check_materials(caller, tet_count, youngs_modulus, poisson_ratio);
  detail::check_tet_mesh(caller, mesh);

  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(tet_count) * 144);
  for (Eigen::Index t = 0; t < tet_count; ++t) {
    fem::TetCorners X;
    for (int j = 0; j < 4; ++j) X.row(j) = mesh.vertices.row(mesh.tets(t, j));
    const fem::TetCorners G = fem::linear_tet_dphi_dX(X);
    const double volume = fem::linear_tet_volume(X);
    const auto [mu, lambda] =
        energies::lame_from_young_poisson(youngs_modulus(t), poisson_ratio(t));
    // One value per unordered pair of unknowns (r >= c), so that K is symmetric bit for bit.
    for (int r = 0; r < 12; ++r) {
      const int a = r / 3;
      const int p = r % 3;
      for (int c = 0; c <= r; ++c) {
        const int b = c / 3;
        const int q = c % 3;
        const double value = volume * (mu * (p == q ? G.row(a).dot(G.row(b)) : 0.0) +
                                       mu * G(a, q) * G(b, p) + lambda * G(a, p) * G(b, q));
        const int row = 3 * mesh.tets(t, a) + p;
        const int col = 3 * mesh.tets(t, b) + q;
        entries.emplace_back(row, col, value);
        if (r != c) entries.emplace_back(col, row, value);
      }
    }
  }
  const auto unknowns = 3 * mesh.vertices.rows();
  Eigen::SparseMatrix<double> K(unknowns, unknowns);
  K.setFromTriplets(entries.begin(), entries.end());
  return K;
}

}  // namespace smfem::subspace
