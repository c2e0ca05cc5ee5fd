#include "smfem/mesh/medit.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <sstream>
#include <utility>

#include "smfem/mesh/detail/assemble.hpp"
#include "smfem/mesh/detail/capacity.hpp"
#include "smfem/mesh/detail/file_bytes.hpp"
#include "smfem/mesh/detail/numbers.hpp"
#include "smfem/mesh/detail/text_cursor.hpp"

namespace smfem::mesh {
namespace {

using detail::TextCursor;

// Numbers per entry of a counted section; "dimension" sizes grow with the Dimension keyword.
struct SectionShape {
  std::string_view name;  // lower case
  int fixed_tokens;       // integers (and reals) per entry
  int dimension_tokens;   // plus this many times the dimension
};

// Entry sizes from libMeshb's keyword table; counted sections only.
constexpr std::array<SectionShape, 28> known_sections{{
    {"vertices", 1, 1},
    {"edges", 3, 0},
    {"triangles", 4, 0},
    {"quadrilaterals", 5, 0},
    {"tetrahedra", 5, 0},
    {"prisms", 7, 0},
    {"hexahedra", 9, 0},
    {"pyramids", 6, 0},
    {"edgesp2", 4, 0},
    {"trianglesp2", 7, 0},
    {"quadrilateralsq2", 10, 0},
    {"tetrahedrap2", 11, 0},
    {"corners", 1, 0},
    {"ridges", 1, 0},
    {"requiredvertices", 1, 0},
    {"requirededges", 1, 0},
    {"requiredtriangles", 1, 0},
    {"requiredquadrilaterals", 1, 0},
    {"normals", 0, 1},
    {"tangents", 0, 1},
    {"normalatvertices", 2, 0},
    {"normalattrianglevertices", 3, 0},
    {"normalatquadrilateralvertices", 4, 0},
    {"tangentatvertices", 2, 0},
    {"tangentatedgevertices", 3, 0},
    {"vertexongeometricvertex", 2, 0},
    {"vertexongeometricedge", 3, 0},
    {"vertexongeometrictriangle", 4, 0},
}};

// Keywords followed by a single value instead of a count and entries.
constexpr std::array<std::string_view, 2> header_keywords{"meshversionformatted", "dimension"};

// Smallest bytes an entry can take in the text: one digit and one separator per number.
constexpr std::size_t min_bytes_per_number = 2;

std::string lower_case(std::string_view token) {
  std::string lower(token);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; });
  return lower;
}

std::optional<SectionShape> section_shape(std::string_view lower) {
  for (const SectionShape& shape : known_sections) {
    if (shape.name == lower) return shape;
  }
  return std::nullopt;
}

bool is_keyword(std::string_view token) {
  const std::string lower = lower_case(token);
  return lower == "end" || section_shape(lower) ||
         std::find(header_keywords.begin(), header_keywords.end(), lower) != header_keywords.end();
}

class MeditParser {
 public:
  MeditParser(std::string_view content, const std::string& name, ReadReport& report)
      : cursor_(content, name, '#'), report_(report) {}

  TetMesh parse() {
    if (!cursor_.skip_blank()) cursor_.fail("the file is empty");
    while (cursor_.skip_blank()) {
      const std::string_view keyword = cursor_.token("a keyword");
      const std::string lower = lower_case(keyword);
      if (lower == "end") break;
      cursor_.set_section(std::string(keyword));
      if (lower == "meshversionformatted") {
        read_version();
      } else if (lower == "dimension") {
        read_dimension();
      } else if (lower == "vertices") {
        read_vertices();
      } else if (lower == "tetrahedra") {
        read_tetrahedra();
      } else if (const auto shape = section_shape(lower)) {
        skip_section(keyword, *shape);
      } else if (starts_like_number(keyword)) {
        cursor_.set_section("");
        cursor_.fail("expected a keyword, found the number " + detail::quote_token(keyword) +
                     " (does the previous section's count match its entries?)");
      } else {
        cursor_.set_section("");
        cursor_.fail("unknown keyword " + detail::quote_token(keyword) +
                     " (the size of its entries is not known, so it cannot be skipped)");
      }
      cursor_.set_section("");
    }
    const detail::ElementOrigin origin{cursor_.file_name(), false, "Tetrahedra", 1,
                                       cursor_.last_line()};
    return detail::assemble_tet_mesh(std::move(parsed_), origin, report_);
  }

 private:
  static bool starts_like_number(std::string_view token) {
    const char c = token.front();
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.';
  }

  void read_version() {
    const long long version = cursor_.integer("the format version");
    // 1: single precision, 2: double, 3: 64-bit ints, 4: 64-bit everything; all alike in text.
    if (version < 1 || version > 4) {
      cursor_.fail("unsupported format version " + std::to_string(version) + " (1 to 4)");
    }
  }

