#include "smfem/mesh/off.hpp"

#include "smfem/mesh/detail/assemble.hpp"
#include "smfem/mesh/detail/capacity.hpp"
#include "smfem/mesh/detail/file_bytes.hpp"
#include "smfem/mesh/detail/numbers.hpp"
#include "smfem/mesh/detail/text_cursor.hpp"

namespace smfem::mesh {
namespace {

using detail::TextCursor;

constexpr std::size_t min_vertex_bytes = 6;  // "0 0 0\n"
constexpr std::size_t min_face_bytes = 8;    // "3 0 1 2\n"

// Accepts "OFF" with Geomview's optional prefixes ST (texture), C (colour), N (normal) in that
// order; refuses 4OFF and nOFF, whose vertices are not 3D.
void read_keyword(TextCursor& cursor) {
  const std::string_view written = cursor.token("'OFF'");
  std::string_view keyword = written;
  for (std::string_view prefix : {"ST", "C", "N"}) {
    if (keyword.substr(0, prefix.size()) == prefix) keyword.remove_prefix(prefix.size());
  }
  if (keyword == "4OFF" || keyword == "nOFF") {
    cursor.fail(detail::quote_token(written) + ": only 3D vertices are supported");
  }
  if (keyword != "OFF") {
    cursor.fail("not an OFF file: expected 'OFF', found " + detail::quote_token(written));
  }
}

void read_vertices(TextCursor& cursor, std::size_t count, std::vector<double>& coordinates) {
  coordinates.reserve(3 *
                      detail::plausible_count(count, cursor.remaining_bytes(), min_vertex_bytes));
  for (std::size_t i = 0; i < count; ++i) {
    cursor.start_entry(i, count, "vertices");
    coordinates.push_back(cursor.finite("x coordinate"));
    coordinates.push_back(cursor.to_finite(cursor.token_on_line("y coordinate"), "y coordinate"));
    coordinates.push_back(cursor.to_finite(cursor.token_on_line("z coordinate"), "z coordinate"));
    cursor.skip_line();  // colour, normal or texture values of the C, N and ST variants
  }
}

void read_faces(TextCursor& cursor, std::size_t count, detail::ParsedTriangles& parsed) {
  const std::size_t reservable =
      detail::plausible_count(count, cursor.remaining_bytes(), min_face_bytes);
  parsed.corners.reserve(3 * reservable);
  parsed.regions.reserve(reservable);
  parsed.locations.reserve(reservable);
  std::vector<int> polygon;
  for (std::size_t i = 0; i < count; ++i) {
    cursor.start_entry(i, count, "faces");
    const std::size_t corners = cursor.count("corner count");
    if (corners < 3) {
      cursor.fail("a face needs at least 3 corners, this one has " + std::to_string(corners));
    }
    polygon.clear();
    for (std::size_t c = 0; c < corners; ++c) {
      polygon.push_back(cursor.to_index(cursor.token_on_line("a vertex index"), 0));
    }
    detail::append_fan(polygon, 0, cursor.line(), parsed);
    cursor.skip_line();  // an optional face colour
  }
}

}  // namespace

SurfaceMesh parse_off_mesh(std::string_view content, const std::string& display_name,
                           ReadReport* report) {
  ReadReport local_report;
  ReadReport& used = report ? *report : local_report;
  used = ReadReport{};

  TextCursor cursor(content, display_name, '#');
  if (!cursor.skip_blank()) cursor.fail("the file is empty");
  read_keyword(cursor);
  const std::string_view first_count = cursor.token("the vertex count");
  if (first_count == "BINARY") cursor.fail("binary OFF files are not supported");
  const std::size_t vertex_count = cursor.to_count(first_count, "vertex count");
  const std::size_t face_count = cursor.count("face count");
  if (!cursor.at_line_end()) cursor.to_count(cursor.token_on_line(""), "edge count");
  cursor.skip_line();

  detail::ParsedTriangles parsed;
  read_vertices(cursor, vertex_count, parsed.coordinates);
  read_faces(cursor, face_count, parsed);
  const detail::ElementOrigin origin{display_name, false, "", 0, cursor.last_line()};
  return detail::assemble_surface_mesh(std::move(parsed), origin, used);
}

SurfaceMesh read_off_mesh(const std::filesystem::path& path, ReadReport* report) {
  return parse_off_mesh(detail::read_file_bytes(path), path.string(), report);
}

}  // namespace smfem::mesh
