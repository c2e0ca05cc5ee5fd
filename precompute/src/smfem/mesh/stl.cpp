#include "smfem/mesh/stl.hpp"

#include <cmath>
#include <cstdint>
#include <optional>

#include "smfem/mesh/detail/assemble.hpp"
#include "smfem/mesh/detail/binary_cursor.hpp"
#include "smfem/mesh/detail/capacity.hpp"
#include "smfem/mesh/detail/file_bytes.hpp"
#include "smfem/mesh/detail/numbers.hpp"
#include "smfem/mesh/detail/text_cursor.hpp"
#include "smfem/mesh/detail/vertex_welder.hpp"
#include "smfem/mesh/error.hpp"

namespace smfem::mesh {
namespace {

constexpr std::size_t binary_count_offset = 80;  // after 80 bytes of free text
constexpr std::size_t binary_header_bytes = 84;  // the text, then the uint32 triangle count
constexpr std::size_t binary_facet_bytes = 50;   // normal, 3 corners (12 floats), uint16
constexpr std::size_t ascii_min_facet_bytes = 80;

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// Appends a facet's welded corners, or drops it (and counts it) when two corners coincide.
void add_facet(const int corners[3], std::size_t location, detail::ParsedTriangles& parsed,
               std::size_t& dropped) {
  if (corners[0] == corners[1] || corners[1] == corners[2] || corners[0] == corners[2]) {
    ++dropped;
    return;
  }
  parsed.corners.insert(parsed.corners.end(), corners, corners + 3);
  parsed.regions.push_back(0);
  parsed.locations.push_back(location);
}

std::size_t read_binary(std::string_view content, const std::string& name, std::size_t count,
                        detail::ParsedTriangles& parsed) {
  detail::BinaryCursor cursor(content, binary_header_bytes, name, std::endian::little);
  detail::VertexWelder welder(parsed.coordinates);
  parsed.corners.reserve(3 * count);
  parsed.regions.reserve(count);
  parsed.locations.reserve(count);
  std::size_t dropped = 0;
  for (std::size_t f = 0; f < count; ++f) {
    const std::size_t location = cursor.offset();
    cursor.skip(3 * sizeof(float), "a facet normal");
    int corners[3];
    for (int& corner : corners) {
      const std::size_t corner_offset = cursor.offset();
      const double x = cursor.read<float>("a vertex");
      const double y = cursor.read<float>("a vertex");
      const double z = cursor.read<float>("a vertex");
      if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) {
        cursor.fail_at(corner_offset, "facet " + std::to_string(f + 1) +
                                          " has a vertex coordinate that is not finite");
      }
      corner = welder.index_of(x, y, z);
    }
    cursor.skip(sizeof(std::uint16_t), "the attribute byte count");
    add_facet(corners, location, parsed, dropped);
  }
  return dropped;
}

void expect_keyword(detail::TextCursor& cursor, std::string_view keyword) {
  const std::string_view token = cursor.token("'" + std::string(keyword) + "'");
  if (!equals_ignoring_case(token, keyword)) {
    cursor.fail("expected '" + std::string(keyword) + "', found " + detail::quote_token(token));
  }
}

std::size_t read_ascii(detail::TextCursor& cursor, detail::ParsedTriangles& parsed) {
  detail::VertexWelder welder(parsed.coordinates);
  const std::size_t reservable = detail::plausible_count(
      cursor.remaining_bytes(), cursor.remaining_bytes(), ascii_min_facet_bytes);
  parsed.corners.reserve(3 * reservable);
  std::size_t dropped = 0;
  expect_keyword(cursor, "solid");
  cursor.rest_of_line();  // the solid's name
  while (true) {
    const std::string_view token = cursor.token("'facet' or 'endsolid'");
    if (equals_ignoring_case(token, "endsolid")) {
      cursor.rest_of_line();
      if (!cursor.skip_blank()) break;
      expect_keyword(cursor, "solid");  // files may hold several solids
      cursor.rest_of_line();
      continue;
    }
    if (!equals_ignoring_case(token, "facet")) {
      cursor.fail("expected 'facet' or 'endsolid', found " + detail::quote_token(token));
    }
    const std::size_t line = cursor.line();
    expect_keyword(cursor, "normal");
    for (int i = 0; i < 3; ++i) cursor.to_real(cursor.token("a normal component"), "a normal");
    expect_keyword(cursor, "outer");
    expect_keyword(cursor, "loop");
    int corners[3];
    for (int& corner : corners) {
      expect_keyword(cursor, "vertex");
      const double x = cursor.finite("x coordinate");
      const double y = cursor.finite("y coordinate");
      const double z = cursor.finite("z coordinate");
      corner = welder.index_of(x, y, z);
    }
    expect_keyword(cursor, "endloop");
    expect_keyword(cursor, "endfacet");
    add_facet(corners, line, parsed, dropped);
  }
  return dropped;
}

// ASCII STL starts with "solid" and, unlike a binary header that happens to, has no NUL bytes.
bool looks_like_ascii(std::string_view content) {
  const std::size_t start = content.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || !equals_ignoring_case(content.substr(start, 5), "solid")) {
    return false;
  }
  return content.substr(0, 1024).find('\0') == std::string_view::npos;
}

