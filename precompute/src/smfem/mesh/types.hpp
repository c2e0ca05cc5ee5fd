#pragma once
// What the mesh readers return. Every reader yields 0-based indices and checked geometry, so
// the rest of the precompute tool never sees a file's numbering or its mistakes.
#include <cstddef>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace smfem::mesh {

// |V| by 3, one vertex per row (x y z), row-major so that a row is contiguous.
using Vertices = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;

// |T| by 4, 0-based rows into Vertices.
using Tets = Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor>;

// |F| by 3, 0-based rows into Vertices.
using Triangles = Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>;

// A volume mesh of linear tetrahedra.
// Every tet is positively oriented: det[x1 - x0, x2 - x0, x3 - x0] > 0 (the readers swap two
// corners of inverted tets and reject degenerate ones), and its four corners are distinct.
struct TetMesh {
  Vertices vertices;
  Tets tets;
  // |T| labels, the file's per-element region (MEDIT reference, Gmsh physical group, TetGen
  // region attribute); 0 where the format has none.
  Eigen::VectorXi regions;
};

// A triangle surface. Polygons of the file are fan-triangulated around their first corner,
// keeping the file's winding; every triangle has three distinct corners.
struct SurfaceMesh {
  Vertices vertices;
  Triangles triangles;
  // |F| labels, one per triangle (a polygon's label on each of its triangles); 0 if none.
  Eigen::VectorXi regions;
};

// What a reader fixed or ignored, for the tool to print. Readers reset it before reading.
struct ReadReport {
  std::size_t reoriented_tets = 0;        // inverted tets made positive by swapping two corners
  std::size_t unreferenced_vertices = 0;  // kept in Vertices, used by no element
  std::vector<std::string> notes;         // one plain sentence per skipped or ignored thing
};

}  // namespace smfem::mesh
