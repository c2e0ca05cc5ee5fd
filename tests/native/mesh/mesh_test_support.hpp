#pragma once
// Helpers shared by the mesh reader tests: writing files, catching MeshError, the geometry the
// tests check (volumes, boundaries) and the real bunny.
#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "smfem/mesh/error.hpp"
#include "smfem/mesh/medit.hpp"
#include "smfem/mesh/types.hpp"
#include "support/test_paths.hpp"

namespace smfem::test {

inline void write_file(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream stream(path, std::ios::binary);
  stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(stream.good()) << "cannot write " << path;
}

// The shortest text that reads back as exactly `value`, so written meshes compare exactly.
inline std::string exact(double value) {
  char buffer[32];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
}

// Runs `read`, which must throw MeshError, and returns the error (fails the test otherwise).
template <class Read>
mesh::MeshError mesh_error_of(Read&& read) {
  try {
    read();
  } catch (const mesh::MeshError& error) {
    return error;
  }
  ADD_FAILURE() << "expected a MeshError";
  return mesh::MeshError::in_file("(none)", "(no error thrown)");
}

// Expects the message to contain each of `parts` (file name, line, phrase).
inline void expect_message_has(const mesh::MeshError& error,
                               std::initializer_list<std::string_view> parts) {
  const std::string message = error.what();
  for (std::string_view part : parts) {
    EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
  }
}

inline double signed_volume(const mesh::TetMesh& mesh, Eigen::Index tet) {
  const Eigen::RowVector3d x0 = mesh.vertices.row(mesh.tets(tet, 0));
  const Eigen::RowVector3d e1 = mesh.vertices.row(mesh.tets(tet, 1)) - x0;
  const Eigen::RowVector3d e2 = mesh.vertices.row(mesh.tets(tet, 2)) - x0;
  const Eigen::RowVector3d e3 = mesh.vertices.row(mesh.tets(tet, 3)) - x0;
  return e1.cross(e2).dot(e3) / 6.0;
}

inline void expect_all_positive(const mesh::TetMesh& mesh) {
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    EXPECT_GT(signed_volume(mesh, t), 0.0) << "tet " << t;
  }
}

inline double total_volume(const mesh::TetMesh& mesh) {
  double volume = 0;
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) volume += signed_volume(mesh, t);
  return volume;
}

// The faces that belong to one tet only, each wound outward (for positive tets), in tet order.
inline mesh::Triangles boundary_triangles(const mesh::TetMesh& mesh) {
  constexpr int outward_faces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  std::map<std::array<int, 3>, int> uses;
  std::vector<std::array<int, 3>> faces;
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    for (const auto& face : outward_faces) {
      std::array<int, 3> corners{mesh.tets(t, face[0]), mesh.tets(t, face[1]),
                                 mesh.tets(t, face[2])};
      faces.push_back(corners);
      std::sort(corners.begin(), corners.end());
      ++uses[corners];
    }
  }
  std::vector<std::array<int, 3>> boundary;
  for (const auto& face : faces) {
    std::array<int, 3> sorted = face;
    std::sort(sorted.begin(), sorted.end());
    if (uses[sorted] == 1) boundary.push_back(face);
  }
  mesh::Triangles triangles(static_cast<Eigen::Index>(boundary.size()), 3);
  for (std::size_t f = 0; f < boundary.size(); ++f) {
    for (int c = 0; c < 3; ++c) triangles(static_cast<Eigen::Index>(f), c) = boundary[f][c];
  }
  return triangles;
}

// The unit cube's corners in the order
// (0,0,0) (1,0,0) (1,1,0) (0,1,0) (0,0,1) (1,0,1) (1,1,1) (0,1,1).
inline const mesh::Vertices& unit_cube() {
  static const mesh::Vertices cube = (mesh::Vertices(8, 3) << 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0,
                                      0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1)
                                         .finished();
  return cube;
}

// The cube's six faces as quads wound counter-clockwise seen from outside (bottom, top, front,
// back, left, right), and the 12 triangles of their fans (a b c d -> a b c, a c d).
inline constexpr int unit_cube_quads[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                              {2, 3, 7, 6}, {0, 4, 7, 3}, {1, 2, 6, 5}};
inline mesh::Triangles unit_cube_fans() {
  mesh::Triangles triangles(12, 3);
  for (int q = 0; q < 6; ++q) {
    const auto& quad = unit_cube_quads[q];
    triangles.row(2 * q) << quad[0], quad[1], quad[2];
    triangles.row(2 * q + 1) << quad[0], quad[2], quad[3];
  }
  return triangles;
}

inline std::filesystem::path bunny_path() { return shared_data_dir() / "coarse_bunny.mesh"; }
inline std::filesystem::path octopus_path() { return shared_data_dir() / "octopuslowdef.mesh"; }

}  // namespace smfem::test
