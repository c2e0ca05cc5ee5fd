#include "smfem/tetrahedralize/isosurface_stuffing.hpp"

#include <cmath>
#include <random>
#include <set>
#include <stdexcept>

#include <gtest/gtest.h>

#include "smfem/geometry/error.hpp"
#include "smfem/geometry/sdf.hpp"
#include "tetrahedralize/mesh_checks.hpp"

namespace smfem::tetrahedralize {
namespace {

using Eigen::Vector3d;

constexpr double kPi = 3.14159265358979323846;

mesh::TetMesh stuff(const geometry::Sdf& sdf, double h, StuffingReport* report = nullptr) {
  StuffingOptions options;
  options.edge_length = h;
  return stuff_isosurface(sdf, options, report);
}

// Everything a stuffed mesh of a smooth, connected, genus-0 shape must satisfy.
void expect_good_mesh(const mesh::TetMesh& mesh, const geometry::Sdf& sdf, double h) {
  test::expect_valid_tets(mesh, kMinDihedralBoundDeg, kMaxDihedralBoundDeg);
  const test::BoundaryTopology topology = test::boundary_topology(mesh);
  const int edges = test::expect_closed_oriented(topology);
  test::expect_manifold_vertices(topology);
  std::set<int> boundary_vertices;
  for (const auto& f : topology.faces) boundary_vertices.insert(f.begin(), f.end());
  const int euler =
      static_cast<int>(boundary_vertices.size()) - edges + static_cast<int>(topology.faces.size());
  EXPECT_EQ(euler, 2);
  // Boundary vertices are cut points or warped vertices: on the surface.
  double worst = 0.0;
  for (int v : boundary_vertices)
    worst = std::max(worst, std::abs(sdf(mesh.vertices.row(v).transpose())));
  EXPECT_LT(worst, 1e-6 * h);
}

double volume_of(const mesh::TetMesh& mesh) { return measure_quality(mesh).total_volume; }

TEST(IsosurfaceStuffing, SphereIsValidAndConvergesInVolume) {
  const double r = 1.0;
  const geometry::Sdf sphere =
      geometry::capsule(Vector3d(0.03, -0.02, 0.01), Vector3d(0.03, -0.02, 0.01), r);
  const double exact = 4.0 / 3.0 * kPi * r * r * r;
  double previous_error = 1.0;
  for (double h : {0.4, 0.2, 0.1}) {
    StuffingReport report;
    const mesh::TetMesh mesh = stuff(sphere, h, &report);
    SCOPED_TRACE(h);
    expect_good_mesh(mesh, sphere, h);
    const double error = std::abs(volume_of(mesh) - exact) / exact;
    EXPECT_LT(error, previous_error);
    previous_error = error;
    EXPECT_GE(report.quality.min_dihedral_deg, kMinDihedralBoundDeg);
    EXPECT_GT(report.warped_vertices, 0u);
    EXPECT_GT(report.cut_points, 0u);
  }
  EXPECT_LT(previous_error, 0.01);
}

TEST(IsosurfaceStuffing, TiltedBoxWithSharpCorners) {
  const geometry::Similarity tilt{geometry::rotation_from_euler_deg(Vector3d(20, 35, 10)),
                                  Vector3d(0.1, 0.2, 0.3), 1.0};
  const geometry::Sdf box =
      geometry::transform(geometry::box(Vector3d::Zero(), Vector3d(1.0, 0.6, 0.4)), tilt);
  const double exact = 8 * 1.0 * 0.6 * 0.4;
  double previous_error = 1.0;
  for (double h : {0.2, 0.1, 0.07}) {
    const mesh::TetMesh mesh = stuff(box, h);
    SCOPED_TRACE(h);
    expect_good_mesh(mesh, box, h);
    const double error = std::abs(volume_of(mesh) - exact) / exact;
    EXPECT_LT(error, previous_error);
    previous_error = error;
  }
  EXPECT_LT(previous_error, 0.03);
}

TEST(IsosurfaceStuffing, BoxAlignedWithTheLatticeHasExactZeros) {
  // Faces on lattice planes put many lattice vertices exactly on the surface.
  const geometry::Sdf box = geometry::box(Vector3d::Zero(), Vector3d(1, 1, 1));
  const mesh::TetMesh mesh = stuff(box, 0.25);
  expect_good_mesh(mesh, box, 0.25);
  EXPECT_NEAR(volume_of(mesh), 8.0, 0.08);
}

TEST(IsosurfaceStuffing, UnionOfCapsules) {
  const geometry::Sdf shape =
      geometry::unite({geometry::capsule(Vector3d(-1, 0, 0), Vector3d(1, 0, 0), 0.35),
                       geometry::capsule(Vector3d(0, -1, 0.1), Vector3d(0.2, 1, -0.1), 0.3)});
  double previous = 0.0;
  for (double h : {0.12, 0.06}) {
    const mesh::TetMesh mesh = stuff(shape, h);
    SCOPED_TRACE(h);
    expect_good_mesh(mesh, shape, h);
    const double volume = volume_of(mesh);
    if (previous > 0.0) {
      EXPECT_NEAR(volume, previous, 0.03 * volume);
    }
    previous = volume;
  }
}

TEST(IsosurfaceStuffing, RandomBlobsStayWithinTheBounds) {
  // Clusters of spheres about one lattice spacing across: every stencil, sharp creases,
  // pieces too thin for the lattice. The boundary may pinch here, but tets stay good, the
  // mesh conforms and the boundary stays closed and oriented.
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> u(0, 1);
  for (int trial = 0; trial < 12; ++trial) {
    std::vector<geometry::Sdf> blobs;
    for (int i = 0; i < 10; ++i) {
      blobs.push_back(geometry::capsule(Vector3d(u(rng), u(rng), u(rng)),
                                        Vector3d(u(rng), u(rng), u(rng)), 0.04 + 0.2 * u(rng)));
    }
    const geometry::Sdf shape =
        trial % 2 ? geometry::unite(blobs) : geometry::smooth_unite(blobs, 0.1);
    const mesh::TetMesh mesh = stuff(shape, 0.1 + 0.1 * u(rng));
    SCOPED_TRACE(trial);
    test::expect_valid_tets(mesh, kMinDihedralBoundDeg, kMaxDihedralBoundDeg);
    test::expect_closed(test::boundary_topology(mesh));
  }
}

TEST(IsosurfaceStuffing, RejectsBadInput) {
  const geometry::Sdf sphere = geometry::capsule(Vector3d::Zero(), Vector3d::Zero(), 1);
  EXPECT_THROW(stuff(sphere, 0.0), std::invalid_argument);
  EXPECT_THROW(stuff(sphere, NAN), std::invalid_argument);
  EXPECT_THROW(stuff(sphere, 1e-5), std::invalid_argument);  // 10^16 lattice vertices
  StuffingOptions options;
  options.edge_length = 0.1;
  options.alpha_long = 0.5;
  EXPECT_THROW(stuff_isosurface(sphere, options), std::invalid_argument);
  const geometry::Sdf empty =
      geometry::intersect({sphere, geometry::capsule(Vector3d(5, 0, 0), Vector3d(5, 0, 0), 1)});
  EXPECT_THROW(stuff(empty, 0.1), geometry::GeometryError);
  // A sliver much thinner than the lattice holds no tet.
  const geometry::Sdf sliver = geometry::box(Vector3d(0.01, 0.02, 0.03), Vector3d(1, 1, 0.001));
  EXPECT_THROW(stuff(sliver, 0.5), geometry::GeometryError);
}

}  // namespace
}  // namespace smfem::tetrahedralize
