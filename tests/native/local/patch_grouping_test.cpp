// local/patch_grouping.hpp on the procedural box's surface (sim/fixtures): components stay apart,
// a large region splits into patches of about equal area, frames face into the body, and the
// grouping does not depend on the order it is given the vertices in.
#include "smfem/local/patch_grouping.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Core>

#include "local/block_mesh.hpp"
#include "smfem/sim/fixtures/box_model.hpp"

namespace smfem::local {
namespace {

struct Block {
  sim::BoxModel box;
  geometry::TriangleIndices surface;  // in the mesh's vertex ids
};

Block surfaced_block(int n) {
  sim::BoxModel box = test::block(n);
  geometry::TriangleIndices surface = test::block_surface(box);
  return {std::move(box), std::move(surface)};
}

// Top-face vertices within `radius` of (x, z).
std::vector<int> top_spot(const Block& b, double x, double z, double radius) {
  std::vector<int> spot;
  for (Eigen::Index v = 0; v < b.box.rest.rows(); ++v) {
    const Eigen::Vector3d p = b.box.rest.row(v).transpose();
    if (std::abs(p.y() - 0.5) < 1e-12 && std::hypot(p.x() - x, p.z() - z) <= radius + 1e-12) {
      spot.push_back(static_cast<int>(v));
    }
  }
  return spot;
}

double patch_area(const LoadPatch& patch) {
  double area = 0.0;
  for (const double a : patch.areas) area += a;
  return area;
}

void expect_rotation(const Eigen::Matrix3d& frame) {
  EXPECT_LT((frame.transpose() * frame - Eigen::Matrix3d::Identity()).norm(), 1e-12);
  EXPECT_NEAR(frame.determinant(), 1.0, 1e-12);
}

TEST(PatchGrouping, SeparateSpotsAreSeparatePatchesFacingIntoTheBody) {
  const Block b = surfaced_block(8);
  std::vector<int> first = top_spot(b, -0.25, -0.25, 0.13);
  const std::vector<int> second = top_spot(b, 0.25, 0.25, 0.13);
  std::vector<int> active = first;
  active.insert(active.end(), second.begin(), second.end());
  const std::vector<LoadPatch> patches = group_into_patches(b.box.rest, b.surface, active, 2);
  ASSERT_EQ(patches.size(), 2u);
  std::sort(first.begin(), first.end());
  EXPECT_EQ(patches[0].vertices, first);
  for (const LoadPatch& patch : patches) {
    expect_rotation(patch.frame);
    EXPECT_LT((patch.frame.col(2) + Eigen::Vector3d::UnitY()).norm(), 1e-12);  // inward: -y
    // An interior top vertex of a grid of spacing h = 1/8 carries h^2 of area.
    EXPECT_NEAR(patch_area(patch), static_cast<double>(patch.vertices.size()) / 64.0, 1e-12);
    EXPECT_NEAR(patch.centre.y(), 0.5, 1e-12);
  }
}

TEST(PatchGrouping, ALargeRegionSplitsIntoPatchesOfAboutEqualArea) {
  const Block b = surfaced_block(12);
  const std::vector<int> face = top_spot(b, 0.0, 0.0, 10.0);  // the whole top face
  for (const int budget : {1, 3, 4, 9}) {
    const std::vector<LoadPatch> patches = group_into_patches(b.box.rest, b.surface, face, budget);
    EXPECT_EQ(static_cast<int>(patches.size()), budget);
    std::set<int> covered;
    double total = 0.0;
    for (const LoadPatch& patch : patches) {
      for (const int v : patch.vertices) EXPECT_TRUE(covered.insert(v).second) << "twice: " << v;
      total += patch_area(patch);
    }
    EXPECT_EQ(covered.size(), face.size());
    for (const LoadPatch& patch : patches) {
      EXPECT_GT(patch_area(patch), 0.5 * total / budget) << "budget " << budget;
      EXPECT_LT(patch_area(patch), 2.0 * total / budget) << "budget " << budget;
    }
  }
}

TEST(PatchGrouping, APatchRoundAnEdgeFacesBetweenItsFaces) {
  // The top face's strip along x = 0.5 and the side face's strip below it, one component.
  const Block b = surfaced_block(8);
  std::vector<int> active;
  for (Eigen::Index v = 0; v < b.box.rest.rows(); ++v) {
    const Eigen::Vector3d p = b.box.rest.row(v).transpose();
    const bool top = std::abs(p.y() - 0.5) < 1e-12 && p.x() > 0.3;
    const bool side = std::abs(p.x() - 0.5) < 1e-12 && p.y() > 0.3;
    if ((top || side) && std::abs(p.z()) < 0.2) active.push_back(static_cast<int>(v));
  }
  const std::vector<LoadPatch> patches = group_into_patches(b.box.rest, b.surface, active, 1);
  ASSERT_EQ(patches.size(), 1u);
  expect_rotation(patches[0].frame);
  const Eigen::Vector3d n = patches[0].frame.col(2);
  EXPECT_LT(n.x(), -0.3);  // into the body from both faces: -x and -y
  EXPECT_LT(n.y(), -0.3);
  EXPECT_NEAR(n.z(), 0.0, 1e-9);
}

TEST(PatchGrouping, EveryComponentGetsAPatchWhateverTheBudget) {
  const Block b = surfaced_block(8);
  std::vector<int> active;
  for (const double x : {-0.375, 0.0, 0.375}) {
    const std::vector<int> spot = top_spot(b, x, 0.0, 0.01);
    active.insert(active.end(), spot.begin(), spot.end());
  }
  EXPECT_EQ(group_into_patches(b.box.rest, b.surface, active, 1).size(), 3u);
}

TEST(PatchGrouping, TheOrderOfTheActiveVerticesDoesNotMatter) {
  const Block b = surfaced_block(10);
  std::vector<int> active = top_spot(b, 0.1, -0.05, 0.35);
  const std::vector<LoadPatch> a = group_into_patches(b.box.rest, b.surface, active, 5);
  std::reverse(active.begin(), active.end());
  active.push_back(active.front());  // a repeat
  const std::vector<LoadPatch> c = group_into_patches(b.box.rest, b.surface, active, 5);
  ASSERT_EQ(a.size(), c.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].vertices, c[k].vertices);
    EXPECT_EQ(a[k].centre, c[k].centre);
    EXPECT_EQ(a[k].frame, c[k].frame);
  }
}

