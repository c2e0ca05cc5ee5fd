#pragma once
// Choosing the lattice spacing for a wanted number of tets, and predicting the count of a
// spacing before meshing (to refuse absurd resolutions early).
#include <cstddef>

#include "smfem/geometry/sdf.hpp"
#include "smfem/mesh/types.hpp"
#include "smfem/tetrahedralize/isosurface_stuffing.hpp"

namespace smfem::tetrahedralize {

// Volume of {sdf < 0}, counting the inside points of a grid of `samples` cells along the
// longest side of the shape's bounds (relative error ~ 1 / samples for smooth shapes; each
// sample is one SDF evaluation, which matters for mesh SDFs).
double estimate_volume(const geometry::Sdf& sdf, int samples = 48);

// About how many tets stuffing gives at spacing h: 12 V / h^3 (the lattice has 12 tets per
// cube; the cut boundary layer adds a few percent).
double estimate_tet_count(double volume, double edge_length);
double edge_length_for_tet_count(double volume, double tet_count);

// Stuffs once at the spacing the volume predicts, then once more at a corrected spacing if
// the count missed `target` by more than `tolerance` (relative).
mesh::TetMesh stuff_to_tet_count(const geometry::Sdf& sdf, double target, double tolerance,
                                 StuffingOptions options, StuffingReport* report = nullptr);

}  // namespace smfem::tetrahedralize
