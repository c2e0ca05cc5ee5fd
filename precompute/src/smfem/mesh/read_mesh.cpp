#include "smfem/mesh/read_mesh.hpp"

#include <string>

#include "smfem/mesh/detail/extension.hpp"
#include "smfem/mesh/detail/file_bytes.hpp"
#include "smfem/mesh/error.hpp"
#include "smfem/mesh/gmsh.hpp"
#include "smfem/mesh/medit.hpp"
#include "smfem/mesh/obj.hpp"
#include "smfem/mesh/off.hpp"
#include "smfem/mesh/ply.hpp"
#include "smfem/mesh/stl.hpp"
#include "smfem/mesh/tetgen.hpp"

namespace smfem::mesh {
namespace {

constexpr const char* tet_extensions = ".mesh, .msh, .node, .ele";
constexpr const char* surface_extensions = ".obj, .stl, .off, .ply";

[[noreturn]] void fail_unsupported(const std::filesystem::path& path, const char* kind,
                                   const char* supported, const char* other_kind,
                                   bool is_other_kind) {
  const std::string extension = path.extension().string();
  std::string problem =
      extension.empty()
          ? "no file extension to tell a " + std::string(kind) + " mesh format by"
          : "unsupported " + std::string(kind) + " mesh extension '" + extension + "'";
  problem += " (supported: " + std::string(supported) + ")";
  if (is_other_kind) problem += "; '" + extension + "' is a " + other_kind + " mesh format";
  throw MeshError::in_file(path.string(), problem);
}

}  // namespace

bool is_tet_mesh_file(const std::filesystem::path& path) {
  const std::string extension = detail::lowercase_extension(path);
  return extension == ".mesh" || extension == ".msh" || extension == ".node" || extension == ".ele";
}

bool is_surface_mesh_file(const std::filesystem::path& path) {
  const std::string extension = detail::lowercase_extension(path);
  return extension == ".obj" || extension == ".stl" || extension == ".off" || extension == ".ply";
}

TetMesh read_tet_mesh(const std::filesystem::path& path, ReadReport* report) {
  const std::string extension = detail::lowercase_extension(path);
  if (extension == ".mesh") return read_medit_mesh(path, report);
  if (extension == ".msh") return read_gmsh_mesh(path, report);
  if (extension == ".node" || extension == ".ele") return read_tetgen_mesh(path, report);
  fail_unsupported(path, "tetrahedral", tet_extensions, "surface", is_surface_mesh_file(path));
}

TetMesh parse_tet_mesh(std::string_view content, const std::filesystem::path& name,
                       ReadReport* report) {
  const std::string extension = detail::lowercase_extension(name);
  if (extension == ".mesh") return parse_medit_mesh(content, name.string(), report);
  if (extension == ".msh") return parse_gmsh_mesh(content, name.string(), report);
  if (extension == ".node" || extension == ".ele") {
    throw MeshError::in_file(name.string(),
                             "a TetGen mesh is two files (.node and .ele): give one .mesh or .msh");
  }
  fail_unsupported(name, "tetrahedral", ".mesh, .msh", "surface", is_surface_mesh_file(name));
}

SurfaceMesh read_surface_mesh(const std::filesystem::path& path, ReadReport* report) {
  if (!is_surface_mesh_file(path)) {
    fail_unsupported(path, "surface", surface_extensions, "tetrahedral", is_tet_mesh_file(path));
  }
  return parse_surface_mesh(detail::read_file_bytes(path), path, report);
}

SurfaceMesh parse_surface_mesh(std::string_view content, const std::filesystem::path& name,
                               ReadReport* report) {
  const std::string extension = detail::lowercase_extension(name);
  if (extension == ".obj") return parse_obj_mesh(content, name.string(), report);
  if (extension == ".stl") return parse_stl_mesh(content, name.string(), report);
  if (extension == ".off") return parse_off_mesh(content, name.string(), report);
  if (extension == ".ply") return parse_ply_mesh(content, name.string(), report);
  fail_unsupported(name, "surface", surface_extensions, "tetrahedral", is_tet_mesh_file(name));
}

std::vector<std::string> report_warnings(const std::filesystem::path& file,
                                         const ReadReport& report) {
  std::vector<std::string> sentences = report.notes;
  if (report.reoriented_tets > 0) {
    sentences.push_back(std::to_string(report.reoriented_tets) +
                        " inverted tets were turned over (two corners swapped)");
  }
  if (report.unreferenced_vertices > 0) {
    sentences.push_back(std::to_string(report.unreferenced_vertices) +
                        " vertices are in no element and were left out");
  }
  for (std::string& sentence : sentences) sentence = file.filename().string() + ": " + sentence;
  return sentences;
}

}  // namespace smfem::mesh