// The triangle count of a binary STL, or nothing when the content must be read as ASCII.
// Fails when it is neither.
std::optional<std::size_t> binary_triangle_count(std::string_view content,
                                                 const std::string& name) {
  std::optional<std::size_t> declared;
  if (content.size() >= binary_header_bytes) {
    detail::BinaryCursor header(content, binary_count_offset, name, std::endian::little);
    declared = header.read<std::uint32_t>("the triangle count");
    // In 64 bits: 50 x a u32 count overflows 32 (and wasm's size_t is 32 bits).
    if (content.size() == binary_header_bytes + std::uint64_t{binary_facet_bytes} * *declared) {
      return declared;
    }
  }
  if (looks_like_ascii(content)) return std::nullopt;
  if (content.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw MeshError::at_line(name, 1, "the file is empty");
  }
  if (!declared) {
    throw MeshError::at_byte(name, 0,
                             "not an STL file: shorter than a binary STL header (" +
                                 std::to_string(binary_header_bytes) +
                                 " bytes) and not starting with 'solid'");
  }
  const std::uint64_t expected =
      binary_header_bytes + std::uint64_t{binary_facet_bytes} * *declared;
  throw MeshError::at_byte(name, binary_count_offset,
                           "binary STL size mismatch: " + std::to_string(*declared) +
                               " triangles need 84 + 50 x " + std::to_string(*declared) + " = " +
                               std::to_string(expected) + " bytes, the file has " +
                               std::to_string(content.size()));
}

}  // namespace

SurfaceMesh parse_stl_mesh(std::string_view content, const std::string& display_name,
                           ReadReport* report) {
  ReadReport local_report;
  ReadReport& used = report ? *report : local_report;
  used = ReadReport{};

  detail::ParsedTriangles parsed;
  std::size_t dropped = 0;
  detail::ElementOrigin origin;
  if (const auto count = binary_triangle_count(content, display_name)) {
    dropped = read_binary(content, display_name, *count, parsed);
    origin = {display_name, true, "", 0, content.size()};
  } else {
    detail::TextCursor cursor(content, display_name, '\0');
    dropped = read_ascii(cursor, parsed);
    origin = {display_name, false, "", 0, cursor.last_line()};
  }
  if (dropped > 0) {
    used.notes.push_back("dropped " + std::to_string(dropped) +
                         " facets with two corners at the same position");
  }
  return detail::assemble_surface_mesh(std::move(parsed), origin, used);
}

SurfaceMesh read_stl_mesh(const std::filesystem::path& path, ReadReport* report) {
  return parse_stl_mesh(detail::read_file_bytes(path), path.string(), report);
}

}  // namespace smfem::mesh
