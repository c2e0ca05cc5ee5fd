#pragma once
// The boundary of a tet mesh as a triangle surface with its positions
// (geometry/boundary_faces.hpp).
#include <Eigen/Core>

#include "smfem/mesh/types.hpp"

namespace smfem::render {

struct BoundarySurface {
  mesh::Vertices vertices;     // |Vb| x 3, only the tet-mesh vertices the boundary uses
  mesh::Triangles triangles;   // |F| x 3 into vertices, counter-clockwise seen from outside
  Eigen::VectorXi tet_vertex;  // |Vb|: the tet-mesh vertex id of each boundary vertex
  Eigen::VectorXi face_tet;    // |F|: the tet each face belongs to
};

// Faces are oriented outward (the tets must be positively oriented) and boundary vertices
// keep the order of their tet-mesh ids. Throws std::invalid_argument when a face is shared by
// more than two tets (the mesh does not conform).
BoundarySurface boundary_surface(const mesh::TetMesh& mesh);

}  // namespace smfem::render
