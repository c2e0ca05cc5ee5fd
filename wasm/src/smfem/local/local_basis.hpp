#pragma once
// Local basis functions of a loaded surface patch (paper 001, section 4; issue 26): three
// displacement fields over a body's rest mesh, the half-space's response to a force spread over
// the patch (half_space.hpp) along each axis of the patch's frame, summed over the patch's
// vertices weighted by their areas (paper 001 eq. 10), and truncated smoothly at the support
// radius. One frame serves the whole patch (paper 001 builds each vertex's response in that
// vertex's own normal frame). Computed in the rest frame; turning them with the body as it
// deforms is the stepper's, not built yet (docs/local.md).
//
// The Green's tensor is singular at each patch vertex itself; there it is replaced by its plain
// mean over the centroids of the tets around the vertex (paper 001 takes a weighted mean). Mesh
// vertices above the patch's tangent plane (a concave corner, a part across a gap, a patch round
// an edge) take the value at their mirror image in the plane: the solution's continuation above
// it grows without bound towards the outward normal.
#include <vector>

#include <Eigen/Core>

#include "smfem/local/half_space.hpp"

namespace smfem::local {

using MeshPositions = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;  // nv x 3, m
using MeshTets = Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor>;          // T x 4, 0-based

struct LoadPatch {
  std::vector<int> vertices;  // surface vertices of the rest mesh, distinct
  std::vector<double> areas;  // m^2 each (the vertex's share of the surface), positive
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();  // m: the truncation's centre
  // Columns: two tangents and the inward normal, orthonormal and right-handed (a rotation).
  Eigen::Matrix3d frame = Eigen::Matrix3d::Identity();
};

// The patch's three fields on the vertices within `support` (m) of its centre, the others zero.
// Column a of displacements[k] is the displacement (m) of vertices[k] per unit coefficient of
// field a (a = 0, 1: the force along the frame's tangents; 2: along its normal, into the body).
// Each field is scaled so that its largest vertex displacement is 1 m.
struct LocalColumns {
  std::vector<int> vertices;  // ascending
  std::vector<Eigen::Matrix3d> displacements;
};

// Throws std::invalid_argument naming the problem: an empty patch, areas that do not match its
// vertices or are not positive, a vertex or tet corner out of range, a frame that is not a
// rotation, a support that is not positive, a rest position that is not finite, or a material
// out of range (half_space.hpp). The shear modulus scales every field alike, so it cancels in
// the scaling to 1 m; Poisson's ratio shapes them.
LocalColumns patch_columns(const MeshPositions& rest, const MeshTets& tets, const LoadPatch& patch,
                           const HalfSpaceMaterial& material, double support);

}  // namespace smfem::local
