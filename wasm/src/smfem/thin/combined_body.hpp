#pragma once
// Several bodies (shells, rods, volumes) as one, for one full-space solver: paper 002's point
// that volumes, shells and rods are the same elements to its mixed step (its figures 1 and 2).
// The bodies do not touch one another (no contact between them); each keeps its elements,
// materials, masses, pins and bending, renumbered: every body's vertices first, in body order,
// then every body's directors.
#include <vector>

#include "smfem/thin/thin_body.hpp"

namespace smfem::thin {

// The bodies as one (at least one). Rods' directors are relaxed after each mixed iteration if any
// body asks for it (full/local_node_relaxation.hpp). The first body's solver defaults are kept.
ThinBody combine_bodies(const std::vector<ThinBody>& bodies);

}  // namespace smfem::thin
