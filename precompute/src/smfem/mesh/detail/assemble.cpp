#include "smfem/mesh/detail/assemble.hpp"

#include <cmath>
#include <utility>

#include <Eigen/Geometry>

#include "smfem/mesh/detail/numbers.hpp"
#include "smfem/mesh/error.hpp"

namespace smfem::mesh::detail {
namespace {

// A tet is degenerate when |volume| <= degenerate_ratio * (mean edge length)^3: scale-free, and
// tight enough that only flat (coplanar) tets fail, not merely thin ones.
constexpr double degenerate_ratio = 1e-12;

[[noreturn]] void fail_at(const ElementOrigin& origin, std::size_t location,
                          const std::string& problem) {
  const std::string message = origin.section.empty() ? problem : origin.section + ": " + problem;
  if (origin.binary) throw MeshError::at_byte(origin.file_name, location, message);
  throw MeshError::at_line(origin.file_name, location, message);
}

std::string index_as_written(int index, const ElementOrigin& origin) {
  return std::to_string(static_cast<long long>(index) + origin.index_base);
}

// Range and repeat checks of one element's corners.
void check_corners(const int* corners, int corner_count, std::size_t vertex_count,
                   std::size_t element, std::string_view element_word, std::size_t location,
                   const ElementOrigin& origin) {
  for (int i = 0; i < corner_count; ++i) {
    const int index = corners[i];
    if (index < 0 || static_cast<std::size_t>(index) >= vertex_count) {
      std::string problem = "vertex index " + index_as_written(index, origin) + " out of range ";
      if (vertex_count == 0) {
        problem += "(the file has no vertices)";
      } else {
        problem += std::to_string(origin.index_base) + ".." +
                   std::to_string(static_cast<long long>(vertex_count) - 1 + origin.index_base);
        if (index == -1 && origin.index_base == 1) problem += " (indices are 1-based)";
      }
      fail_at(origin, location, problem);
    }
    for (int j = 0; j < i; ++j) {
      if (corners[j] == index) {
        fail_at(origin, location,
                std::string(element_word) + " " + std::to_string(element + 1) + " repeats vertex " +
                    index_as_written(index, origin) + " (an element needs distinct corners)");
      }
    }
  }
}

std::size_t count_unreferenced(std::size_t vertex_count, const std::vector<int>& corners) {
  std::vector<bool> used(vertex_count, false);
  for (int index : corners) used[static_cast<std::size_t>(index)] = true;
  std::size_t unused = 0;
  for (bool is_used : used) unused += is_used ? 0 : 1;
  return unused;
}

Vertices to_vertices(const std::vector<double>& coordinates) {
  return Eigen::Map<const Vertices>(coordinates.data(),
                                    static_cast<Eigen::Index>(coordinates.size() / 3), 3);
}

Eigen::VectorXi to_regions(const std::vector<int>& regions) {
  return Eigen::Map<const Eigen::VectorXi>(regions.data(),
                                           static_cast<Eigen::Index>(regions.size()));
}

}  // namespace

TetMesh assemble_tet_mesh(ParsedTets&& parsed, const ElementOrigin& origin, ReadReport& report) {
  const std::size_t vertex_count = parsed.coordinates.size() / 3;
  const std::size_t tet_count = parsed.corners.size() / 4;
  if (tet_count == 0) fail_at(origin, origin.end_location, "no tetrahedra in the file");

  TetMesh mesh;
  mesh.vertices = to_vertices(parsed.coordinates);
  for (std::size_t t = 0; t < tet_count; ++t) {
    int* corners = &parsed.corners[4 * t];
    check_corners(corners, 4, vertex_count, t, "tet", parsed.locations[t], origin);

    const Eigen::RowVector3d x0 = mesh.vertices.row(corners[0]);
    const Eigen::RowVector3d e1 = mesh.vertices.row(corners[1]) - x0;
    const Eigen::RowVector3d e2 = mesh.vertices.row(corners[2]) - x0;
    const Eigen::RowVector3d e3 = mesh.vertices.row(corners[3]) - x0;
    const double volume = e1.cross(e2).dot(e3) / 6.0;
    const double mean_edge = (e1.norm() + e2.norm() + e3.norm() + (e2 - e1).norm() +
                              (e3 - e1).norm() + (e3 - e2).norm()) /
                             6.0;
    if (!(std::abs(volume) > degenerate_ratio * mean_edge * mean_edge * mean_edge)) {
      fail_at(origin, parsed.locations[t],
              "tet " + std::to_string(t + 1) + " is degenerate (volume " + format_real(volume) +
                  " for a mean edge length of " + format_real(mean_edge) + ")");
    }
    if (volume < 0) {
      std::swap(corners[1], corners[2]);
      ++report.reoriented_tets;
    }
  }
  mesh.tets =
      Eigen::Map<const Tets>(parsed.corners.data(), static_cast<Eigen::Index>(tet_count), 4);
  mesh.regions = to_regions(parsed.regions);
  report.unreferenced_vertices = count_unreferenced(vertex_count, parsed.corners);
  return mesh;
}

SurfaceMesh assemble_surface_mesh(ParsedTriangles&& parsed, const ElementOrigin& origin,
                                  ReadReport& report) {
  const std::size_t vertex_count = parsed.coordinates.size() / 3;
  const std::size_t triangle_count = parsed.corners.size() / 3;
  if (triangle_count == 0) fail_at(origin, origin.end_location, "no triangles in the file");

  for (std::size_t f = 0; f < triangle_count; ++f) {
    check_corners(&parsed.corners[3 * f], 3, vertex_count, f, "triangle", parsed.locations[f],
                  origin);
  }
  SurfaceMesh mesh;
  mesh.vertices = to_vertices(parsed.coordinates);
  mesh.triangles = Eigen::Map<const Triangles>(parsed.corners.data(),
                                               static_cast<Eigen::Index>(triangle_count), 3);
  mesh.regions = to_regions(parsed.regions);
  report.unreferenced_vertices = count_unreferenced(vertex_count, parsed.corners);
  return mesh;
}

void append_fan(const std::vector<int>& polygon, int region, std::size_t location,
                ParsedTriangles& parsed) {
  for (std::size_t i = 1; i + 1 < polygon.size(); ++i) {
    parsed.corners.insert(parsed.corners.end(), {polygon[0], polygon[i], polygon[i + 1]});
    parsed.regions.push_back(region);
    parsed.locations.push_back(location);
  }
}

}  // namespace smfem::mesh::detail
