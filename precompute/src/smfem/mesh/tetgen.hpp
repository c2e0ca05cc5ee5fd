#pragma once
// TetGen's ".node" + ".ele" pair (the output of `tetgen -pq foo.poly`: foo.1.node, foo.1.ele).
//
// foo.node: "<points> <dimension = 3> <attributes> <boundary markers 0|1>", then one line per
//           point: "<number> <x> <y> <z> [attributes...] [marker]".
// foo.ele:  "<tets> <nodes per tet = 4> <attributes>", then one line per tet:
//           "<number> <n1> <n2> <n3> <n4> [attributes...]"; the first attribute (TetGen's
//           region attribute, -A) becomes the region and must be an integer.
// '#' starts a comment. Numbering is 0- or 1-based as the first point's number says (TetGen's
// convention), and the .ele indices follow the .node file. 10-node tets are refused.
#include <filesystem>
#include <string>
#include <string_view>

#include "smfem/mesh/types.hpp"

namespace smfem::mesh {

// Reads foo.node and foo.ele given either of the two paths; throws MeshError
// ("<file>:<line>: <problem>", naming whichever of the two files is at fault).
TetMesh read_tetgen_mesh(const std::filesystem::path& node_or_ele_path,
                         ReadReport* report = nullptr);

// The same from the two files' contents; the names label messages.
TetMesh parse_tetgen_mesh(std::string_view node_content, const std::string& node_name,
                          std::string_view ele_content, const std::string& ele_name,
                          ReadReport* report = nullptr);

}  // namespace smfem::mesh
