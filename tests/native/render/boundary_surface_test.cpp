#include "smfem/render/boundary_surface.hpp"

#include <map>
#include <set>
#include <stdexcept>
#include <utility>

#include <gtest/gtest.h>

#include "smfem/geometry/sdf.hpp"
#include "smfem/tetrahedralize/isosurface_stuffing.hpp"

namespace smfem::render {
namespace {

using Eigen::Vector3d;

mesh::TetMesh single_tet() {
  mesh::TetMesh m;
  m.vertices.resize(5, 3);  // vertex 0 unused, so the compaction shows
  m.vertices << 9, 9, 9, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
  m.tets.resize(1, 4);
  m.tets << 1, 2, 3, 4;
  m.regions = Eigen::VectorXi::Zero(1);
  return m;
}

Vector3d face_normal(const BoundarySurface& s, Eigen::Index f) {
  const Vector3d a = s.vertices.row(s.triangles(f, 0)).transpose();
  const Vector3d b = s.vertices.row(s.triangles(f, 1)).transpose();
  const Vector3d c = s.vertices.row(s.triangles(f, 2)).transpose();
  return (b - a).cross(c - a);
}

TEST(BoundarySurface, SingleTetHasFourOutwardFaces) {
  const mesh::TetMesh m = single_tet();
  const BoundarySurface s = boundary_surface(m);
  ASSERT_EQ(s.triangles.rows(), 4);
  ASSERT_EQ(s.vertices.rows(), 4);
  EXPECT_EQ(s.tet_vertex, Eigen::Vector4i(1, 2, 3, 4));
  const Vector3d centroid(0.25, 0.25, 0.25);
  for (Eigen::Index f = 0; f < 4; ++f) {
    const Vector3d a = s.vertices.row(s.triangles(f, 0)).transpose();
    EXPECT_GT(face_normal(s, f).dot(a - centroid), 0.0) << "face " << f << " points inward";
    EXPECT_EQ(s.face_tet[f], 0);
  }
  for (Eigen::Index v = 0; v < 4; ++v) {
    EXPECT_EQ(s.vertices.row(v), m.vertices.row(s.tet_vertex[v]));
  }
}

TEST(BoundarySurface, StuffedBoxIsClosedWithEulerCharacteristicTwo) {
  tetrahedralize::StuffingOptions options;
  options.edge_length = 0.2;
  const mesh::TetMesh m = tetrahedralize::stuff_isosurface(
      geometry::box(Vector3d::Zero(), Vector3d(1, 0.7, 0.5), 0.1), options);
  const BoundarySurface s = boundary_surface(m);
  std::map<std::pair<int, int>, int> directed;
  for (Eigen::Index f = 0; f < s.triangles.rows(); ++f) {
    for (int k = 0; k < 3; ++k) ++directed[{s.triangles(f, k), s.triangles(f, (k + 1) % 3)}];
  }
  for (const auto& [edge, count] : directed) {
    EXPECT_EQ(count, 1);
    EXPECT_EQ(directed.count({edge.second, edge.first}), 1u);
  }
  const auto edges = static_cast<Eigen::Index>(directed.size() / 2);
  EXPECT_EQ(s.vertices.rows() - edges + s.triangles.rows(), 2);
  // Outward: the signed volume enclosed by the faces is the mesh's volume.
  double enclosed = 0.0;
  for (Eigen::Index f = 0; f < s.triangles.rows(); ++f) {
    enclosed += s.vertices.row(s.triangles(f, 0)).dot(face_normal(s, f)) / 6.0;
  }
  EXPECT_NEAR(enclosed, tetrahedralize::measure_quality(m).total_volume, 1e-9);
}

TEST(BoundarySurface, SharedFacesAreInteriorAndOverSharedFacesRejected) {
  mesh::TetMesh m;
  m.vertices.resize(6, 3);
  m.vertices << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, -1, -1, -1;
  m.tets.resize(2, 4);
  m.tets << 0, 1, 2, 3, 1, 3, 2, 4;  // share face (1, 2, 3)
  EXPECT_EQ(boundary_surface(m).triangles.rows(), 6);
  m.tets.conservativeResize(3, 4);
  m.tets.row(2) << 1, 2, 3, 5;
  EXPECT_THROW(boundary_surface(m), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::render
