#pragma once
// MEDIT / INRIA ".mesh" text files (the ASCII form of libMeshb), as written by MMG, TetWild,
// CGAL and the mixed-FEM reference code.
//
// Free-format tokens: keywords (case-insensitive) each followed by a count and that many
// entries; '#' starts a comment; "End" closes the file. Indices are 1-based; each entity ends
// with an integer reference label, which becomes the region of a tet. Only Vertices and
// Tetrahedra are kept; every other section of known entry size (Triangles, Edges, Corners,
// Ridges, Normals, ...) is skipped by its count. A section of unknown entry size is an error,
// since it cannot be skipped safely.
#include <filesystem>
#include <string>
#include <string_view>

#include "smfem/mesh/types.hpp"

namespace smfem::mesh {

// Reads a .mesh file; throws MeshError ("<file>:<line>: <problem>").
TetMesh read_medit_mesh(const std::filesystem::path& path, ReadReport* report = nullptr);

// The same from the file's content; display_name names it in messages.
TetMesh parse_medit_mesh(std::string_view content, const std::string& display_name,
                         ReadReport* report = nullptr);

// The mesh as .mesh text that parse_medit_mesh reads back exactly (17 significant digits; the
// regions as the tets' references), `comment` (one line) first as a '#' comment.
std::string format_medit_mesh(const TetMesh& mesh, const std::string& comment);

}  // namespace smfem::mesh
