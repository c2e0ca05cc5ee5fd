#pragma once
// The boundary of a tet mesh: the faces used by exactly one tet, oriented outward, over the
// boundary's own vertex numbering. The bake's render surface and a body's collision surface
// (sim/contact/contact_sampling.hpp) both start from it.
#include <Eigen/Core>

namespace smfem::geometry {

// The face opposite corner k of a positive tet, counter-clockwise seen from outside.
inline constexpr int kTetFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};

using TetIndices = Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor>;
using TriangleIndices = Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>;

struct BoundaryFaces {
  Eigen::VectorXi vertex;     // |Vb|: the tet-mesh vertex id of each boundary vertex, ascending
  TriangleIndices triangles;  // |F| x 3 into vertex, counter-clockwise seen from outside
  Eigen::VectorXi face_tet;   // |F|: the tet each face belongs to
};

// Faces come in tet order (the tets must be positively oriented). Throws std::invalid_argument
// when a face is shared by more than two tets (the mesh does not conform).
BoundaryFaces boundary_faces(const TetIndices& tets, Eigen::Index vertex_count);

}  // namespace smfem::geometry
