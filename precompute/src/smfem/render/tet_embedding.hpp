#pragma once
// Where points sit in a tet mesh: the containing tet and barycentric coordinates, so anything
// defined per tet-mesh vertex (skinning weights) interpolates to them; each point located by
// geometry::TetLocator (wasm/src/smfem/geometry/tet_locator.hpp), on the bake's threads.
#include <Eigen/Core>

#include "smfem/geometry/sdf.hpp"
#include "smfem/mesh/types.hpp"

namespace smfem::render {

using Barycentric = Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor>;

struct TetEmbedding {
  Eigen::VectorXi tet;       // |P|: the tet holding each point, or the nearest tet
  Barycentric barycentric;   // |P| x 4: coordinates in that tet (sum 1)
  Eigen::VectorXd distance;  // |P|: 0 when inside the mesh, else the distance to that tet
};

// For a point inside the mesh, the containing tet (on a shared face, the one where the point
// is deepest), with every coordinate in [-1e-9, 1 + 1e-9]. For a point outside, the nearest
// tet, with coordinates extrapolated (some negative) so that sum_k b_k X_k = p still holds:
// deformations extend smoothly to a render surface slightly outside the tets.
// Throws std::invalid_argument for an empty mesh.
TetEmbedding embed_points(const mesh::TetMesh& mesh, Eigen::Ref<const geometry::Points> points);

}  // namespace smfem::render
