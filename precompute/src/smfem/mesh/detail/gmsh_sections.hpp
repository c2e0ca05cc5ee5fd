#pragma once
// The section readers behind read_gmsh_mesh, one set per format version (gmsh_v2.cpp,
// gmsh_v4.cpp), and the checks they share. Internal to the mesh readers.
#include <cstddef>
#include <map>
#include <string_view>
#include <unordered_map>

#include "smfem/mesh/detail/assemble.hpp"
#include "smfem/mesh/detail/node_tags.hpp"
#include "smfem/mesh/detail/text_cursor.hpp"

namespace smfem::mesh::detail {

// Gmsh's element type number of the 4-node tetrahedron, the only type kept.
constexpr int gmsh_tet4 = 4;

// What the sections of one .msh file add up to.
struct GmshContent {
  ParsedTets parsed;
  NodeTagMap nodes;
  bool nodes_read = false;
  // Version 4 $Entities: the first physical tag of each volume entity that has one.
  bool entities_read = false;
  std::unordered_map<int, int> volume_physical_tag;
  std::map<int, std::size_t> skipped_elements_by_type;
};

void read_nodes_v2(TextCursor& cursor, GmshContent& content);
void read_elements_v2(TextCursor& cursor, GmshContent& content);

void read_entities_v4(TextCursor& cursor, GmshContent& content);
void read_nodes_v4(TextCursor& cursor, GmshContent& content);
void read_elements_v4(TextCursor& cursor, GmshContent& content);

// The first token of entry `index` of `count`: fails when the file or the section (a token
// starting with '$') ends before the declared count.
std::string_view gmsh_entry_start(TextCursor& cursor, std::size_t index, std::size_t count,
                                  std::string_view entries);
// Fails unless the next token is `end_marker` (e.g. "$EndNodes").
void expect_gmsh_section_end(TextCursor& cursor, std::string_view end_marker);
// A node tag (a positive integer).
long long gmsh_node_tag(const TextCursor& cursor, std::string_view token);
// Builds the tag lookup once all nodes are read; fails on a tag given twice.
void finish_gmsh_nodes(const TextCursor& cursor, GmshContent& content);
// Reads the four node tags of a tet on the current line and appends it with its region; fails
// on undefined or repeated tags and on extra values.
void read_gmsh_tet(TextCursor& cursor, std::size_t line, int region, GmshContent& content);

}  // namespace smfem::mesh::detail
