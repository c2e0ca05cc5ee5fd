// Obstacle distances, and CCD against a brute-force sampling of the motion.
#include "smfem/sim/contact/obstacle.hpp"

#include <cmath>
#include <limits>
#include <random>

#include <gtest/gtest.h>

namespace smfem::contact {
namespace {

std::vector<Obstacle> shapes() {
  Obstacle plane;
  plane.kind = ObstacleKind::plane;
  plane.point = {0, -0.3, 0};
  plane.normal = Eigen::Vector3d(0.2, 1, -0.1).normalized();
  Obstacle sphere;
  sphere.kind = ObstacleKind::sphere;
  sphere.point = {0.1, 0.2, -0.1};
  sphere.radius = 0.25;
  Obstacle box;
  box.kind = ObstacleKind::box;
  box.point = {-0.2, 0.1, 0.3};
  box.half_extents = {0.3, 0.1, 0.2};
  Obstacle capsule;
  capsule.kind = ObstacleKind::capsule;
  capsule.point = {-0.4, 0, 0};
  capsule.end = {0.4, 0.3, 0.1};
  capsule.radius = 0.1;
  capsule.offset = {0.05, 0, 0};
  return {plane, sphere, box, capsule};
}

TEST(Obstacle, DistanceGradientIsTheDirection) {
  std::mt19937 random(3);
  std::uniform_real_distribution<double> uniform(-1.5, 1.5);
  for (const Obstacle& o : shapes()) {
    for (int trial = 0; trial < 200; ++trial) {
      const Eigen::Vector3d x(uniform(random), uniform(random), uniform(random));
      const ObstacleDistance d = obstacle_distance(o, x);
      if (d.distance < 1e-3) continue;
      for (int i = 0; i < 3; ++i) {
        const Eigen::Vector3d e = Eigen::Vector3d::Unit(i) * 1e-7;
        const double fd =
            (obstacle_distance(o, x + e).distance - obstacle_distance(o, x - e).distance) / 2e-7;
        EXPECT_NEAR(d.direction(i), fd, 1e-5) << obstacle_kind_name(o.kind);
      }
      // The nearest point lies on the surface: stepping back along the direction reaches 0.
      EXPECT_NEAR(obstacle_distance(o, x - d.direction * d.distance).distance, 0.0, 1e-9)
          << obstacle_kind_name(o.kind);
    }
  }
}

// CCD never reports a time after the first contact, and keeps the distance it promises.
TEST(Obstacle, TimeOfImpactIsSafeAgainstBruteForceSampling) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-1.5, 1.5);
  const double keep = 0.1;
  int hits = 0;
  for (const Obstacle& o : shapes()) {
    for (int trial = 0; trial < 300; ++trial) {
      const Eigen::Vector3d x(uniform(random), uniform(random), uniform(random));
      const ObstacleDistance start = obstacle_distance(o, x);
      const double d0 = start.distance;
      if (d0 <= 1e-6) continue;
      // Every other motion aimed at the obstacle (overshooting it), the others random.
      const Eigen::Vector3d wander(uniform(random), uniform(random), uniform(random));
      const Eigen::Vector3d dx =
          trial % 2 == 0 ? Eigen::Vector3d(-2.0 * d0 * start.direction + 0.3 * d0 * wander)
                         : Eigen::Vector3d(2.0 * wander);
      const double alpha = obstacle_time_of_impact(o, x, dx, keep);
      ASSERT_GE(alpha, 0.0);
      ASSERT_LE(alpha, 1.0);
      double first_contact = 2.0;  // of the sampled motion
      for (int s = 0; s <= 4000; ++s) {
        const double a = s / 4000.0;
        const double d = obstacle_distance(o, x + a * dx).distance;
        if (a <= alpha) {
          EXPECT_GE(d, keep * d0 * (1 - 1e-9)) << obstacle_kind_name(o.kind) << " a=" << a;
        }
        if (d <= 0.0 && first_contact > 1.0) first_contact = a;
      }
      if (first_contact <= 1.0) {
        ++hits;
        EXPECT_LT(alpha, first_contact) << obstacle_kind_name(o.kind);
        // Not needlessly timid: it reaches at least part of the way to the contact.
        EXPECT_GT(alpha, 0.0);
      }
    }
  }
  EXPECT_GT(hits, 150);  // the random cases did collide
}

