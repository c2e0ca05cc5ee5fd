#pragma once
// Wavefront ".obj" surfaces.
//
// Keeps "v x y z" (a w or vertex colours after z are ignored) and "f" faces whose corners are
// written v, v/vt, v/vt/vn or v//vn, with 1-based or negative (relative: -1 is the latest
// vertex so far) indices. Faces of more than three corners are fan-triangulated. Ignores vt,
// vn, vp, g, o, s, usemtl, mtllib, l and p lines, and notes any other statement it skips.
// Regions are 0: OBJ groups are not kept.
#include <filesystem>
#include <string>
#include <string_view>

#include "smfem/mesh/types.hpp"

namespace smfem::mesh {

// Reads an .obj file; throws MeshError ("<file>:<line>: <problem>").
SurfaceMesh read_obj_mesh(const std::filesystem::path& path, ReadReport* report = nullptr);

// The same from the file's content; display_name names it in messages.
SurfaceMesh parse_obj_mesh(std::string_view content, const std::string& display_name,
                           ReadReport* report = nullptr);

}  // namespace smfem::mesh
