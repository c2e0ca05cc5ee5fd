#pragma once
// Independent checks of a tet mesh's validity for the tetrahedralization tests: orientation,
// conformity, a closed and manifold boundary. Counted here from scratch rather than with the
// render folder's boundary code, so a bug there cannot hide one in the mesher.
#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "smfem/mesh/types.hpp"
#include "smfem/tetrahedralize/tet_quality.hpp"

namespace smfem::test {

struct BoundaryTopology {
  std::vector<std::array<int, 3>> faces;  // outward
  int faces_shared_by_more_than_two = 0;
  int interior_faces = 0;
};

inline BoundaryTopology boundary_topology(const mesh::TetMesh& mesh) {
  constexpr int kFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  std::map<std::array<int, 3>, std::vector<std::array<int, 3>>> faces;
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    for (const auto& f : kFaces) {
      std::array<int, 3> oriented = {mesh.tets(t, f[0]), mesh.tets(t, f[1]), mesh.tets(t, f[2])};
      std::array<int, 3> key = oriented;
      std::sort(key.begin(), key.end());
      faces[key].push_back(oriented);
    }
  }
  BoundaryTopology topology;
  for (const auto& [key, uses] : faces) {
    if (uses.size() == 1) topology.faces.push_back(uses.front());
    if (uses.size() == 2) ++topology.interior_faces;
    if (uses.size() > 2) ++topology.faces_shared_by_more_than_two;
  }
  return topology;
}

// Every directed boundary edge appears once and its reverse once: closed and consistently
// oriented. Returns the number of undirected boundary edges.
inline int expect_closed_oriented(const BoundaryTopology& topology) {
  std::map<std::pair<int, int>, int> directed;
  for (const auto& f : topology.faces) {
    for (int k = 0; k < 3; ++k) ++directed[{f[k], f[(k + 1) % 3]}];
  }
  int problems = 0;
  for (const auto& [edge, count] : directed) {
    const auto reverse = directed.find({edge.second, edge.first});
    if (count != 1 || reverse == directed.end() || reverse->second != 1) ++problems;
  }
  EXPECT_EQ(problems, 0) << "boundary edges not shared by exactly two opposite faces";
  return static_cast<int>(directed.size() / 2);
}

// The faces around each boundary vertex form a single fan (no pinched vertices).
inline void expect_manifold_vertices(const BoundaryTopology& topology) {
  std::map<int, std::map<int, int>> next;  // vertex -> (from -> to) around it
  for (const auto& f : topology.faces) {
    for (int k = 0; k < 3; ++k) next[f[k]][f[(k + 1) % 3]] = f[(k + 2) % 3];
  }
  int pinched = 0;
  for (const auto& [vertex, ring] : next) {
    int start = ring.begin()->first, at = start;
    std::size_t steps = 0;
    do {
      const auto it = ring.find(at);
      if (it == ring.end()) break;
      at = it->second;
      ++steps;
    } while (at != start && steps <= ring.size());
    if (steps != ring.size()) ++pinched;
  }
  EXPECT_EQ(pinched, 0) << "boundary vertices whose faces form more than one fan";
}

// Each directed boundary edge has as many faces using it as its reverse: closed and oriented,
// though an edge may carry four faces where the boundary pinches.
inline void expect_closed(const BoundaryTopology& topology) {
  std::map<std::pair<int, int>, int> directed;
  for (const auto& f : topology.faces) {
    for (int k = 0; k < 3; ++k) ++directed[{f[k], f[(k + 1) % 3]}];
  }
  int problems = 0;
  for (const auto& [edge, count] : directed) {
    const auto reverse = directed.find({edge.second, edge.first});
    if (reverse == directed.end() || reverse->second != count) ++problems;
  }
  EXPECT_EQ(problems, 0) << "open boundary edges";
}

// Positive tets within the angle bounds, conforming, every vertex used.
inline void expect_valid_tets(const mesh::TetMesh& mesh, double min_angle, double max_angle) {
  ASSERT_GT(mesh.tets.rows(), 0);
  const tetrahedralize::TetQuality q = tetrahedralize::measure_quality(mesh);
  EXPECT_GT(q.min_volume, 0.0);
  EXPECT_GE(q.min_dihedral_deg, min_angle);
  EXPECT_LE(q.max_dihedral_deg, max_angle);
  std::vector<bool> used(static_cast<std::size_t>(mesh.vertices.rows()), false);
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    for (int k = 0; k < 4; ++k) used[static_cast<std::size_t>(mesh.tets(t, k))] = true;
  }
  EXPECT_EQ(std::count(used.begin(), used.end(), false), 0) << "unused vertices";
  EXPECT_EQ(boundary_topology(mesh).faces_shared_by_more_than_two, 0);
}

}  // namespace smfem::test