// A sample resting near a box's top or a capsule's side and sliding along it (a body sliding
// over a table) keeps its whole step; bounded by |dx| alone it was allowed d / |dx| of it, a few
// percent, and bodies slid over boxes as if braked. Aimed a little into the shape it still stops
// short of it, where the distance has fallen to the kept fraction.
TEST(Obstacle, TimeOfImpactLetsAPointSlideAlongABoxOrACapsule) {
  Obstacle box;
  box.kind = ObstacleKind::box;
  box.point = {0.0, 0.2, 0.0};
  box.half_extents = {2.0, 0.2, 2.0};
  Obstacle capsule;
  capsule.kind = ObstacleKind::capsule;
  capsule.point = {-3.0, -0.6, 0.0};
  capsule.end = {3.0, -0.6, 0.0};
  capsule.radius = 1.0;
  const double keep = 0.1;
  for (const Obstacle& o : {box, capsule}) {
    const Eigen::Vector3d x(0.0, 0.4 + 1e-5, 0.0);  // 10 micrometres above either
    ASSERT_NEAR(obstacle_distance(o, x).distance, 1e-5, 1e-12) << obstacle_kind_name(o.kind);
    const Eigen::Vector3d slide(0.016, 0.0, 0.0);  // 1 m/s over a 1/60 s step
    // (Over the capsule's curved top the slide rises off it.)
    EXPECT_EQ(obstacle_time_of_impact(o, x, slide, keep), 1.0) << obstacle_kind_name(o.kind);
    const Eigen::Vector3d into(0.016, -2e-5, 0.0);  // reaches the surface halfway
    const double alpha = obstacle_time_of_impact(o, x, into, keep);
    EXPECT_LT(alpha, 0.5) << obstacle_kind_name(o.kind);
    EXPECT_GT(alpha, 0.4) << obstacle_kind_name(o.kind);
    EXPECT_GE(obstacle_distance(o, x + alpha * into).distance, keep * 1e-5 * (1 - 1e-9));
  }
}

TEST(Obstacle, ChecksRefuseBadShapes) {
  Obstacle sphere;
  sphere.kind = ObstacleKind::sphere;
  sphere.radius = -1.0;
  EXPECT_THROW(check_obstacle(sphere), std::invalid_argument);
  Obstacle plane;
  plane.normal = {0, 2, 0};
  EXPECT_THROW(check_obstacle(plane), std::invalid_argument);
  Obstacle friction;
  friction.friction = std::nan("");
  EXPECT_THROW(check_obstacle(friction), std::invalid_argument);
  Obstacle moving;
  moving.path.times = {0.0, 0.0};
  moving.path.offsets = {Eigen::Vector3d::Zero(), Eigen::Vector3d::Ones()};
  EXPECT_THROW(check_obstacle(moving), std::invalid_argument);
}

// The deepest point of each shape below a tilted plane, against the lowest of a fine grid of
// points inside the shape (obstacle_distance 0 there).
TEST(Obstacle, ClearanceFromAPlaneIsTheShapesDeepestPoint) {
  const std::vector<Obstacle> all = shapes();
  const Obstacle& plane = all[0];
  const double spacing = 0.0125;  // over the cube [-0.6, 0.6]^3, which holds every shape
  for (std::size_t s = 1; s < all.size(); ++s) {
    double lowest = std::numeric_limits<double>::infinity();
    for (double x = -0.6; x <= 0.6; x += spacing)
      for (double y = -0.6; y <= 0.6; y += spacing)
        for (double z = -0.6; z <= 0.6; z += spacing) {
          const Eigen::Vector3d point(x, y, z);
          if (obstacle_distance(all[s], point).distance > 0.0) continue;
          lowest = std::min(lowest, obstacle_distance(plane, point).distance);
        }
    ASSERT_TRUE(std::isfinite(lowest)) << s;
    EXPECT_NEAR(clearance_from_plane(plane, all[s]), lowest, 2.0 * spacing) << s;
  }
  EXPECT_EQ(clearance_from_plane(plane, plane), std::numeric_limits<double>::infinity());
}

TEST(Obstacle, PathInterpolatesAndHolds) {
  ObstaclePath path{{0.0, 1.0, 3.0},
                    {Eigen::Vector3d::Zero(), Eigen::Vector3d(2, 0, 0), Eigen::Vector3d(2, 4, 0)}};
  EXPECT_TRUE(path.offset_at(-1.0).isZero());
  EXPECT_TRUE(path.offset_at(0.5).isApprox(Eigen::Vector3d(1, 0, 0)));
  EXPECT_TRUE(path.offset_at(2.0).isApprox(Eigen::Vector3d(2, 2, 0)));
  EXPECT_TRUE(path.offset_at(10.0).isApprox(Eigen::Vector3d(2, 4, 0)));
}

}  // namespace
}  // namespace smfem::contact
