#include "smfem/mesh/tetgen.hpp"

#include <cmath>
#include <limits>

#include "smfem/mesh/detail/assemble.hpp"
#include "smfem/mesh/detail/capacity.hpp"
#include "smfem/mesh/detail/extension.hpp"
#include "smfem/mesh/detail/file_bytes.hpp"
#include "smfem/mesh/detail/numbers.hpp"
#include "smfem/mesh/detail/text_cursor.hpp"
#include "smfem/mesh/error.hpp"

namespace smfem::mesh {
namespace {

using detail::TextCursor;

constexpr std::size_t min_point_bytes = 8;  // "1 0 0 0\n"
constexpr std::size_t min_tet_bytes = 10;   // "1 1 2 3 4\n"

// An optional count at the end of a header line (TetGen defaults missing ones to 0).
std::size_t optional_header_count(TextCursor& cursor, std::string_view what) {
  return cursor.at_line_end() ? 0 : cursor.to_count(cursor.token_on_line(what), what);
}

// Reads the .node file into coordinates; returns the numbering base (0 or 1).
int read_points(TextCursor& cursor, std::vector<double>& coordinates) {
  if (!cursor.skip_blank()) cursor.fail("the file is empty");
  const std::size_t count = cursor.count("point count");
  const long long dimension =
      cursor.to_integer(cursor.token_on_line("the dimension"), "the dimension");
  if (dimension != 3) {
    cursor.fail("dimension " + std::to_string(dimension) + ": only 3D meshes are supported");
  }
  const std::size_t attributes = optional_header_count(cursor, "attribute count");
  const std::size_t markers = optional_header_count(cursor, "boundary marker count");
  if (markers > 1) cursor.fail("the boundary marker count must be 0 or 1");
  if (count == 0) cursor.fail("no points (TetGen keeps them in the .poly file then)");
  cursor.skip_line();

  coordinates.reserve(3 *
                      detail::plausible_count(count, cursor.remaining_bytes(), min_point_bytes));
  int base = 0;
  for (std::size_t i = 0; i < count; ++i) {
    cursor.start_entry(i, count, "points");
    const long long number = cursor.integer("a point number");
    if (i == 0) {
      if (number != 0 && number != 1) {
        cursor.fail("the first point number is " + std::to_string(number) + ", not 0 or 1");
      }
      base = static_cast<int>(number);
    } else if (number != base + static_cast<long long>(i)) {
      cursor.fail("point number " + std::to_string(number) + " where " +
                  std::to_string(base + static_cast<long long>(i)) +
                  " was expected (points are numbered consecutively)");
    }
    coordinates.push_back(cursor.to_finite(cursor.token_on_line("x coordinate"), "x coordinate"));
    coordinates.push_back(cursor.to_finite(cursor.token_on_line("y coordinate"), "y coordinate"));
    coordinates.push_back(cursor.to_finite(cursor.token_on_line("z coordinate"), "z coordinate"));
    for (std::size_t a = 0; a < attributes; ++a) {
      cursor.to_real(cursor.token_on_line("a point attribute"), "a point attribute");
    }
    if (markers == 1) {
      cursor.to_integer(cursor.token_on_line("the boundary marker"), "the boundary marker");
    }
    cursor.skip_line();
  }
  return base;
}

int region_from_attribute(const TextCursor& cursor, std::string_view token) {
  const double value = cursor.to_finite(token, "the region attribute");
  if (value != std::floor(value) || std::abs(value) > std::numeric_limits<int>::max()) {
    cursor.fail("region attribute " + detail::quote_token(token) + " is not an integer");
  }
  return static_cast<int>(value);
}

void read_tets(TextCursor& cursor, int base, detail::ParsedTets& parsed) {
  if (!cursor.skip_blank()) cursor.fail("the file is empty");
  const std::size_t count = cursor.count("tetrahedron count");
  const long long nodes =
      cursor.to_integer(cursor.token_on_line("nodes per tetrahedron"), "nodes per tetrahedron");
  if (nodes != 4) {
    cursor.fail(std::to_string(nodes) +
                " nodes per tetrahedron: only 4-node tetrahedra are supported (run TetGen "
                "without -o2)");
  }
  const std::size_t attributes = optional_header_count(cursor, "attribute count");
  cursor.skip_line();

  const std::size_t reservable =
      detail::plausible_count(count, cursor.remaining_bytes(), min_tet_bytes);
  parsed.corners.reserve(4 * reservable);
  parsed.regions.reserve(reservable);
  parsed.locations.reserve(reservable);
  for (std::size_t i = 0; i < count; ++i) {
    cursor.start_entry(i, count, "tetrahedra");
    cursor.integer("a tetrahedron number");
    parsed.locations.push_back(cursor.line());
    for (int corner = 0; corner < 4; ++corner) {
      parsed.corners.push_back(cursor.to_index(cursor.token_on_line("a vertex index"), base));
    }
    int region = 0;
    for (std::size_t a = 0; a < attributes; ++a) {
      const std::string_view token = cursor.token_on_line("a tetrahedron attribute");
      if (a == 0) {
        region = region_from_attribute(cursor, token);
      } else {
        cursor.to_real(token, "a tetrahedron attribute");
      }
    }
    parsed.regions.push_back(region);
    cursor.skip_line();
  }
}

bool is_node_path(const std::filesystem::path& path) {
  return detail::lowercase_extension(path) == ".node";
}

// foo.node for foo.ele and the other way round, in the case of the given extension.
std::filesystem::path sibling_path(const std::filesystem::path& path) {
  const std::string extension = path.extension().string();
  const bool upper = extension.size() > 1 && extension[1] >= 'A' && extension[1] <= 'Z';
  const char* sibling_extension =
      is_node_path(path) ? (upper ? ".ELE" : ".ele") : (upper ? ".NODE" : ".node");
  return std::filesystem::path(path).replace_extension(sibling_extension);
}

}  // namespace

TetMesh parse_tetgen_mesh(std::string_view node_content, const std::string& node_name,
                          std::string_view ele_content, const std::string& ele_name,
                          ReadReport* report) {
  ReadReport local_report;
  ReadReport& used = report ? *report : local_report;
  used = ReadReport{};

  detail::ParsedTets parsed;
  TextCursor node_cursor(node_content, node_name, '#');
  const int base = read_points(node_cursor, parsed.coordinates);
  TextCursor ele_cursor(ele_content, ele_name, '#');
  read_tets(ele_cursor, base, parsed);
  const detail::ElementOrigin origin{ele_name, false, "", base, ele_cursor.last_line()};
  return detail::assemble_tet_mesh(std::move(parsed), origin, used);
}

TetMesh read_tetgen_mesh(const std::filesystem::path& node_or_ele_path, ReadReport* report) {
  const std::filesystem::path sibling = sibling_path(node_or_ele_path);
  if (!std::filesystem::exists(sibling)) {
    throw MeshError::in_file(node_or_ele_path.string(),
                             "the matching file " + sibling.string() + " is missing");
  }
  const bool given_node = is_node_path(node_or_ele_path);
  const std::filesystem::path& node_path = given_node ? node_or_ele_path : sibling;
  const std::filesystem::path& ele_path = given_node ? sibling : node_or_ele_path;
  return parse_tetgen_mesh(detail::read_file_bytes(node_path), node_path.string(),
                           detail::read_file_bytes(ele_path), ele_path.string(), report);
}

}  // namespace smfem::mesh
