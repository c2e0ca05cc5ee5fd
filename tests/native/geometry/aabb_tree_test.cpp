// The box hierarchy's queries against brute force, built and after a refit to moved boxes.
#include "smfem/geometry/aabb_tree.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

#include <gtest/gtest.h>

namespace smfem::geometry {
namespace {

std::vector<Eigen::AlignedBox3d> random_boxes(std::mt19937& random, int count) {
  std::uniform_real_distribution<double> where(-1.0, 1.0), size(0.0, 0.1);
  std::vector<Eigen::AlignedBox3d> boxes;
  for (int i = 0; i < count; ++i) {
    const Eigen::Vector3d low(where(random), where(random), where(random));
    boxes.emplace_back(low, low + Eigen::Vector3d(size(random), size(random), size(random)));
  }
  return boxes;
}

// Every query box's overlapping primitives, and the nearest primitive centre to a point, as the
// tree finds them and by brute force.
void expect_queries_match(const AabbTree& tree, const std::vector<Eigen::AlignedBox3d>& boxes,
                          std::mt19937& random) {
  for (const Eigen::AlignedBox3d& query : random_boxes(random, 50)) {
    const Eigen::AlignedBox3d grown(query.min().array() - 0.1, query.max().array() + 0.1);
    std::vector<int> found, expected;
    tree.for_each_overlapping([&](const Eigen::AlignedBox3d& box) { return box.intersects(grown); },
                              [&](int i) {
                                if (boxes[static_cast<std::size_t>(i)].intersects(grown))
                                  found.push_back(i);
                              });
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      if (boxes[i].intersects(grown)) expected.push_back(static_cast<int>(i));
    }
    std::sort(found.begin(), found.end());
    EXPECT_EQ(found, expected);
    const Eigen::Vector3d x = query.center();
    const auto distance = [&](int i) {
      return (boxes[static_cast<std::size_t>(i)].center() - x).norm();
    };
    double nearest = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < boxes.size(); ++i)
      nearest = std::min(nearest, distance(static_cast<int>(i)));
    const double best = tree.minimize(
        [&](const Eigen::AlignedBox3d& box) { return box.exteriorDistance(x); }, distance);
    EXPECT_EQ(best, nearest);
  }
}

TEST(AabbTree, QueriesMatchBruteForce) {
  std::mt19937 random(5);
  for (const int count : {1, 3, 4, 5, 100, 1000}) {
    const std::vector<Eigen::AlignedBox3d> boxes = random_boxes(random, count);
    expect_queries_match(AabbTree(boxes), boxes, random);
  }
}

// Boxes moved as a body moves (one rigid motion) and each jittered: the refitted tree answers
// as a fresh one would.
TEST(AabbTree, RefitToMovedBoxesKeepsQueriesExact) {
  std::mt19937 random(6);
  std::vector<Eigen::AlignedBox3d> boxes = random_boxes(random, 500);
  AabbTree tree(boxes);
  const Eigen::Matrix3d rotation =
      Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  for (Eigen::AlignedBox3d& box : boxes) {
    const Eigen::Vector3d centre = rotation * box.center() + Eigen::Vector3d(0.3, -0.2, 0.1) +
                                   Eigen::Vector3d(jitter(random), jitter(random), jitter(random));
    const Eigen::Vector3d half = 0.5 * box.sizes();
    box = Eigen::AlignedBox3d(centre - half, centre + half);
  }
  tree.refit(boxes);
  expect_queries_match(tree, boxes, random);
}

TEST(AabbTree, RefitRefusesAnotherNumberOfBoxes) {
  std::mt19937 random(7);
  AabbTree tree(random_boxes(random, 10));
  EXPECT_THROW(tree.refit(random_boxes(random, 11)), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::geometry
