#pragma once
// STL surfaces, ASCII and binary.
//
// A file is binary when its size is exactly 84 + 50 n bytes, n being the triangle count at byte
// 80 (many binary files also start with "solid", so that word decides nothing); otherwise it
// must be ASCII ("solid ... facet normal ... outer loop, vertex x3 ... endsolid", keywords in any
// case, several solids allowed). Corners at exactly equal positions are welded into one vertex;
// facets left with two equal corners (zero-area slivers some exporters write) are dropped and
// counted in the report's notes. Regions are 0.
#include <filesystem>
#include <string>
#include <string_view>

#include "smfem/mesh/types.hpp"

namespace smfem::mesh {

// Reads an .stl file; throws MeshError ("<file>:<line>: ..." for ASCII,
// "<file>: byte <offset>: ..." for binary).
SurfaceMesh read_stl_mesh(const std::filesystem::path& path, ReadReport* report = nullptr);

// The same from the file's content; display_name names it in messages.
SurfaceMesh parse_stl_mesh(std::string_view content, const std::string& display_name,
                           ReadReport* report = nullptr);

}  // namespace smfem::mesh
