#pragma once
// Filling one lattice tet with the output tets its corner signs call for.
#include <array>

#include "smfem/tetrahedralize/detail/stuffing_state.hpp"

namespace smfem::tetrahedralize::detail {

// tet: {b0, b1, r0, r1} as BccLattice::for_each_tet gives it. Appends tets (and the mesh
// vertices they need) to state; nothing when the tet lies outside.
void fill_lattice_tet(StuffingState& state, const std::array<int, 4>& tet);

}  // namespace smfem::tetrahedralize::detail
