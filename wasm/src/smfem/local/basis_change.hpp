#pragma once
// Coordinates carried across a change of a body's patches (paper 001 section 4.3; issue 26): when
// patches attach or leave, or their rotations are reset at a step, the body's displacement (and
// velocity) is projected onto the new basis in the mass norm,
//
//   U' = argmin sum_v m_v |x'_v(U') - x_v(U)|^2,
//
// x and x' the vertex displacements of the old and new extended coordinates (patch_set.hpp): the
// global part and every old patch's fields go to the nearest combination of the global part and
// the new patches' fields. The columns are not orthonormal, so this is a solve with the new
// basis's mass matrix [I_3 (x) mass_block, N'; N'^T, M'_c] (12m + 3P'). Kinetic energy never grows
// under it (a projection in the norm that measures it), and displacement the new basis holds is
// kept exactly (a patch kept, or none added, changes nothing).
#include <vector>

#include <Eigen/Core>

#include "smfem/local/patch_set.hpp"

namespace smfem::local {

// U: the old extended coordinates (from.rows() x 3); the result: the new (to.rows() x 3), under
// each set's current rotations. mass_block: the body's (4m x 4m, sim/model/reduced_model.hpp).
// Throws std::invalid_argument if the sizes do not agree.
sim::ReducedMatrix project_coordinates(const PatchSet& from, const sim::ReducedMatrix& U,
                                       const PatchSet& to, const Eigen::MatrixXd& mass_block);

// The same across a change of the patches' rotations (PatchSet::set_rotations at a step's start):
// U and Udot (set.rows() x 3 each), in place, from the basis whose fields were turned by
// from_rotations (one per patch) to the set's current one. A change of rotation alone would
// otherwise move the dent's vertices and change the body's momentum (the same c under another R).
// Throws std::invalid_argument if the sizes do not agree.
void project_across_rotations(const PatchSet& set,
                              const std::vector<Eigen::Matrix3d>& from_rotations,
                              sim::ReducedMatrix& U, sim::ReducedMatrix& Udot,
                              const Eigen::MatrixXd& mass_block);

}  // namespace smfem::local
