#pragma once
// The loaded surface of a body grouped into patches (paper 001, section 4.2; issue 26): each patch
// gets the three local fields of local_basis.hpp, so the patches bound their count. The active
// surface vertices (loaded, or still moving in their patch's fields: the caller decides) are split
// into connected components over the surface's triangles, and each component by k-means (on the
// rest positions, weighted by area) into a number of patches in proportion to its area, about
// `budget` in all (paper 001: budget C r for r global modes; local_deformations.hpp chooses C)
// and at least one per component.
// Each patch's frame: the inward normal of its area-weighted outward normals (of its largest
// vertex's where they mostly cancel, as round a thin part), and two tangents.
#include <vector>

#include <Eigen/Core>

#include "smfem/geometry/boundary_faces.hpp"
#include "smfem/local/local_basis.hpp"

namespace smfem::local {

// surface: the rest mesh's boundary triangles in its own vertex ids, counter-clockwise seen from
// outside (geometry::boundary_faces, mapped through its vertex ids). active: surface vertices,
// in any order, repeats ignored. The result is ordered by each patch's lowest vertex, and is the
// same for any order of `active`. Throws std::invalid_argument naming the problem: a budget below
// 1, an active vertex out of range or not on the surface, a surface triangle out of range, a
// rest position that is not finite, a patch with no inward direction (its normals all cancel).
std::vector<LoadPatch> group_into_patches(const MeshPositions& rest,
                                          const geometry::TriangleIndices& surface,
                                          const std::vector<int>& active, int budget);

}  // namespace smfem::local
