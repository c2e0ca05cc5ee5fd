#pragma once
// Gmsh ".msh" ASCII files, format versions 2.2 (2.0 and 2.1 read alike) and 4.1.
//
// Reads $MeshFormat, $Nodes, $Elements and, in 4.1, $Entities; skips $PhysicalNames and every
// other section. Keeps the 4-node tetrahedra (element type 4) and skips the other element
// types (points, lines, triangles, ...), counting them in the report's notes. Node tags may
// have gaps and any order. Region of a tet: in 2.2 its first tag (the physical group); in 4.1
// the first physical tag of its volume entity from $Entities, else the entity tag.
// Binary .msh files are refused with a message saying to save as ASCII.
#include <filesystem>
#include <string>
#include <string_view>

#include "smfem/mesh/types.hpp"

namespace smfem::mesh {

// Reads a .msh file; throws MeshError ("<file>:<line>: <problem>").
TetMesh read_gmsh_mesh(const std::filesystem::path& path, ReadReport* report = nullptr);

// The same from the file's content; display_name names it in messages.
TetMesh parse_gmsh_mesh(std::string_view content, const std::string& display_name,
                        ReadReport* report = nullptr);

}  // namespace smfem::mesh
