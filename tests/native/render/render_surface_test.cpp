#include "smfem/render/render_surface.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "geometry/surface_shapes.hpp"
#include "smfem/geometry/primitives.hpp"
#include "smfem/geometry/sdf.hpp"
#include "smfem/render/boundary_surface.hpp"
#include "smfem/tetrahedralize/isosurface_stuffing.hpp"

namespace smfem::render {
namespace {

using Eigen::Vector3d;

const geometry::Sdf& sphere() {
  static const geometry::Sdf s = geometry::capsule(Vector3d::Zero(), Vector3d::Zero(), 1.0);
  return s;
}

mesh::TetMesh coarse_sphere() {
  tetrahedralize::StuffingOptions options;
  options.edge_length = 0.35;
  return tetrahedralize::stuff_isosurface(sphere(), options);
}

// Weights that are an affine function of position interpolate exactly: W = [X 1].
Eigen::MatrixXd affine_weights(const mesh::TetMesh& m) {
  Eigen::MatrixXd w(m.vertices.rows(), 4);
  w.leftCols(3) = m.vertices;
  w.col(3).setOnes();
  return w;
}

void expect_reproduces_positions(const RenderSurface& s, const mesh::TetMesh& m) {
  const Eigen::MatrixXd w = render_weights(s, affine_weights(m));
  ASSERT_EQ(w.rows(), s.vertices.rows());
  for (Eigen::Index v = 0; v < s.vertices.rows(); ++v) {
    EXPECT_LT((w.row(v).head<3>() - s.vertices.row(v)).norm(), 1e-12);
    EXPECT_NEAR(w(v, 3), 1.0, 1e-12);
  }
}

TEST(RenderSurface, BoundaryWeightsAreRowsOfW) {
  const mesh::TetMesh m = coarse_sphere();
  const RenderSurface s = boundary_render_surface(m);
  const BoundarySurface b = boundary_surface(m);
  EXPECT_EQ(s.triangles, b.triangles);
  const Eigen::MatrixXd w = Eigen::MatrixXd::Random(m.vertices.rows(), 5);
  const Eigen::MatrixXd rw = render_weights(s, w);
  for (Eigen::Index v = 0; v < s.vertices.rows(); ++v) {
    EXPECT_EQ(rw.row(v), w.row(b.tet_vertex[v]));
  }
}

TEST(RenderSurface, EmbeddedSurfaceInterpolatesAffineWeightsExactly) {
  const mesh::TetMesh m = coarse_sphere();
  const mesh::SurfaceMesh fine = test::icosphere(1.0, 3);  // partly outside the coarse tets
  const RenderSurface s = embedded_render_surface(m, fine);
  EXPECT_EQ(s.triangles, fine.triangles);
  EXPECT_EQ(s.vertices, fine.vertices);
  expect_reproduces_positions(s, m);
}

TEST(RenderSurface, SmoothSurfaceLiesOnTheShapeAndIsFinerThanTheBoundary) {
  const mesh::TetMesh m = coarse_sphere();
  const RenderSurface s = smooth_render_surface(sphere(), 0.12, m);
  EXPECT_GT(s.triangles.rows(), 4 * boundary_render_surface(m).triangles.rows());
  for (Eigen::Index v = 0; v < s.vertices.rows(); ++v) {
    EXPECT_NEAR(s.vertices.row(v).norm(), 1.0, 1e-8);
  }
  expect_reproduces_positions(s, m);
}

TEST(RenderSurface, PrimitiveSurfaceOfABoxHangsOnTheTetsAtItsRestPosition) {
  const Vector3d half(0.5, 0.05, 0.05);
  const geometry::Sdf box = geometry::box(Vector3d::Zero(), half);
  tetrahedralize::StuffingOptions options;
  options.edge_length = 0.03;
  const mesh::TetMesh m = tetrahedralize::stuff_isosurface(box, options);
  const auto primitives = geometry::union_primitives(box);
  ASSERT_TRUE(primitives.has_value());
  const double spacing = boundary_edge_length(m);
  EXPECT_GT(spacing, 0.5 * options.edge_length);
  EXPECT_LT(spacing, 1.5 * options.edge_length);
  const RenderSurface s = primitive_render_surface(*primitives, spacing, m);
  ASSERT_EQ(s.normals.rows(), s.vertices.rows());
  // Corners and edges that stuffing cut off lie outside the tets: their coordinates are
  // extrapolated, and still give the rest position (affine weights interpolate exactly).
  EXPECT_LT(s.barycentric.minCoeff(), 0.0);
  for (Eigen::Index v = 0; v < s.vertices.rows(); ++v) {
    EXPECT_NEAR(s.barycentric.row(v).sum(), 1.0, 1e-12);
  }
  expect_reproduces_positions(s, m);
  // How far outside: a fraction of the lattice spacing, so extrapolation stays mild.
  EXPECT_GT(s.barycentric.minCoeff(), -2.0);
  EXPECT_LT(s.barycentric.maxCoeff(), 3.0);
}

}  // namespace
}  // namespace smfem::render
