#include "smfem/mesh/gmsh.hpp"

#include <cmath>

#include "smfem/mesh/detail/file_bytes.hpp"
#include "smfem/mesh/detail/gmsh_sections.hpp"
#include "smfem/mesh/detail/numbers.hpp"

namespace smfem::mesh {
namespace {

using detail::GmshContent;
using detail::TextCursor;

constexpr int gmsh_tet10 = 11;  // second-order tetrahedron, named in the "no tets" message

enum class GmshVersion { v2, v4 };

GmshVersion read_mesh_format(TextCursor& cursor) {
  if (!cursor.skip_blank()) cursor.fail("the file is empty");
  const std::string_view first = cursor.token("$MeshFormat");
  if (first == "$NOD") cursor.fail("Gmsh 1.0 files are not supported; save as version 2.2 or 4.1");
  if (first != "$MeshFormat") {
    cursor.fail("not a Gmsh file: expected $MeshFormat, found " + detail::quote_token(first));
  }
  cursor.set_section("$MeshFormat");
  const std::string_view version_token = cursor.token("the format version");
  const double version = cursor.to_real(version_token, "the format version");
  GmshVersion version_read;
  if (version >= 2.0 && version < 3.0) {
    version_read = GmshVersion::v2;
  } else if (std::abs(version - 4.1) < 1e-9) {
    version_read = GmshVersion::v4;
  } else {
    cursor.fail("unsupported format version " + detail::quote_token(version_token) +
                " (supported: 2.2 and 4.1)");
  }
  const long long file_type = cursor.integer("the file type");
  if (file_type == 1) cursor.fail("binary Gmsh files are not supported; save as ASCII");
  if (file_type != 0) cursor.fail("file type " + std::to_string(file_type) + " is not 0 (ASCII)");
  cursor.integer("the data size");
  detail::expect_gmsh_section_end(cursor, "$EndMeshFormat");
  cursor.set_section("");
  return version_read;
}

// Skips a section the reader has no use for, up to its "$End<name>" line.
void skip_section(TextCursor& cursor, std::string_view name) {
  const std::string end_marker = "$End" + std::string(name);
  const std::size_t start_line = cursor.line();
  cursor.skip_line();
  while (cursor.skip_blank()) {
    if (cursor.rest_of_line() == end_marker) return;
  }
  cursor.fail_at(start_line, "section $" + std::string(name) + " is not closed by " + end_marker);
}

void note_skipped_elements(const GmshContent& content, ReadReport& report) {
  for (const auto& [type, count] : content.skipped_elements_by_type) {
    report.notes.push_back("skipped " + std::to_string(count) + " elements of Gmsh type " +
                           std::to_string(type) +
                           " (only type 4, the 4-node tetrahedron, is kept)");
  }
}

}  // namespace

TetMesh parse_gmsh_mesh(std::string_view content_text, const std::string& display_name,
                        ReadReport* report) {
  ReadReport local_report;
  ReadReport& used = report ? *report : local_report;
  used = ReadReport{};

  TextCursor cursor(content_text, display_name, '\0');
  const GmshVersion version = read_mesh_format(cursor);
  GmshContent content;
  while (cursor.skip_blank()) {
    const std::string_view token = cursor.token("a section");
    if (token.front() != '$') {
      cursor.fail("expected a section such as $Nodes, found " + detail::quote_token(token));
    }
    const std::string_view name = token.substr(1);
    cursor.set_section(std::string(token));
    if (name == "Nodes") {
      version == GmshVersion::v2 ? detail::read_nodes_v2(cursor, content)
                                 : detail::read_nodes_v4(cursor, content);
    } else if (name == "Elements") {
      version == GmshVersion::v2 ? detail::read_elements_v2(cursor, content)
                                 : detail::read_elements_v4(cursor, content);
    } else if (name == "Entities" && version == GmshVersion::v4) {
      detail::read_entities_v4(cursor, content);
    } else {
      skip_section(cursor, name);
    }
    cursor.set_section("");
  }
  note_skipped_elements(content, used);
  if (content.parsed.corners.empty() && content.skipped_elements_by_type.count(gmsh_tet10) > 0) {
    cursor.fail_at_end("only 10-node tetrahedra in the file; export a first-order mesh");
  }
  const detail::ElementOrigin origin{display_name, false, "$Elements", 1, cursor.last_line()};
  return detail::assemble_tet_mesh(std::move(content.parsed), origin, used);
}

TetMesh read_gmsh_mesh(const std::filesystem::path& path, ReadReport* report) {
  return parse_gmsh_mesh(detail::read_file_bytes(path), path.string(), report);
}

}  // namespace smfem::mesh
