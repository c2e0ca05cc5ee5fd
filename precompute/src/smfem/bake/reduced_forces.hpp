#pragma once
// The recipe's forces in reduced coordinates, so the page can apply them without the tet
// mesh. With U the 4m x 3 matrix whose column d is u_d (basis.hpp), a force region R and its
// vertices' masses m_v and basis vectors b_v:
//   - periodic (acceleration a(t) on R): the reduced force is mass_vector a(t)^T;
//   - twist, pull (zero-length springs of stiffness k per unit mass to targets t_v): the energy
//     k/2 sum_R m_v |X_v + U^T b_v - t_v|^2 has the gradient k (mass_block U - rest_offset).
#include <vector>

#include <Eigen/Core>

#include "smfem/scene/build_scene.hpp"
#include "smfem/subspace/basis.hpp"

namespace smfem::bake {

struct ReducedForce {
  Eigen::VectorXd mass_vector;  // 4m: sum_R m_v b_v
  Eigen::MatrixXd mass_block;   // 4m x 4m: sum_R m_v b_v b_v^T (springs only, else empty)
  Eigen::MatrixXd rest_offset;  // 4m x 3: sum_R m_v b_v (t_v - X_v)^T (springs only)
};

// basis: |V| x 4m (vertex_basis); mass: |V| lumped masses; one result per force, in order.
std::vector<ReducedForce> reduced_forces(const std::vector<scene::SceneForce>& forces,
                                         const mesh::TetMesh& mesh,
                                         const Eigen::Ref<const subspace::RowMatrixXd>& basis,
                                         const Eigen::Ref<const Eigen::VectorXd>& mass);

}  // namespace smfem::bake
