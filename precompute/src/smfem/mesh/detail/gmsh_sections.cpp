#include "smfem/mesh/detail/gmsh_sections.hpp"

#include <string>

#include "smfem/mesh/detail/numbers.hpp"

namespace smfem::mesh::detail {

std::string_view gmsh_entry_start(TextCursor& cursor, std::size_t index, std::size_t count,
                                  std::string_view entries) {
  const std::string counts = std::to_string(index) + " of the " + std::to_string(count) +
                             " declared " + std::string(entries);
  if (!cursor.skip_blank()) cursor.fail_at_end("file ended after " + counts);
  const std::string_view token = cursor.token("an entry");
  if (token.front() == '$') cursor.fail(quote_token(token) + " comes after " + counts);
  return token;
}

void expect_gmsh_section_end(TextCursor& cursor, std::string_view end_marker) {
  const std::string_view token = cursor.token(end_marker);
  if (token == end_marker) return;
  if (token.front() == '$') {
    cursor.fail("expected " + std::string(end_marker) + ", found " + quote_token(token));
  }
  cursor.fail("expected " + std::string(end_marker) + ", found " + quote_token(token) +
              " (more entries than the declared count?)");
}

long long gmsh_node_tag(const TextCursor& cursor, std::string_view token) {
  const long long tag = cursor.to_integer(token, "a node tag");
  if (tag <= 0) cursor.fail("node tag " + quote_token(token) + " is not positive");
  return tag;
}

void finish_gmsh_nodes(const TextCursor& cursor, GmshContent& content) {
  if (const auto repeated = content.nodes.build()) {
    cursor.fail("node tag " + std::to_string(*repeated) + " is given to two nodes");
  }
  content.nodes_read = true;
}

void read_gmsh_tet(TextCursor& cursor, std::size_t line, int region, GmshContent& content) {
  long long tags[4];
  for (int corner = 0; corner < 4; ++corner) {
    const std::string_view token = cursor.token_on_line("a node tag of the tetrahedron");
    tags[corner] = gmsh_node_tag(cursor, token);
    for (int previous = 0; previous < corner; ++previous) {
      if (tags[previous] == tags[corner]) {
        cursor.fail("tetrahedron repeats node tag " + std::to_string(tags[corner]) +
                    " (an element needs distinct corners)");
      }
    }
    const int row = content.nodes.row(tags[corner]);
    if (row < 0) cursor.fail("node tag " + std::to_string(tags[corner]) + " is not in $Nodes");
    content.parsed.corners.push_back(row);
  }
  if (!cursor.at_line_end()) {
    cursor.fail("unexpected " + quote_token(cursor.token_on_line("")) +
                " after the four nodes of a tetrahedron");
  }
  content.parsed.regions.push_back(region);
  content.parsed.locations.push_back(line);
}

}  // namespace smfem::mesh::detail