  void read_dimension() {
    const long long dimension = cursor_.integer("the dimension");
    if (dimension != 3) {
      cursor_.fail("dimension " + std::to_string(dimension) + ": only 3D meshes are supported");
    }
  }

  // The first token of entry `index` of `count`, after checking that the section goes on.
  std::string_view entry_start(std::size_t index, std::size_t count) {
    if (!cursor_.skip_blank()) {
      cursor_.fail_at_end("file ended after " + std::to_string(index) + " of the " +
                          std::to_string(count) + " declared entries");
    }
    const std::string_view token = cursor_.token("an entry");
    if (!starts_like_number(token) && is_keyword(token)) {
      cursor_.fail("the count says " + std::to_string(count) + " entries but " +
                   detail::quote_token(token) + " follows after " + std::to_string(index));
    }
    return token;
  }

  // The declared count, and how many entries it is safe to reserve room for.
  std::pair<std::size_t, std::size_t> read_count(std::size_t min_entry_bytes) {
    const std::size_t count = cursor_.count("entry count");
    return {count, detail::plausible_count(count, cursor_.remaining_bytes(), min_entry_bytes)};
  }

  void read_vertices() {
    const auto [count, reservable] = read_count(4 * min_bytes_per_number);
    parsed_.coordinates.reserve(parsed_.coordinates.size() + 3 * reservable);
    for (std::size_t i = 0; i < count; ++i) {
      parsed_.coordinates.push_back(cursor_.to_finite(entry_start(i, count), "x coordinate"));
      parsed_.coordinates.push_back(cursor_.finite("y coordinate"));
      parsed_.coordinates.push_back(cursor_.finite("z coordinate"));
      cursor_.integer("reference label");
    }
  }

  void read_tetrahedra() {
    const auto [count, reservable] = read_count(5 * min_bytes_per_number);
    parsed_.corners.reserve(parsed_.corners.size() + 4 * reservable);
    parsed_.regions.reserve(parsed_.regions.size() + reservable);
    parsed_.locations.reserve(parsed_.locations.size() + reservable);
    for (std::size_t i = 0; i < count; ++i) {
      const std::string_view first = entry_start(i, count);
      parsed_.locations.push_back(cursor_.line());
      parsed_.corners.push_back(cursor_.to_index(first, 1));
      for (int corner = 1; corner < 4; ++corner) {
        parsed_.corners.push_back(cursor_.to_index(cursor_.token("a vertex index"), 1));
      }
      parsed_.regions.push_back(
          cursor_.to_int(cursor_.token("reference label"), "reference label"));
    }
  }

  void skip_section(std::string_view keyword, const SectionShape& shape) {
    const std::size_t tokens_per_entry =
        static_cast<std::size_t>(shape.fixed_tokens + 3 * shape.dimension_tokens);
    const std::size_t count = cursor_.count("entry count");
    for (std::size_t i = 0; i < count; ++i) {
      entry_start(i, count);
      for (std::size_t t = 1; t < tokens_per_entry; ++t) cursor_.token("the rest of an entry");
    }
    if (count > 0) {
      report_.notes.push_back("skipped " + std::to_string(count) + " entries of section " +
                              std::string(keyword));
    }
  }

  TextCursor cursor_;
  ReadReport& report_;
  detail::ParsedTets parsed_;
};

}  // namespace

TetMesh parse_medit_mesh(std::string_view content, const std::string& display_name,
                         ReadReport* report) {
  ReadReport local_report;
  ReadReport& used = report ? *report : local_report;
  used = ReadReport{};
  return MeditParser(content, display_name, used).parse();
}

TetMesh read_medit_mesh(const std::filesystem::path& path, ReadReport* report) {
  return parse_medit_mesh(detail::read_file_bytes(path), path.string(), report);
}

std::string format_medit_mesh(const TetMesh& mesh, const std::string& comment) {
  std::ostringstream out;
  out.precision(17);
  out << "# " << comment << "\nMeshVersionFormatted 2\nDimension 3\nVertices\n"
      << mesh.vertices.rows() << "\n";
  for (Eigen::Index v = 0; v < mesh.vertices.rows(); ++v) {
    out << mesh.vertices(v, 0) << ' ' << mesh.vertices(v, 1) << ' ' << mesh.vertices(v, 2)
        << " 0\n";
  }
  out << "Tetrahedra\n" << mesh.tets.rows() << "\n";
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    for (int j = 0; j < 4; ++j) out << mesh.tets(t, j) + 1 << ' ';
    out << (mesh.regions.size() > t ? mesh.regions(t) : 0) << "\n";
  }
  out << "End\n";
  return out.str();
}

}  // namespace smfem::mesh
