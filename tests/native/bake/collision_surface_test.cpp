#include "smfem/bake/collision_surface.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

#include "smfem/sim/contact/contact_sampling.hpp"
#include "subspace/box_mesh.hpp"

namespace smfem::bake {
namespace {

// A 2 x 1 x 1 box of 16 x 8 x 8 cells: 1,280 boundary triangles, 40 samples, and weights that
// differ from vertex to vertex (two smooth fields), so that a row read from the wrong vertex
// shows.
contact::ContactSurface box_surface(Eigen::Vector3d size = {2.0, 1.0, 1.0}) {
  const mesh::TetMesh box = test::box_mesh({16, 8, 8}, size);
  Eigen::MatrixXd weights(box.vertices.rows(), 2);
  weights.col(0) = (box.vertices.col(0).array() * 1.3 + box.vertices.col(1).array()).sin();
  weights.col(1) = 1.0 - weights.col(0).array();
  return contact::sample_contact_surface(box.vertices, weights, box.tets, 40);
}

// Twice the volume the surface encloses times 3 (the divergence theorem), for comparing.
double enclosed_volume(const contact::ContactSurface& s) {
  double volume = 0.0;
  for (Eigen::Index t = 0; t < s.triangles.rows(); ++t) {
    const Eigen::Vector3d a = s.positions.row(s.triangles(t, 0));
    const Eigen::Vector3d b = s.positions.row(s.triangles(t, 1));
    const Eigen::Vector3d c = s.positions.row(s.triangles(t, 2));
    volume += a.dot(b.cross(c)) / 6.0;
  }
  return volume;
}

TEST(CollisionSurface, CoarsensAClosedSurfaceKeepingSamplesAndEachVertexsOwnWeights) {
  const contact::ContactSurface fine = box_surface();
  contact::ContactSurface coarse = fine;
  const CoarseningReport report = coarsen_collision_surface(coarse, 200);
  EXPECT_EQ(report.triangles_before, fine.triangles.rows());
  EXPECT_EQ(report.triangles_after, coarse.triangles.rows());
  EXPECT_LE(coarse.triangles.rows(), 200);
  EXPECT_GE(coarse.triangles.rows(), 12);
  EXPECT_LT(coarse.positions.rows(), fine.positions.rows());

  // Every vertex is a fine vertex with that vertex's weights.
  std::map<std::tuple<double, double, double>, Eigen::Index> fine_vertex;
  for (Eigen::Index v = 0; v < fine.positions.rows(); ++v) {
    fine_vertex[{fine.positions(v, 0), fine.positions(v, 1), fine.positions(v, 2)}] = v;
  }
  for (Eigen::Index v = 0; v < coarse.positions.rows(); ++v) {
    const auto found =
        fine_vertex.find({coarse.positions(v, 0), coarse.positions(v, 1), coarse.positions(v, 2)});
    ASSERT_NE(found, fine_vertex.end()) << v;
    EXPECT_EQ(coarse.weights.row(v), fine.weights.row(found->second)) << v;
  }
  // The samples are the same points with the same areas.
  ASSERT_EQ(coarse.samples.size(), fine.samples.size());
  for (Eigen::Index k = 0; k < fine.samples.size(); ++k) {
    EXPECT_EQ(coarse.positions.row(coarse.samples(k)), fine.positions.row(fine.samples(k))) << k;
  }
  EXPECT_EQ(coarse.areas, fine.areas);

  // Closed and consistently oriented: every edge once each way; every vertex used.
  std::map<std::pair<int, int>, int> edges;
  Eigen::VectorXi used = Eigen::VectorXi::Zero(coarse.positions.rows());
  for (Eigen::Index t = 0; t < coarse.triangles.rows(); ++t) {
    for (int e = 0; e < 3; ++e) {
      ++edges[{coarse.triangles(t, e), coarse.triangles(t, (e + 1) % 3)}];
      used(coarse.triangles(t, e)) = 1;
    }
  }
  for (const auto& [edge, count] : edges) {
    EXPECT_EQ(count, 1);
    EXPECT_EQ(edges.count({edge.second, edge.first}), 1U);
  }
  for (int v : coarse.samples) used(v) = 1;
  EXPECT_EQ(used.sum(), coarse.positions.rows());

  // A box simplifies without cutting: the same volume, outward.
  EXPECT_NEAR(enclosed_volume(coarse), 2.0, 1e-9);
  EXPECT_NEAR(enclosed_volume(fine), 2.0, 1e-9);
}

TEST(CollisionSurface, StopsWhereTheShapeWouldChangeMoreThanTheBoundAllows) {
  // A sphere cannot go down to 20 triangles within half a percent of its size.
  const mesh::TetMesh ball = [] {
    mesh::TetMesh box = test::box_mesh({10, 10, 10}, {2.0, 2.0, 2.0}, {-1.0, -1.0, -1.0});
    for (Eigen::Index v = 0; v < box.vertices.rows(); ++v) {
      const Eigen::Vector3d x = box.vertices.row(v);
      box.vertices.row(v) = x * (x.lpNorm<Eigen::Infinity>() / std::max(x.norm(), 1e-12));
    }
    return box;
  }();
  contact::ContactSurface surface = contact::sample_contact_surface(
      ball.vertices, Eigen::MatrixXd::Ones(ball.vertices.rows(), 1), ball.tets, 100);
  const CoarseningReport report = coarsen_collision_surface(surface, 20);
  EXPECT_GT(report.triangles_after, 20);
  EXPECT_LT(report.triangles_after, report.triangles_before);
  EXPECT_LE(report.error, 1.01 * kCollisionSurfaceError * 2.0);  // of the extent, 2 m
}

TEST(CollisionSurface, LeavesASurfaceAtOrBelowTheTargetAndRefusesAbsurdTargets) {
  const contact::ContactSurface fine = box_surface();
  contact::ContactSurface same = fine;
  const CoarseningReport report =
      coarsen_collision_surface(same, static_cast<int>(fine.triangles.rows()));
  EXPECT_EQ(report.triangles_after, report.triangles_before);
  EXPECT_EQ(same.triangles, fine.triangles);
  EXPECT_EQ(same.positions, fine.positions);
  EXPECT_THROW(coarsen_collision_surface(same, 3), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::bake
