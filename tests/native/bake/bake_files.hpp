#pragma once
// Small input files for the bake tests, written into a test's scratch folder.
#include <filesystem>
#include <fstream>
#include <string>

#include "smfem/mesh/types.hpp"
#include "support/text_file.hpp"

namespace smfem::test {

// A MEDIT .mesh file of the tet mesh (1-based, regions as references).
inline std::filesystem::path write_medit(const std::filesystem::path& file,
                                         const mesh::TetMesh& mesh) {
  std::ofstream out(file);
  out.precision(17);
  out << "MeshVersionFormatted 2\nDimension 3\nVertices\n" << mesh.vertices.rows() << "\n";
  for (Eigen::Index v = 0; v < mesh.vertices.rows(); ++v) {
    out << mesh.vertices(v, 0) << " " << mesh.vertices(v, 1) << " " << mesh.vertices(v, 2)
        << " 0\n";
  }
  out << "Tetrahedra\n" << mesh.tets.rows() << "\n";
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    for (int k = 0; k < 4; ++k) out << mesh.tets(t, k) + 1 << " ";
    out << mesh.regions(t) << "\n";
  }
  out << "End\n";
  return file;
}

}  // namespace smfem::test
