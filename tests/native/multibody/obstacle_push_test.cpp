// An obstacle's push on the bodies in its way (multibody/obstacle_push.hpp), on bodies of bare
// surface points: the struck body goes along the contact's normal and the obstacle goes on; the
// push passes on to a row; a pinned body in the row holds the obstacle back; a push into a tilted
// floor slides along it; a body wedged between two planes holds it back (and the search ends).
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "smfem/multibody/obstacle_push.hpp"

namespace smfem::multibody {
namespace {
// Named: the unity build puts this file beside the other multibody tests' helpers.
namespace push_test {

constexpr double kKeep = 0.1;         // CCD's fraction
constexpr double kActivation = 0.01;  // dhat, m
constexpr double kTimestep = 0.01;    // s

// A cube of half-width 5 cm about `center`: its surface points on a 3 x 3 x 3 grid (26 samples).
struct Cube {
  contact::SurfacePositions positions;
  Eigen::VectorXi samples;
  explicit Cube(const Eigen::Vector3d& center) {
    std::vector<Eigen::Vector3d> points;
    for (int i = -1; i <= 1; ++i) {
      for (int j = -1; j <= 1; ++j) {
        for (int k = -1; k <= 1; ++k) {
          if (i == 0 && j == 0 && k == 0) continue;
          points.push_back(center + 0.05 * Eigen::Vector3d(i, j, k));
        }
      }
    }
    positions.resize(static_cast<Eigen::Index>(points.size()), 3);
    samples.resize(static_cast<Eigen::Index>(points.size()));
    for (std::size_t p = 0; p < points.size(); ++p) {
      positions.row(static_cast<Eigen::Index>(p)) = points[p].transpose();
      samples(static_cast<Eigen::Index>(p)) = static_cast<int>(p);
    }
  }
  PushCandidate candidate(bool can_translate = true) const {
    return {&positions, &samples, can_translate, Eigen::Vector3d::Zero(),
            Eigen::AlignedBox3d(positions.colwise().minCoeff().transpose(),
                                positions.colwise().maxCoeff().transpose())};
  }
};

// A 20 cm sphere 5 cm short of the cube at the origin, on the -x side, last in the list.
std::vector<contact::Obstacle> with_sphere(std::vector<contact::Obstacle> obstacles) {
  contact::Obstacle sphere;
  sphere.kind = contact::ObstacleKind::sphere;
  sphere.point = {-0.3, 0.0, 0.0};
  sphere.radius = 0.2;
  obstacles.push_back(sphere);
  return obstacles;
}

contact::Obstacle plane(const Eigen::Vector3d& point, const Eigen::Vector3d& normal) {
  contact::Obstacle out;
  out.point = point;
  out.normal = normal.normalized();
  return out;
}

const Eigen::Vector3d kMotion(0.1, 0.0, 0.0);  // the sphere's, over the step: 5 cm into the cube

TEST(ObstaclePush, TheStruckBodyGoesAlongTheNormalAndTheObstacleGoesOn) {
  const Cube cube(Eigen::Vector3d::Zero());
  const std::vector<contact::Obstacle> obstacles = with_sphere({});
  const ObstacleAdvance advance =
      advance_obstacle(obstacles, 0, kMotion, {cube.candidate()}, kKeep, kActivation, kTimestep);
  EXPECT_DOUBLE_EQ(advance.alpha, 1.0);
  ASSERT_EQ(advance.pushes.size(), 1u);
  const Push& push = advance.pushes[0];
  // The rest of the motion once CCD's share of the 5 cm gap is used: 5 cm and a little.
  EXPECT_NEAR(push.translation.x(), 0.055, 0.001);
  EXPECT_NEAR(push.translation.tail<2>().norm(), 0.0, 1e-12);  // struck face on
  EXPECT_NEAR(push.velocity.x(), kMotion.x() / kTimestep, 1e-9);
}

TEST(ObstaclePush, ThePushPassesOnAlongARow) {
  const Cube first(Eigen::Vector3d::Zero()), second(Eigen::Vector3d(0.12, 0.0, 0.0));
  const Cube aside(Eigen::Vector3d(0.0, 0.0, 0.5));  // far from both: left alone
  const std::vector<contact::Obstacle> obstacles = with_sphere({});
  const ObstacleAdvance advance = advance_obstacle(
      obstacles, 0, kMotion, {first.candidate(), second.candidate(), aside.candidate()}, kKeep,
      kActivation, kTimestep);
  EXPECT_DOUBLE_EQ(advance.alpha, 1.0);
  ASSERT_EQ(advance.pushes.size(), 2u);
  EXPECT_EQ(advance.pushes[0].body, 0);
  EXPECT_EQ(advance.pushes[1].body, 1);
  EXPECT_EQ(advance.pushes[0].translation, advance.pushes[1].translation);  // rigidly together
  EXPECT_EQ(advance.pushes[0].velocity, advance.pushes[1].velocity);
}

TEST(ObstaclePush, APinnedBodyInTheRowHoldsTheObstacleBack) {
  const Cube first(Eigen::Vector3d::Zero()), pinned(Eigen::Vector3d(0.12, 0.0, 0.0));
  const std::vector<contact::Obstacle> obstacles = with_sphere({});
  const ObstacleAdvance advance =
      advance_obstacle(obstacles, 0, kMotion, {first.candidate(), pinned.candidate(false)}, kKeep,
                       kActivation, kTimestep);
  EXPECT_TRUE(advance.pushes.empty());
  // As far as CCD lets it come at the struck cube: a tenth short of its 5 cm gap.
  EXPECT_NEAR(advance.alpha, 0.45, 0.01);
}

// The floor under the cube rises towards +x (normal (-0.1, 1, 0)), 1 mm below its lowest corner:
// pushed along x, the cube slides up along it, and its push has no part into the floor.
TEST(ObstaclePush, APushIntoATiltedFloorSlidesAlongIt) {
  const Cube cube(Eigen::Vector3d::Zero());
  const Eigen::Vector3d normal = Eigen::Vector3d(-0.1, 1.0, 0.0).normalized();
  const double lowest = (cube.positions * normal).minCoeff();
  const std::vector<contact::Obstacle> obstacles =
      with_sphere({plane((lowest - 0.001) * normal, normal)});
  const ObstacleAdvance advance =
      advance_obstacle(obstacles, 1, kMotion, {cube.candidate()}, kKeep, kActivation, kTimestep);
  ASSERT_EQ(advance.pushes.size(), 1u);
  const Push& push = advance.pushes[0];
  EXPECT_NEAR(push.translation.dot(normal), 0.0, 1e-12);
  EXPECT_GT(push.translation.x(), 0.0);
  EXPECT_GT(push.translation.y(), 0.0);  // up the slope
  EXPECT_GE(push.velocity.dot(normal), -1e-12);
}

// The same floor and a wall leaning over the cube's far side, both within dhat: each plane turns
// the push into the other, so the cube holds the obstacle back.
TEST(ObstaclePush, ABodyWedgedBetweenTwoPlanesHoldsTheObstacleBack) {
  const Cube cube(Eigen::Vector3d::Zero());
  const Eigen::Vector3d floor_normal = Eigen::Vector3d(-0.1, 1.0, 0.0).normalized();
  const Eigen::Vector3d wall_normal = Eigen::Vector3d(-1.0, -0.3, 0.0).normalized();
  const double lowest = (cube.positions * floor_normal).minCoeff();
  const double nearest = (cube.positions * wall_normal).minCoeff();
  const std::vector<contact::Obstacle> obstacles =
      with_sphere({plane((lowest - 0.001) * floor_normal, floor_normal),
                   plane((nearest - 0.001) * wall_normal, wall_normal)});
  const ObstacleAdvance advance =
      advance_obstacle(obstacles, 2, kMotion, {cube.candidate()}, kKeep, kActivation, kTimestep);
  EXPECT_TRUE(advance.pushes.empty());
  EXPECT_LT(advance.alpha, 1.0);
}

}  // namespace push_test
}  // namespace
}  // namespace smfem::multibody
