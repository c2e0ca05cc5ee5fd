#pragma once
// Geomview ".off" surfaces (Object File Format), as written by CGAL, MeshLab and libigl.
//
// "OFF" (or COFF, NOFF, STOFF, ... whose extra per-vertex values are ignored), then
// "<vertices> <faces> [<edges>]" on the same line or the next, then one "x y z" line per
// vertex and one "n i1 ... in [colour]" line per face, with 0-based indices. '#' starts a
// comment. Polygons are fan-triangulated. Binary OFF and 4D / nD variants are refused.
// Regions are 0.
#include <filesystem>
#include <string>
#include <string_view>

#include "smfem/mesh/types.hpp"

namespace smfem::mesh {

// Reads an .off file; throws MeshError ("<file>:<line>: <problem>").
SurfaceMesh read_off_mesh(const std::filesystem::path& path, ReadReport* report = nullptr);

// The same from the file's content; display_name names it in messages.
SurfaceMesh parse_off_mesh(std::string_view content, const std::string& display_name,
                           ReadReport* report = nullptr);

}  // namespace smfem::mesh
