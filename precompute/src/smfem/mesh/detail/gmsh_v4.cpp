// Gmsh ASCII format version 4.1:
//   $Entities  point, curve, surface and volume entities with their physical tags
//   $Nodes     blocks "dim entity parametric count", then the block's tags, then its
//              coordinates "x y z [u [v [w]]]"
//   $Elements  blocks "dim entity type count", then "tag node-tags..." per element, one a line
// A tet's region is the first physical tag of its volume entity, or the entity tag when the
// file has no $Entities or the entity no physical tag.
#include <string>

#include "smfem/mesh/detail/capacity.hpp"
#include "smfem/mesh/detail/gmsh_sections.hpp"

namespace smfem::mesh::detail {
namespace {

constexpr std::size_t min_v4_node_bytes = 8;      // a tag line and a coordinate line
constexpr std::size_t min_v4_element_bytes = 10;  // "1 2 3 4 5\n"
constexpr int volume_dimension = 3;

// Skips `count` tokens that the reader has no use for (bounding boxes, bounding entities).
void skip_tokens(TextCursor& cursor, std::size_t count, std::string_view what) {
  for (std::size_t i = 0; i < count; ++i) cursor.token(what);
}

// The header "blocks total min-tag max-tag" of $Nodes and $Elements; returns blocks and total.
std::pair<std::size_t, std::size_t> read_block_header(TextCursor& cursor) {
  const std::size_t blocks = cursor.count("block count");
  const std::size_t total = cursor.count("total count");
  cursor.integer("the minimum tag");
  cursor.integer("the maximum tag");
  return {blocks, total};
}

void check_total(const TextCursor& cursor, std::size_t declared, std::size_t found,
                 std::string_view entries) {
  if (declared != found) {
    cursor.fail("the header declares " + std::to_string(declared) + " " + std::string(entries) +
                " but the blocks hold " + std::to_string(found));
  }
}

}  // namespace

void read_entities_v4(TextCursor& cursor, GmshContent& content) {
  std::size_t counts[4];
  for (std::size_t& count : counts) count = cursor.count("entity count");
  for (int dimension = 0; dimension <= volume_dimension; ++dimension) {
    const std::size_t count = counts[dimension];
    for (std::size_t i = 0; i < count; ++i) {
      const int tag = cursor.to_int(gmsh_entry_start(cursor, i, count, "entities"), "entity tag");
      // A point has its position, other entities a bounding box.
      skip_tokens(cursor, dimension == 0 ? 3 : 6, "entity coordinates");
      const std::size_t physical_count = cursor.count("physical tag count");
      for (std::size_t p = 0; p < physical_count; ++p) {
        const int physical = cursor.to_int(cursor.token("a physical tag"), "a physical tag");
        if (dimension == volume_dimension && p == 0) content.volume_physical_tag[tag] = physical;
      }
      if (dimension > 0) skip_tokens(cursor, cursor.count("bounding entity count"), "entity tag");
    }
  }
  expect_gmsh_section_end(cursor, "$EndEntities");
  content.entities_read = true;
}

void read_nodes_v4(TextCursor& cursor, GmshContent& content) {
  const auto [blocks, total] = read_block_header(cursor);
  const std::size_t reservable =
      plausible_count(total, cursor.remaining_bytes(), min_v4_node_bytes);
  content.nodes.reserve(reservable);
  content.parsed.coordinates.reserve(3 * reservable);
  std::size_t found = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    const long long dimension =
        cursor.to_integer(gmsh_entry_start(cursor, b, blocks, "node blocks"), "entity dimension");
    if (dimension < 0 || dimension > volume_dimension) {
      cursor.fail("entity dimension " + std::to_string(dimension) + " is not 0 to 3");
    }
    cursor.integer("entity tag");
    const bool parametric =
        cursor.to_count(cursor.token("parametric flag"), "parametric flag", 1) == 1;
    const std::size_t count = cursor.count("node count");
    for (std::size_t i = 0; i < count; ++i) {
      content.nodes.add(gmsh_node_tag(cursor, gmsh_entry_start(cursor, i, count, "node tags")));
    }
    for (std::size_t i = 0; i < count; ++i) {
      content.parsed.coordinates.push_back(
          cursor.to_finite(gmsh_entry_start(cursor, i, count, "node coordinates"), "x coordinate"));
      content.parsed.coordinates.push_back(cursor.finite("y coordinate"));
      content.parsed.coordinates.push_back(cursor.finite("z coordinate"));
      if (parametric) skip_tokens(cursor, static_cast<std::size_t>(dimension), "a parameter");
    }
    found += count;
  }
  check_total(cursor, total, found, "nodes");
  expect_gmsh_section_end(cursor, "$EndNodes");
  finish_gmsh_nodes(cursor, content);
}

void read_elements_v4(TextCursor& cursor, GmshContent& content) {
  if (!content.nodes_read) cursor.fail("$Elements comes before $Nodes");
  const auto [blocks, total] = read_block_header(cursor);
  const std::size_t reservable =
      plausible_count(total, cursor.remaining_bytes(), min_v4_element_bytes);
  content.parsed.corners.reserve(4 * reservable);
  content.parsed.regions.reserve(reservable);
  content.parsed.locations.reserve(reservable);
  std::size_t found = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    cursor.to_integer(gmsh_entry_start(cursor, b, blocks, "element blocks"), "entity dimension");
    const int entity = cursor.to_int(cursor.token("entity tag"), "entity tag");
    const int type = cursor.to_int(cursor.token("element type"), "element type");
    const std::size_t count = cursor.count("element count");
    int region = entity;
    if (const auto physical = content.volume_physical_tag.find(entity);
        content.entities_read && physical != content.volume_physical_tag.end()) {
      region = physical->second;
    }
    for (std::size_t i = 0; i < count; ++i) {
      cursor.to_integer(gmsh_entry_start(cursor, i, count, "elements"), "an element tag");
      if (type == gmsh_tet4) {
        read_gmsh_tet(cursor, cursor.line(), region, content);
      } else {
        cursor.skip_line();
      }
    }
    if (type != gmsh_tet4) content.skipped_elements_by_type[type] += count;
    found += count;
  }
  check_total(cursor, total, found, "elements");
  expect_gmsh_section_end(cursor, "$EndElements");
}

}  // namespace smfem::mesh::detail
