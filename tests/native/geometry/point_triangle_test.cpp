#include "smfem/geometry/point_triangle.hpp"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

namespace smfem::geometry {
namespace {

using Eigen::Vector3d;

constexpr double kPi = 3.14159265358979323846;

// Brute force: the nearest of a fine barycentric sampling.
Vector3d sampled_closest(const Vector3d& p, const Vector3d& a, const Vector3d& b,
                         const Vector3d& c) {
  Vector3d best = a;
  const int n = 200;
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; i + j <= n; ++j) {
      const Vector3d q = a + (b - a) * i / n + (c - a) * j / n;
      if ((q - p).squaredNorm() < (best - p).squaredNorm()) best = q;
    }
  }
  return best;
}

TEST(ClosestPointOnTriangle, EveryRegionAgreesWithSampling) {
  const Vector3d a(0, 0, 0), b(2, 0, 0), c(0.5, 1.5, 0.3);
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> u(-2, 3);
  for (int i = 0; i < 200; ++i) {
    const Vector3d p(u(rng), u(rng), u(rng));
    const Vector3d exact = closest_point_on_triangle(p, a, b, c);
    EXPECT_NEAR((exact - p).norm(), (sampled_closest(p, a, b, c) - p).norm(), 1e-2);
    EXPECT_LE((exact - p).norm(), (sampled_closest(p, a, b, c) - p).norm() + 1e-12);
  }
}

TEST(ClosestPointOnTriangle, DegenerateTriangleIsItsLongestEdge) {
  const Vector3d a(0, 0, 0), b(1, 0, 0), c(2, 0, 0);
  EXPECT_TRUE(
      closest_point_on_triangle(Vector3d(1.5, 1, 0), a, b, c).isApprox(Vector3d(1.5, 0, 0)));
  EXPECT_TRUE(closest_point_on_triangle(Vector3d(3, 0, 1), a, a, c).isApprox(c));
}

TEST(TriangleSolidAngle, OctantAndSign) {
  const Vector3d x = Vector3d::UnitX(), y = Vector3d::UnitY(), z = Vector3d::UnitZ();
  // The octant triangle seen from the origin covers one eighth of the sphere; its normal
  // (y - x) x (z - x) points away from the origin, so the origin is behind it.
  EXPECT_NEAR(triangle_solid_angle(Vector3d::Zero(), x, y, z), 4 * kPi / 8, 1e-12);
  EXPECT_NEAR(triangle_solid_angle(Vector3d::Zero(), x, z, y), -4 * kPi / 8, 1e-12);
  EXPECT_EQ(triangle_solid_angle(Vector3d(0.2, 0.2, 0), x, y, Vector3d(0, 0, 0)), 0.0);
}

}  // namespace
}  // namespace smfem::geometry
