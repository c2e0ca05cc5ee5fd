#pragma once
// The triangle surface the page draws, tied to the simulation's tet mesh: each render vertex
// carries four tet-mesh vertex ids and barycentric weights, so its skinning weights are
//   w(v) = sum_k barycentric(v, k) * W.row(tet_vertices(v, k))
// (render_weights()). Three ways to get one:
//   - the tet mesh's own boundary: exact rows of W (ids (i, i, i, i), weights (1, 0, 0, 0));
//   - a given surface (e.g. the surface mesh a tet mesh was stuffed from) embedded in the tets;
//   - for SDF shapes, a smoother surface: the boundary of a finer stuffing of the same SDF,
//     embedded in the simulation tets. Its vertices lie on the isosurface (cut points and
//     warped vertices), its triangles have the stuffing's bounded angles, and no second
//     surface extractor (marching cubes) is needed. Worth it when the simulation mesh is
//     coarse; for fine meshes the boundary alone looks as good.
//   - for a union of primitives (boxes, cylinders, capsules, ellipsoids), their exact surface
//     (primitive_surface.hpp) embedded in the tets: flat faces and sharp edges, which
//     stuffing cuts off, with the primitives' own normals.
#include <vector>

#include <Eigen/Core>

#include "smfem/geometry/primitives.hpp"
#include "smfem/geometry/sdf.hpp"
#include "smfem/mesh/types.hpp"
#include "smfem/render/tet_embedding.hpp"

namespace smfem::render {

struct RenderSurface {
  mesh::Vertices vertices;    // |Vr| x 3 rest positions
  mesh::Triangles triangles;  // |Fr| x 3, counter-clockwise seen from outside
  Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor> tet_vertices;  // |Vr| x 4
  Barycentric barycentric;                                              // |Vr| x 4, rows sum to 1
  mesh::Vertices normals;  // |Vr| x 3 unit rest normals, or 0 x 3: the page derives them
};

RenderSurface boundary_render_surface(const mesh::TetMesh& mesh);

// The surface's triangles unchanged, its vertices embedded in `mesh` (see embed_points()).
RenderSurface embedded_render_surface(const mesh::TetMesh& mesh, const mesh::SurfaceMesh& surface);

// The boundary of stuff_isosurface(sdf, edge_length), embedded in `mesh`.
RenderSurface smooth_render_surface(const geometry::Sdf& sdf, double edge_length,
                                    const mesh::TetMesh& mesh);

// The union of `primitives` drawn exactly (union_surface() at `spacing`), embedded in `mesh`.
// Vertices where stuffing cut a corner or an edge off lie slightly outside the tets and take
// extrapolated coordinates in the nearest tet (embed_points()).
RenderSurface primitive_render_surface(const std::vector<geometry::Primitive>& primitives,
                                       double spacing, const mesh::TetMesh& mesh);

// The mean edge length of the mesh's boundary triangles: a render surface this fine follows
// the tets' piecewise linear deformation (the bends between tets) as closely as the boundary.
double boundary_edge_length(const mesh::TetMesh& mesh);

// |Vr| x m skinning weights from the tet mesh's |V| x m weights.
Eigen::MatrixXd render_weights(const RenderSurface& surface,
                               Eigen::Ref<const Eigen::MatrixXd> tet_weights);

}  // namespace smfem::render
