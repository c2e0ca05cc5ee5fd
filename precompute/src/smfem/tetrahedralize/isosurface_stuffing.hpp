#pragma once
// Isosurface stuffing (Labelle and Shewchuk, SIGGRAPH 2007): a tet mesh of the inside of a
// signed distance function with bounded dihedral angles, from a body-centred cubic lattice.
//
// 1. The SDF is sampled at every lattice vertex (bcc_lattice.hpp) of spacing h.
// 2. On every edge whose ends have strictly opposite signs, the crossing ("cut point") is
//    found by regula falsi on the SDF along the edge.
// 3. Warping: a vertex closer to a cut point on one of its edges than alpha times that edge's
//    length (alpha_long on long edges, alpha_short on short ones) moves onto the nearest
//    such cut point and counts as on the surface; cut points on its edges are dropped.
// 4. Each lattice tet is filled by a stencil chosen by the signs of its corners: kept whole
//    when no corner is outside; otherwise the part inside the cut points becomes 1 to 3 tets
//    (detail/stencils.hpp). Faces shared by two lattice tets are split the same way on both
//    sides, so the mesh conforms and its boundary is closed.
//
// With the paper's alpha_long = 0.24999, alpha_short = 0.41189 every dihedral angle lies in
// [10.7784, 164.7642] degrees according to the paper's proof for its stencils. The stencils
// here are derived independently (detail/stencils.cpp says how); the tests check the mesh
// quality against kMinDihedralBoundDeg and kMaxDihedralBoundDeg, the bounds measured for
// them over randomized and adversarial surfaces.
#include <cstddef>

#include "smfem/geometry/sdf.hpp"
#include "smfem/mesh/types.hpp"
#include "smfem/tetrahedralize/tet_quality.hpp"

namespace smfem::tetrahedralize {

inline constexpr double kMinDihedralBoundDeg = 10.7;
inline constexpr double kMaxDihedralBoundDeg = 164.8;

struct StuffingOptions {
  double edge_length = 0.0;  // h: the lattice spacing (long edges; short ones are h sqrt(3)/2)
  double alpha_long = 0.24999;
  double alpha_short = 0.41189;
};

struct StuffingReport {
  std::size_t lattice_vertices = 0;
  std::size_t cut_points = 0;      // kept as mesh vertices
  std::size_t warped_vertices = 0;
  TetQuality quality;
};

// Throws std::invalid_argument for a bad edge length or alphas (each in (0, 1/2)), or when
// the lattice would exceed kMaxLatticeVertices; geometry::GeometryError when the shape is
// empty or contains no tet at this edge length. Regions are all 0 (see regions.hpp).
inline constexpr std::size_t kMaxLatticeVertices = 200'000'000;
mesh::TetMesh stuff_isosurface(const geometry::Sdf& sdf, const StuffingOptions& options,
                               StuffingReport* report = nullptr);

}  // namespace smfem::tetrahedralize
