// Gmsh ASCII format version 2 (2.0 to 2.2):
//   $Nodes     count, then "tag x y z" per node
//   $Elements  count, then "tag type tag-count tags... node-tags..." per element, one a line;
//              the first tag is the physical group, which becomes the tet's region.
#include "smfem/mesh/detail/capacity.hpp"
#include "smfem/mesh/detail/gmsh_sections.hpp"

namespace smfem::mesh::detail {
namespace {

constexpr std::size_t min_v2_node_bytes = 8;      // "1 0 0 0\n"
constexpr std::size_t min_v2_element_bytes = 10;  // "1 15 0 1\n" and more for a tet

}  // namespace

void read_nodes_v2(TextCursor& cursor, GmshContent& content) {
  const std::size_t count = cursor.count("node count");
  const std::size_t reservable =
      plausible_count(count, cursor.remaining_bytes(), min_v2_node_bytes);
  content.nodes.reserve(reservable);
  content.parsed.coordinates.reserve(3 * reservable);
  for (std::size_t i = 0; i < count; ++i) {
    content.nodes.add(gmsh_node_tag(cursor, gmsh_entry_start(cursor, i, count, "nodes")));
    content.parsed.coordinates.push_back(cursor.finite("x coordinate"));
    content.parsed.coordinates.push_back(cursor.finite("y coordinate"));
    content.parsed.coordinates.push_back(cursor.finite("z coordinate"));
  }
  expect_gmsh_section_end(cursor, "$EndNodes");
  finish_gmsh_nodes(cursor, content);
}

void read_elements_v2(TextCursor& cursor, GmshContent& content) {
  if (!content.nodes_read) cursor.fail("$Elements comes before $Nodes");
  const std::size_t count = cursor.count("element count");
  const std::size_t reservable =
      plausible_count(count, cursor.remaining_bytes(), min_v2_element_bytes);
  content.parsed.corners.reserve(4 * reservable);
  content.parsed.regions.reserve(reservable);
  content.parsed.locations.reserve(reservable);
  for (std::size_t i = 0; i < count; ++i) {
    cursor.to_integer(gmsh_entry_start(cursor, i, count, "elements"), "an element tag");
    const std::size_t line = cursor.line();
    const int type = cursor.to_int(cursor.token_on_line("the element type"), "the element type");
    const std::size_t tag_count =
        cursor.to_count(cursor.token_on_line("the tag count"), "tag count");
    int physical_tag = 0;
    for (std::size_t t = 0; t < tag_count; ++t) {
      const int tag = cursor.to_int(cursor.token_on_line("an element tag"), "an element tag");
      if (t == 0) physical_tag = tag;
    }
    if (type == gmsh_tet4) {
      read_gmsh_tet(cursor, line, physical_tag, content);
    } else {
      ++content.skipped_elements_by_type[type];
      cursor.skip_line();
    }
  }
  expect_gmsh_section_end(cursor, "$EndElements");
}

}  // namespace smfem::mesh::detail
