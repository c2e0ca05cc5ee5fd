#pragma once
// Reading a mesh file of any supported format, chosen by its extension (in any case).
//
//   tetrahedral: .mesh (MEDIT), .msh (Gmsh 2.2 / 4.1 ASCII), .node or .ele (TetGen pair)
//   surface:     .obj, .stl (ASCII or binary), .off, .ply (ASCII or binary)
//
// Each format's own reader (medit.hpp, gmsh.hpp, ...) documents what it accepts.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "smfem/mesh/types.hpp"

namespace smfem::mesh {

// Throws MeshError for an unsupported extension (listing the supported ones) and for any
// problem in the file.
TetMesh read_tet_mesh(const std::filesystem::path& path, ReadReport* report = nullptr);
SurfaceMesh read_surface_mesh(const std::filesystem::path& path, ReadReport* report = nullptr);

// read_surface_mesh of a file's content, the format chosen by name's extension (name also names
// the file in messages): for callers that hold the bytes, such as the module's thin recipes.
SurfaceMesh parse_surface_mesh(std::string_view content, const std::filesystem::path& name,
                               ReadReport* report = nullptr);

// read_tet_mesh of a file's content (.mesh, .msh; a TetGen mesh is two files and is refused).
TetMesh parse_tet_mesh(std::string_view content, const std::filesystem::path& name,
                       ReadReport* report = nullptr);

// What a reader skipped or fixed in `file`, one warning each naming the file by its name ("box.obj:
// ignored ..."): its notes, then the tets turned over and the vertices left out.
std::vector<std::string> report_warnings(const std::filesystem::path& file,
                                         const ReadReport& report);

// Whether read_tet_mesh, respectively read_surface_mesh, takes the path's extension.
bool is_tet_mesh_file(const std::filesystem::path& path);
bool is_surface_mesh_file(const std::filesystem::path& path);

}  // namespace smfem::mesh
