#pragma once
// Labelling the tets of a mesh by where they are: material regions come from the same shapes
// the geometry is built from.
#include <functional>

#include <Eigen/Core>

#include "smfem/geometry/sdf.hpp"
#include "smfem/mesh/types.hpp"

namespace smfem::tetrahedralize {

// |T| x 3: the centroid of every tet.
geometry::Points tet_centroids(const mesh::TetMesh& mesh);

// mesh.regions[t] = region_of(centroid of tet t).
void assign_regions(mesh::TetMesh& mesh,
                    const std::function<int(const Eigen::Vector3d& centroid)>& region_of);

}  // namespace smfem::tetrahedralize
