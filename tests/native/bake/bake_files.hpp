#pragma once
// Small input files for the bake tests, written into a test's scratch folder.
#include <filesystem>
#include <fstream>
#include <string>

#include "smfem/mesh/medit.hpp"
#include "smfem/mesh/types.hpp"
#include "support/text_file.hpp"

namespace smfem::test {

// A MEDIT .mesh file of the tet mesh (1-based, regions as references).
inline std::filesystem::path write_medit(const std::filesystem::path& file,
                                         const mesh::TetMesh& mesh) {
  std::ofstream(file) << mesh::format_medit_mesh(mesh, "a bake test's mesh");
  return file;
}

}  // namespace smfem::test
