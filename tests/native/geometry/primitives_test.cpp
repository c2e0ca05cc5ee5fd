#include "smfem/geometry/primitives.hpp"

#include <random>

#include <gtest/gtest.h>

namespace smfem::geometry {
namespace {

using Eigen::Vector3d;

Points points_in_cube(int count, double extent, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-extent, extent);
  Points p(count, 3);
  for (int i = 0; i < count; ++i) p.row(i) << u(rng), u(rng), u(rng);
  return p;
}

TEST(UnionPrimitives, ReadsBackEveryPrimitiveWithItsTransform) {
  Similarity turn;
  turn.rotation = rotation_from_axis_angle_deg(Vector3d(1, 2, 3), 37.0);
  turn.translation = Vector3d(0.1, -0.2, 0.3);
  turn.scale = 1.5;
  Similarity outer;
  outer.rotation = rotation_from_euler_deg(Vector3d(10, 20, 30));
  outer.translation = Vector3d(-0.3, 0, 0.2);
  outer.scale = 0.8;
  const Sdf shape = unite({
      box(Vector3d(0, 0.95, 0), Vector3d(0.1, 0.05, 0.1), 0.02),
      cylinder(Vector3d(0, 0.9, 0), Vector3d(0, 0.7, 0), 0.02),
      transform(unite({capsule(Vector3d(0, 0, 0), Vector3d(0.2, 0, 0), 0.05),
                       transform(ellipsoid(Vector3d(0.1, 0, 0), Vector3d(0.1, 0.2, 0.3)), turn)}),
                outer),
  });
  const auto primitives = union_primitives(shape);
  ASSERT_TRUE(primitives.has_value());
  ASSERT_EQ(primitives->size(), 4u);

  const auto& b = std::get<BoxShape>((*primitives)[0].shape);
  EXPECT_EQ(b.center, Vector3d(0, 0.95, 0));
  EXPECT_LT((b.half_extents - Vector3d(0.1, 0.05, 0.1)).norm(), 1e-15);
  EXPECT_EQ(b.rounding, 0.02);
  EXPECT_EQ((*primitives)[0].to_world.rotation, Eigen::Matrix3d::Identity());
  EXPECT_EQ((*primitives)[0].to_world.scale, 1.0);
  const auto& c = std::get<CylinderShape>((*primitives)[1].shape);
  EXPECT_LT((c.from - Vector3d(0, 0.9, 0)).norm(), 1e-15);
  EXPECT_LT((c.to - Vector3d(0, 0.7, 0)).norm(), 1e-15);
  EXPECT_EQ(c.radius, 0.02);
  EXPECT_NEAR((*primitives)[2].to_world.scale, 0.8, 1e-14);
  EXPECT_NEAR((*primitives)[3].to_world.scale, 1.2, 1e-14);
  EXPECT_TRUE(std::holds_alternative<CapsuleShape>((*primitives)[2].shape));
  EXPECT_TRUE(std::holds_alternative<EllipsoidShape>((*primitives)[3].shape));

  // The union is the minimum of the primitives read back.
  const Points p = points_in_cube(500, 1.2, 7);
  const Eigen::VectorXd whole = shape.evaluate(p);
  Eigen::VectorXd smallest = Eigen::VectorXd::Constant(p.rows(), 1e300);
  for (const Primitive& primitive : *primitives) {
    smallest = smallest.cwiseMin(primitive_sdf(primitive).evaluate(p));
  }
  EXPECT_LT((whole - smallest).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(UnionPrimitives, RefusesWhatIsNotAPlainUnionOfConvexPrimitives) {
  const Sdf a = box(Vector3d::Zero(), Vector3d(1, 1, 1));
  const Sdf b = capsule(Vector3d(0, 0, 0), Vector3d(1, 0, 0), 0.5);
  EXPECT_TRUE(union_primitives(a).has_value());
  EXPECT_FALSE(union_primitives(intersect({a, b})).has_value());
  EXPECT_FALSE(union_primitives(subtract(a, b)).has_value());
  EXPECT_FALSE(union_primitives(smooth_unite({a, b}, 0.1)).has_value());
  EXPECT_FALSE(union_primitives(unite({a, subtract(a, b)})).has_value());
}

}  // namespace
}  // namespace smfem::geometry
