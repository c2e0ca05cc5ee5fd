#pragma once
// Stanford ".ply" surfaces: ascii, binary_little_endian and binary_big_endian.
//
// Uses element "vertex" (properties x, y, z of any numeric type, among any others) and element
// "face" (list property vertex_indices or vertex_index, with any integer count and index
// types; 0-based). Every other property and element is skipped by its declared types.
// Polygons are fan-triangulated. Regions are 0.
#include <filesystem>
#include <string>
#include <string_view>

#include "smfem/mesh/types.hpp"

namespace smfem::mesh {

// Reads a .ply file; throws MeshError ("<file>:<line>: ..." in the header and ASCII data,
// "<file>: byte <offset>: ..." in binary data).
SurfaceMesh read_ply_mesh(const std::filesystem::path& path, ReadReport* report = nullptr);

// The same from the file's content; display_name names it in messages.
SurfaceMesh parse_ply_mesh(std::string_view content, const std::string& display_name,
                           ReadReport* report = nullptr);

}  // namespace smfem::mesh