TEST(PatchGrouping, RefusesWhatIsNotALoadedSurface) {
  const Block b = surfaced_block(4);
  const std::vector<int> spot = top_spot(b, 0.0, 0.0, 0.3);
  EXPECT_THROW(group_into_patches(b.box.rest, b.surface, spot, 0), std::invalid_argument);
  EXPECT_THROW(group_into_patches(b.box.rest, b.surface, {-1}, 2), std::invalid_argument);
  EXPECT_THROW(group_into_patches(b.box.rest, b.surface, {static_cast<int>(b.box.rest.rows())}, 2),
               std::invalid_argument);
  // The block's centre vertex is inside it.
  int inner = -1;
  for (Eigen::Index v = 0; v < b.box.rest.rows(); ++v) {
    if ((b.box.rest.row(v) - Eigen::RowVector3d(0.0, 0.25, 0.0)).norm() < 1e-12) {
      inner = static_cast<int>(v);
    }
  }
  ASSERT_GE(inner, 0);
  EXPECT_THROW(group_into_patches(b.box.rest, b.surface, {inner}, 2), std::invalid_argument);
  geometry::TriangleIndices bad = b.surface;
  bad(0, 0) = static_cast<int>(b.box.rest.rows());
  EXPECT_THROW(group_into_patches(b.box.rest, bad, spot, 2), std::invalid_argument);
  EXPECT_TRUE(group_into_patches(b.box.rest, b.surface, {}, 2).empty());
  MeshPositions nan_rest = b.box.rest;
  nan_rest(0, 0) = std::nan("");
  EXPECT_THROW(group_into_patches(nan_rest, b.surface, spot, 2), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::local
