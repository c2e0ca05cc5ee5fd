#pragma once
// The checks every reader shares, done once all of a file is parsed (vertices may come after
// the elements that use them): index ranges, repeated corners, degenerate and inverted tets,
// unused vertices, empty meshes. Each element keeps where it came from, so that a problem found
// here still points at its line or byte.
#include <cstddef>
#include <string>
#include <vector>

#include "smfem/mesh/types.hpp"

namespace smfem::mesh::detail {

// How to point back into the file that held the elements.
struct ElementOrigin {
  std::string file_name;
  bool binary = false;           // locations are byte offsets, else line numbers
  std::string section;           // starts each message, e.g. "Tetrahedra"; empty for none
  int index_base = 0;            // added to a 0-based index to print it as the file wrote it
  std::size_t end_location = 0;  // the file's last line or size, for "no elements" errors
};

// A tet mesh as parsed: indices made 0-based by the reader but not yet checked.
struct ParsedTets {
  std::vector<double> coordinates;     // 3 per vertex: x y z, already checked finite
  std::vector<int> corners;            // 4 per tet, 0-based
  std::vector<int> regions;            // 1 per tet
  std::vector<std::size_t> locations;  // 1 per tet: its line or byte offset
};

// A surface as parsed, polygons already fan-triangulated.
struct ParsedTriangles {
  std::vector<double> coordinates;     // 3 per vertex: x y z, already checked finite
  std::vector<int> corners;            // 3 per triangle, 0-based
  std::vector<int> regions;            // 1 per triangle
  std::vector<std::size_t> locations;  // 1 per triangle: its polygon's line or byte offset
};

// Fails on an empty mesh, an index out of range, a tet with a repeated corner, or a degenerate
// tet (|volume| <= 1e-12 * (mean edge length)^3); swaps corners 1 and 2 of inverted tets.
// Counts reoriented tets and unreferenced vertices in the report.
TetMesh assemble_tet_mesh(ParsedTets&& parsed, const ElementOrigin& origin, ReadReport& report);

// Fails on an empty mesh, an index out of range or a triangle with a repeated corner.
// Counts unreferenced vertices in the report.
SurfaceMesh assemble_surface_mesh(ParsedTriangles&& parsed, const ElementOrigin& origin,
                                  ReadReport& report);

// Appends to a fan-triangulated polygon list: corners (c0, c_i, c_{i+1}) for i = 1..n-2.
void append_fan(const std::vector<int>& polygon, int region, std::size_t location,
                ParsedTriangles& parsed);

}  // namespace smfem::mesh::detail
