#include "smfem/mesh/obj.hpp"

#include <algorithm>
#include <array>
#include <map>

#include "smfem/mesh/detail/assemble.hpp"
#include "smfem/mesh/detail/file_bytes.hpp"
#include "smfem/mesh/detail/numbers.hpp"
#include "smfem/mesh/detail/text_cursor.hpp"

namespace smfem::mesh {
namespace {

using detail::TextCursor;

// Statements that carry nothing a simulation mesh needs; skipped without a note.
constexpr std::array<std::string_view, 10> ignored_statements{"vt", "vn", "vp",     "g", "o",
                                                              "s",  "l",  "usemtl", "p", "mtllib"};

// The 0-based vertex of a face corner such as "7", "7/2", "7/2/5", "7//5" or "-1".
int corner_vertex(const TextCursor& cursor, std::string_view corner, std::size_t vertex_count) {
  const std::string_view index_text = corner.substr(0, corner.find('/'));
  if (index_text.empty()) {
    cursor.fail("face corner " + detail::quote_token(corner) + " has no vertex");
  }
  const long long index = cursor.to_integer(index_text, "a vertex index");
  if (index >= 0) return cursor.to_index(index_text, 1);  // checked once all vertices are read
  const long long resolved = static_cast<long long>(vertex_count) + index;
  if (resolved < 0) {
    cursor.fail("relative vertex index " + std::to_string(index) +
                " reaches before the first vertex (only " + std::to_string(vertex_count) +
                " so far)");
  }
  return static_cast<int>(resolved);
}

// One note per kind of statement skipped, but a bounded number of notes: a file that is not
// OBJ at all would otherwise yield one per line.
void note_skipped(const std::map<std::string, std::size_t, std::less<>>& skipped,
                  ReadReport& report) {
  constexpr std::size_t max_notes = 8;
  std::size_t noted = 0;
  std::size_t other_lines = 0;
  for (const auto& [statement, count] : skipped) {
    if (noted++ < max_notes) {
      report.notes.push_back("ignored " + std::to_string(count) + " lines starting with " +
                             detail::quote_token(statement));
    } else {
      other_lines += count;
    }
  }
  if (other_lines > 0) {
    report.notes.push_back("ignored " + std::to_string(other_lines) +
                           " lines with other unknown statements");
  }
}

}  // namespace

SurfaceMesh parse_obj_mesh(std::string_view content, const std::string& display_name,
                           ReadReport* report) {
  ReadReport local_report;
  ReadReport& used = report ? *report : local_report;
  used = ReadReport{};

  TextCursor cursor(content, display_name, '#');
  if (!cursor.skip_blank()) cursor.fail("the file is empty");
  detail::ParsedTriangles parsed;
  std::vector<int> polygon;
  std::map<std::string, std::size_t, std::less<>> skipped_statements;
  while (cursor.skip_blank()) {
    const std::string_view statement = cursor.token("a statement");
    if (statement == "v") {
      parsed.coordinates.push_back(cursor.to_finite(cursor.token_on_line("x"), "x coordinate"));
      parsed.coordinates.push_back(cursor.to_finite(cursor.token_on_line("y"), "y coordinate"));
      parsed.coordinates.push_back(cursor.to_finite(cursor.token_on_line("z"), "z coordinate"));
    } else if (statement == "f") {
      polygon.clear();
      const std::size_t vertex_count = parsed.coordinates.size() / 3;
      while (!cursor.at_line_end()) {
        polygon.push_back(corner_vertex(cursor, cursor.token_on_line("a corner"), vertex_count));
      }
      if (polygon.size() < 3) {
        cursor.fail("a face needs at least 3 corners, this one has " +
                    std::to_string(polygon.size()));
      }
      detail::append_fan(polygon, 0, cursor.line(), parsed);
    } else if (std::find(ignored_statements.begin(), ignored_statements.end(), statement) ==
               ignored_statements.end()) {
      ++skipped_statements[std::string(statement)];
    }
    cursor.skip_line();
  }
  note_skipped(skipped_statements, used);
  const detail::ElementOrigin origin{display_name, false, "f", 1, cursor.last_line()};
  return detail::assemble_surface_mesh(std::move(parsed), origin, used);
}

SurfaceMesh read_obj_mesh(const std::filesystem::path& path, ReadReport* report) {
  return parse_obj_mesh(detail::read_file_bytes(path), path.string(), report);
}

}  // namespace smfem::mesh
