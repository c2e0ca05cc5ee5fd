#include "smfem/geometry/triangle_mesh_sdf.hpp"

#include <cmath>
#include <random>
#include <utility>

#include <gtest/gtest.h>

#include "geometry/surface_shapes.hpp"
#include "smfem/geometry/error.hpp"
#include "smfem/geometry/sdf.hpp"

namespace smfem::geometry {
namespace {

using Eigen::Vector3d;

TriangleMeshSdf make(const mesh::SurfaceMesh& s) {
  return TriangleMeshSdf(s.vertices, s.triangles);
}

std::vector<Vector3d> random_points(int count, double extent, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-extent, extent);
  std::vector<Vector3d> points;
  for (int i = 0; i < count; ++i) points.emplace_back(u(rng), u(rng), u(rng));
  return points;
}

TEST(TriangleMeshSdf, CubeMatchesTheBoxPrimitive) {
  const TriangleMeshSdf cube = make(test::cube_surface(1.0));
  const Sdf reference = box(Vector3d::Zero(), Vector3d(1, 1, 1));
  EXPECT_NEAR(cube.surface_winding(), 0.5, 1e-9);
  EXPECT_FALSE(cube.inward());
  for (const Vector3d& p : random_points(3000, 2.0, 1)) {
    EXPECT_NEAR(cube.signed_distance(p), reference(p), 1e-12) << p.transpose();
    const bool inside = p.cwiseAbs().maxCoeff() < 1;
    EXPECT_NEAR(cube.winding_number(p), inside ? 1.0 : 0.0, 0.05);
  }
}

TEST(TriangleMeshSdf, SphereSignAndDistance) {
  const double radius = 1.0;
  const mesh::SurfaceMesh sphere = test::icosphere(radius, 4);  // 5120 triangles
  const TriangleMeshSdf sdf = make(sphere);
  // The polyhedron lies inside the sphere; its faces are at most this far below it.
  const double sag = 0.002;
  for (const Vector3d& p : random_points(3000, 1.6, 2)) {
    const double r = p.norm();
    if (std::abs(r - radius) < sag) continue;
    EXPECT_EQ(sdf.signed_distance(p) < 0, r < radius) << p.transpose();
    EXPECT_NEAR(sdf.signed_distance(p), r - radius, sag) << p.transpose();
  }
}

TEST(TriangleMeshSdf, HierarchicalWindingNumberIsCloseToExact) {
  const TriangleMeshSdf sdf = make(test::icosphere(1.0, 4));
  double worst = 0.0;
  for (const Vector3d& p : random_points(300, 1.5, 3)) {
    worst = std::max(worst, std::abs(sdf.winding_number(p) - sdf.exact_winding_number(p)));
  }
  EXPECT_LT(worst, 0.05);
}

TEST(TriangleMeshSdf, CubeWithAMissingTriangleKeepsItsSigns) {
  const TriangleMeshSdf open = make(test::without_triangle(test::cube_surface(1.0), 3));
  EXPECT_GT(open.surface_winding(), TriangleMeshSdf::kMinSurfaceWinding);
  EXPECT_LT(open.surface_winding(), 0.5);
  for (const Vector3d& p : random_points(3000, 2.0, 4)) {
    const double depth = std::abs(p.cwiseAbs().maxCoeff() - 1.0);
    if (depth < 0.01) continue;
    EXPECT_EQ(open.signed_distance(p) < 0, p.cwiseAbs().maxCoeff() < 1) << p.transpose();
  }
}

TEST(TriangleMeshSdf, InwardSurfaceIsFlipped) {
  const TriangleMeshSdf inward = make(test::reversed(test::icosphere(1.0, 2)));
  EXPECT_TRUE(inward.inward());
  EXPECT_LT(inward.signed_distance(Vector3d(0.1, 0.2, 0.3)), 0);
  EXPECT_GT(inward.signed_distance(Vector3d(1.1, 0.2, 0.3)), 0);
}

TEST(TriangleMeshSdf, OpenSheetHasNoInside) {
  mesh::SurfaceMesh sheet;
  sheet.vertices.resize(4, 3);
  sheet.vertices << 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0;
  sheet.triangles.resize(2, 3);
  sheet.triangles << 0, 1, 2, 0, 2, 3;
  EXPECT_THROW(make(sheet), GeometryError);
  // Half a sphere is badly open too.
  mesh::SurfaceMesh sphere = test::icosphere(1.0, 2);
  mesh::SurfaceMesh half = sphere;
  Eigen::Index kept = 0;
  for (Eigen::Index t = 0; t < sphere.triangles.rows(); ++t) {
    double z = 0;
    for (int k = 0; k < 3; ++k) z += sphere.vertices(sphere.triangles(t, k), 2);
    if (z > 0) half.triangles.row(kept++) = sphere.triangles.row(t);
  }
  half.triangles.conservativeResize(kept, 3);
  try {
    make(half);
    FAIL() << "half a sphere was accepted";
  } catch (const GeometryError& error) {
    EXPECT_NE(std::string(error.what()).find("does not enclose a volume"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("open edges: close its holes"), std::string::npos)
        << error.what();
  }
}

// A closed sphere with half its triangles turned inside out has no holes: the message says what
// is wrong (it told the user to close holes).
TEST(TriangleMeshSdf, SaysAClosedSurfaceWithFlippedTrianglesIsMisoriented) {
  mesh::SurfaceMesh sphere = test::icosphere(1.0, 2);
  for (Eigen::Index t = 0; t < sphere.triangles.rows(); ++t) {
    double z = 0.0;
    for (int k = 0; k < 3; ++k) z += sphere.vertices(sphere.triangles(t, k), 2);
    if (z > 0) std::swap(sphere.triangles(t, 1), sphere.triangles(t, 2));
  }
  try {
    make(sphere);
    FAIL() << "a sphere with half its triangles flipped was accepted";
  } catch (const GeometryError& error) {
    EXPECT_NE(std::string(error.what()).find("its triangles face opposite ways"), std::string::npos)
        << error.what();
  }
}

TEST(TriangleMeshSdf, RejectsBrokenInput) {
  mesh::SurfaceMesh cube = test::cube_surface();
  cube.triangles(0, 0) = 8;
  EXPECT_THROW(make(cube), GeometryError);
  mesh::SurfaceMesh empty;
  empty.vertices.resize(0, 3);
  empty.triangles.resize(0, 3);
  EXPECT_THROW(make(empty), GeometryError);
}

TEST(TriangleMeshSdf, UsableAsAnSdfNode) {
  auto surface = std::make_shared<const TriangleMeshSdf>(make(test::cube_surface(1.0)));
  const Sdf moved =
      transform(triangle_mesh(surface), {Eigen::Matrix3d::Identity(), Vector3d(3, 0, 0), 2.0});
  EXPECT_NEAR(moved(Vector3d(3, 0, 0)), -2.0, 1e-12);
  EXPECT_NEAR(moved(Vector3d(6, 0, 0)), 1.0, 1e-12);
  EXPECT_TRUE(moved.bounds().isApprox(Eigen::AlignedBox3d(Vector3d(1, -2, -2), Vector3d(5, 2, 2))));
}

}  // namespace
}  // namespace smfem::geometry
