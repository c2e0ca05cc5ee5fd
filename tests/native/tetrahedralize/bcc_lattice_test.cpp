#include "smfem/tetrahedralize/bcc_lattice.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include <gtest/gtest.h>

#include "smfem/tetrahedralize/tet_quality.hpp"

namespace smfem::tetrahedralize {
namespace {

using Eigen::Vector3d;

TEST(BccLattice, TetsArePositiveCongruentAndTileTheInterior) {
  const double h = 0.5;
  const BccLattice lattice(Vector3d(1, 2, 3), h, Eigen::Vector3i(4, 5, 6));
  int count = 0;
  std::map<std::array<int, 3>, int> faces;
  lattice.for_each_tet([&](const std::array<int, 4>& t) {
    ++count;
    const Vector3d a = lattice.position(t[0]), b = lattice.position(t[1]),
                   c = lattice.position(t[2]), d = lattice.position(t[3]);
    EXPECT_NEAR(signed_volume(a, b, c, d), h * h * h / 12.0, 1e-12);
    EXPECT_TRUE(lattice.is_black(t[0]) && lattice.is_black(t[1]));
    EXPECT_FALSE(lattice.is_black(t[2]) || lattice.is_black(t[3]));
    EXPECT_NEAR((a - b).norm(), h, 1e-12);
    EXPECT_NEAR((c - d).norm(), h, 1e-12);
    for (const auto& [x, y] : {std::pair{a, c}, {a, d}, {b, c}, {b, d}}) {
      EXPECT_NEAR((x - y).norm(), h * std::sqrt(3.0) / 2.0, 1e-12);
    }
    const int f[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
    for (const auto& face : f) {
      std::array<int, 3> key = {t[face[0]], t[face[1]], t[face[2]]};
      std::sort(key.begin(), key.end());
      ++faces[key];
    }
  });
  // Edges along x: 4 cubes long, interior in y (4) and z (5): 4 * 4 * 5 edges, 4 tets each.
  EXPECT_EQ(count, 4 * (4 * 4 * 5 + 5 * 3 * 5 + 6 * 3 * 4));
  for (const auto& [face, uses] : faces) EXPECT_LE(uses, 2);
}

TEST(BccLattice, EdgesCoverEveryTetEdgeOnce) {
  const BccLattice lattice(Vector3d::Zero(), 1.0, Eigen::Vector3i(3, 4, 3));
  std::set<std::pair<int, int>> edges;
  lattice.for_each_edge([&](int a, int b, bool is_long) {
    EXPECT_TRUE(edges.insert(std::minmax(a, b)).second) << "edge listed twice";
    EXPECT_NEAR((lattice.position(a) - lattice.position(b)).norm(),
                is_long ? 1.0 : std::sqrt(3.0) / 2.0, 1e-12);
    EXPECT_EQ(is_long, lattice.is_black(a) == lattice.is_black(b));
  });
  lattice.for_each_tet([&](const std::array<int, 4>& t) {
    for (int i = 0; i < 4; ++i) {
      for (int j = i + 1; j < 4; ++j) EXPECT_TRUE(edges.count(std::minmax(t[i], t[j])));
    }
  });
  // Each black or red vertex: up to 6 long and 8 short edges.
  std::map<int, int> degree;
  for (const auto& [a, b] : edges) ++degree[a], ++degree[b];
  EXPECT_EQ(std::max_element(degree.begin(), degree.end(),
                             [](auto& x, auto& y) { return x.second < y.second; })
                ->second,
            14);
}

TEST(BccLattice, IdsAndPositionsRoundTrip) {
  const BccLattice lattice(Vector3d(-1, 0, 1), 0.25, Eigen::Vector3i(3, 4, 5));
  EXPECT_EQ(lattice.vertex_count(), 4 * 5 * 6 + 3 * 4 * 5);
  EXPECT_EQ(lattice.doubled_coordinates(lattice.black(3, 2, 1)), Eigen::Vector3i(6, 4, 2));
  EXPECT_EQ(lattice.doubled_coordinates(lattice.red(2, 3, 4)), Eigen::Vector3i(5, 7, 9));
  EXPECT_TRUE(lattice.position(lattice.red(0, 0, 0)).isApprox(Vector3d(-0.875, 0.125, 1.125)));
  const geometry::Points all = lattice.positions();
  EXPECT_TRUE(all.row(lattice.black(1, 1, 1)).transpose().isApprox(Vector3d(-0.75, 0.25, 1.25)));
}

}  // namespace
}  // namespace smfem::tetrahedralize
