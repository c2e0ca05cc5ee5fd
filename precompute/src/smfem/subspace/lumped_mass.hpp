#pragma once
// Rest volumes and the scalar lumped mass matrix of a tet mesh.
#include <Eigen/Core>

#include "smfem/mesh/types.hpp"

namespace smfem::subspace {

// |T| rest volumes, each positive (a tet of non-positive volume is refused).
Eigen::VectorXd tet_rest_volumes(const mesh::TetMesh& mesh);

// The diagonal of the lumped mass matrix M_w, |V| entries: each tet t gives
// density_t * volume_t / 4 to each of its corners. density: |T|, positive (kg/m^3 in SI).
// A vertex used by no tet gets mass 0 (skinning_eigenmodes refuses it unless it is pinned).
// Throws std::invalid_argument on a size mismatch, a bad density or a bad tet.
Eigen::VectorXd lumped_mass(const mesh::TetMesh& mesh,
                            const Eigen::Ref<const Eigen::VectorXd>& density);

}  // namespace smfem::subspace
