#pragma once
// Displacement bases: linear maps q -> u = Phi q from k coordinates to the displacement of
// every vertex, x_v = X_v + u_v. Phi is 3|V| x k, unknown 3v + d (row) the coordinate d of
// vertex v; M is the lumped mass on each of a vertex's three coordinates. Linear modes and
// modal derivatives (linear_modes.hpp, modal_derivatives.hpp) are such bases, and so is the
// skinning subspace (basis.hpp) with q = u, which makes one projection serve all of them.
#include <vector>

#include <Eigen/Core>

#include "smfem/subspace/basis.hpp"

namespace smfem::subspace {

// M's diagonal: each vertex's mass on its three coordinates (3|V| from |V|).
Eigen::VectorXd unknown_mass(const Eigen::Ref<const Eigen::VectorXd>& mass);

// The skinning map of basis.hpp as a displacement basis: 3|V| x 12m, column 4m d + j (the
// order of u = [u_0; u_1; u_2]) holds B(:, j) on coordinate d. B: |V| x 4m (vertex_basis).
Eigen::MatrixXd skinning_displacement_basis(const Eigen::Ref<const RowMatrixXd>& B);

struct OrthonormalColumns {
  Eigen::MatrixXd basis;  // 3|V| x k', Phi^T M Phi = I
  std::vector<int> kept;  // for each column of basis, the input column it came from
};

// An M-orthonormal basis of the columns' span by modified Gram-Schmidt in the M inner product,
// each column orthogonalized twice ("twice is enough", Giraud et al. 2005) against those kept
// before it, in order. A column whose part outside their span has M-norm below drop_tolerance
// times its own M-norm is dropped: it is near-dependent, its remainder mostly rounding, and
// keeping it would make the reduced mass ill-conditioned. columns: 3|V| x k; mass: |V|.
OrthonormalColumns mass_orthonormalize(const Eigen::Ref<const Eigen::MatrixXd>& columns,
                                       const Eigen::Ref<const Eigen::VectorXd>& mass,
                                       double drop_tolerance = 1e-6);

// The coordinates q of the displacement in the span of Phi nearest to u in the mass norm:
// (Phi^T M Phi) q = Phi^T M u, solved by Cholesky (Phi must have independent columns).
// basis: 3|V| x k; mass: |V|; displacement: 3|V|.
Eigen::VectorXd mass_projection(const Eigen::Ref<const Eigen::MatrixXd>& basis,
                                const Eigen::Ref<const Eigen::VectorXd>& mass,
                                const Eigen::Ref<const Eigen::VectorXd>& displacement);

}  // namespace smfem::subspace
