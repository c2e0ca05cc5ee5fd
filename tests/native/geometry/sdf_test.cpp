#include "smfem/geometry/sdf.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

#include <gtest/gtest.h>

namespace smfem::geometry {
namespace {

using Eigen::Vector3d;

constexpr double kStep = 1e-6;

// Brute-force distance to the ellipsoid surface: the nearest of a dense parametric sampling,
// refined around the best sample.
double sampled_ellipsoid_distance(const Vector3d& p, const Vector3d& r) {
  double best = 1e300, best_u = 0, best_v = 0;
  const double pi = 3.14159265358979323846;
  auto at = [&](double u, double v) {
    return Vector3d(r.x() * std::cos(u) * std::sin(v), r.y() * std::sin(u) * std::sin(v),
                    r.z() * std::cos(v));
  };
  for (int i = 0; i < 360; ++i) {
    for (int j = 0; j <= 180; ++j) {
      const double u = 2 * pi * i / 360, v = pi * j / 180;
      const double d = (at(u, v) - p).norm();
      if (d < best) best = d, best_u = u, best_v = v;
    }
  }
  for (double span = pi / 180; span > 1e-9; span *= 0.5) {
    for (int di = -2; di <= 2; ++di) {
      for (int dj = -2; dj <= 2; ++dj) {
        const double u = best_u + di * span, v = best_v + dj * span;
        const double d = (at(u, v) - p).norm();
        if (d < best) best = d, best_u = u, best_v = v;
      }
    }
  }
  return best;
}

TEST(SdfBox, DistancesAtKnownPoints) {
  const Sdf b = box(Vector3d(1, 2, 3), Vector3d(1, 2, 3));
  EXPECT_NEAR(b(Vector3d(1, 2, 3)), -1.0, 1e-15);            // centre: nearest face x
  EXPECT_NEAR(b(Vector3d(3.5, 2, 3)), 1.5, 1e-15);           // beyond the +x face
  EXPECT_NEAR(b(Vector3d(1, 2, 5.5)), -0.5, 1e-15);          // inside near +z face
  EXPECT_NEAR(b(Vector3d(3, 5, 7)), std::sqrt(3.0), 1e-15);  // beyond the (+,+,+) corner
  EXPECT_NEAR(b(Vector3d(2, 4, 6)), 0.0, 1e-15);             // on the corner
}

TEST(SdfBox, RoundingKeepsExtentsAndRoundsCorners) {
  const Sdf b = box(Vector3d::Zero(), Vector3d(1, 1, 1), 0.25);
  EXPECT_NEAR(b(Vector3d(1, 0, 0)), 0.0, 1e-15);  // face centre unchanged
  EXPECT_NEAR(b(Vector3d(2, 0, 0)), 1.0, 1e-15);
  // The corner is a sphere of radius 0.25 around (0.75, 0.75, 0.75).
  const Vector3d corner(1, 1, 1);
  EXPECT_NEAR(b(corner), std::sqrt(3.0) * 0.25 - 0.25, 1e-14);
}

TEST(SdfCapsule, DistancesAndSphereCase) {
  const Sdf c = capsule(Vector3d(0, 0, 0), Vector3d(2, 0, 0), 0.5);
  EXPECT_NEAR(c(Vector3d(1, 0, 0)), -0.5, 1e-15);
  EXPECT_NEAR(c(Vector3d(1, 3, 0)), 2.5, 1e-15);
  EXPECT_NEAR(c(Vector3d(-1, 0, 0)), 0.5, 1e-15);  // beyond the round end
  EXPECT_NEAR(c(Vector3d(3, 1, 1)), std::sqrt(3.0) - 0.5, 1e-14);
  const Sdf s = capsule(Vector3d(1, 1, 1), Vector3d(1, 1, 1), 2.0);
  EXPECT_NEAR(s(Vector3d(1, 1, 4)), 1.0, 1e-15);
}

TEST(SdfCylinder, SideCapAndRim) {
  const Sdf c = cylinder(Vector3d(0, 0, -1), Vector3d(0, 0, 1), 0.5);
  EXPECT_NEAR(c(Vector3d(0, 0, 0)), -0.5, 1e-15);
  EXPECT_NEAR(c(Vector3d(0, 0, 0.9)), -0.1, 1e-15);  // nearest the cap
  EXPECT_NEAR(c(Vector3d(2, 0, 0)), 1.5, 1e-15);
  EXPECT_NEAR(c(Vector3d(0, 0, 3)), 2.0, 1e-15);    // above the flat cap
  EXPECT_NEAR(c(Vector3d(3.5, 0, 5)), 5.0, 1e-14);  // from the rim: (3, 4)
  // A tilted copy agrees after rotating the query.
  const Sdf tilted = cylinder(Vector3d(-1, 0, 0), Vector3d(1, 0, 0), 0.5);
  EXPECT_NEAR(tilted(Vector3d(5, 0, 3.5)), 5.0, 1e-14);
}

TEST(SdfEllipsoid, ExactOnAxesAndSignEverywhere) {
  const Vector3d r(3, 2, 1);
  const Sdf e = ellipsoid(Vector3d::Zero(), r);
  EXPECT_NEAR(e(Vector3d(5, 0, 0)), 2.0, 1e-14);
  EXPECT_NEAR(e(Vector3d(0, -4, 0)), 2.0, 1e-14);
  EXPECT_NEAR(e(Vector3d(0, 0, 1.5)), 0.5, 1e-14);
  EXPECT_NEAR(e(Vector3d(0, 0, 0.5)), -0.5, 1e-14);
  EXPECT_NEAR(e(Vector3d::Zero()), -1.0, 1e-15);  // deepest point: -min radius
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-4, 4);
  for (int i = 0; i < 2000; ++i) {
    const Vector3d p(u(rng), u(rng), u(rng));
    const double level = p.cwiseQuotient(r).norm();
    if (std::abs(level - 1.0) < 1e-9) continue;
    EXPECT_EQ(e(p) < 0, level < 1) << p.transpose();
    EXPECT_GE(e(p), -1.0);  // never deeper than the deepest interior point
  }
}

TEST(SdfEllipsoid, AccurateNearTheSurfaceAndABoundFarOutside) {
  const Vector3d r(3, 2, 1);
  const Sdf e = ellipsoid(Vector3d::Zero(), r);
  std::mt19937 rng(11);
  std::normal_distribution<double> n(0, 1);
  for (int i = 0; i < 20; ++i) {
    const Vector3d direction = Vector3d(n(rng), n(rng), n(rng)).normalized();
    const Vector3d on_surface = direction.cwiseProduct(r) / direction.norm();
    const Vector3d normal = on_surface.cwiseQuotient(r.cwiseProduct(r)).normalized();
    // Within 0.02 of the surface the estimate is first-order exact.
    for (double offset : {-0.02, 0.02}) {
      const Vector3d p = on_surface + offset * normal;
      EXPECT_NEAR(std::abs(e(p)), sampled_ellipsoid_distance(p, r), 2e-3) << p.transpose();
    }
    // Far outside it never exceeds the true distance.
    const Vector3d far = on_surface + 20.0 * normal;
    EXPECT_LE(e(far), sampled_ellipsoid_distance(far, r) + 1e-6);
  }
}

TEST(SdfGradient, UnitNormAwayFromCreases) {
  const std::vector<std::pair<Sdf, Vector3d>> cases = {
      {box(Vector3d::Zero(), Vector3d(1, 2, 3)), Vector3d(2.5, 0.3, -0.2)},
      {box(Vector3d::Zero(), Vector3d(1, 2, 3)), Vector3d(0.2, 0.3, 2.1)},
      {box(Vector3d::Zero(), Vector3d(1, 1, 1), 0.3), Vector3d(1.3, 1.2, 1.1)},
      {capsule(Vector3d::Zero(), Vector3d(1, 1, 0), 0.4), Vector3d(0.2, 0.9, 0.5)},
      {cylinder(Vector3d::Zero(), Vector3d(0, 2, 0), 0.5), Vector3d(0.7, 1.0, 0.1)},
      {cylinder(Vector3d::Zero(), Vector3d(0, 2, 0), 0.5), Vector3d(0.1, 2.7, 0.1)},
      {transform(box(Vector3d::Zero(), Vector3d(1, 1, 1)),
                 {rotation_from_euler_deg(Vector3d(30, 40, 50)), Vector3d(1, 2, 3), 2.5}),
       Vector3d(1, 2, 3) +
           2.5 * rotation_from_euler_deg(Vector3d(30, 40, 50)) * Vector3d(0.2, 0.1, 1.5)},
  };
  for (const auto& [sdf, p] : cases) {
    EXPECT_NEAR(sdf.gradient(p, kStep).norm(), 1.0, 1e-5) << p.transpose();
  }
  // The ellipsoid's estimate has a unit gradient on its surface.
  const Sdf e = ellipsoid(Vector3d::Zero(), Vector3d(3, 2, 1));
  const Vector3d on_surface = Vector3d(1, 1, 1).cwiseProduct(Vector3d(3, 2, 1)) / std::sqrt(3.0);
  EXPECT_NEAR(e(on_surface), 0.0, 1e-14);
  EXPECT_NEAR(e.gradient(on_surface, kStep).norm(), 1.0, 1e-6);
}

TEST(SdfCsg, UnionIntersectionDifferenceSemantics) {
  const Sdf a = capsule(Vector3d(-1, 0, 0), Vector3d(1, 0, 0), 0.5);
  const Sdf b = box(Vector3d(1, 0, 0), Vector3d(0.5, 0.5, 0.5));
  const Sdf u = unite({a, b}), i = intersect({a, b}), d = subtract(a, b);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> x(-2, 2);
  for (int k = 0; k < 500; ++k) {
    const Vector3d p(x(rng), x(rng), x(rng));
    EXPECT_EQ(u(p), std::min(a(p), b(p)));
    EXPECT_EQ(i(p), std::max(a(p), b(p)));
    EXPECT_EQ(d(p), std::max(a(p), -b(p)));
  }
  // Membership: inside the union iff inside either, and so on.
  const Vector3d in_a_only(-1, 0, 0), in_both(0.8, 0, 0), in_b_only(1.45, 0.45, 0.45);
  EXPECT_LT(u(in_b_only), 0);
  EXPECT_GT(i(in_a_only), 0);
  EXPECT_LT(i(in_both), 0);
  EXPECT_LT(d(in_a_only), 0);
  EXPECT_GT(d(in_both), 0);
  EXPECT_GT(d(in_b_only), 0);
}

TEST(SdfCsg, SmoothUnionBlendsOnlyWithinItsRadius) {
  const Sdf a = capsule(Vector3d(-2, 0, 0), Vector3d(-1, 0, 0), 0.5);
  const Sdf b = capsule(Vector3d(1, 0, 0), Vector3d(2, 0, 0), 0.5);
  const double k = 0.5;
  const Sdf s = smooth_unite({a, b}, k);
  // Where the operands differ by more than k the union is exact.
  const Vector3d far_from_b(-2.5, 0.3, 0);
  EXPECT_EQ(s(far_from_b), a(far_from_b));
  // Where they are equal (midway) the blend lowers the value by exactly k / 4.
  const Vector3d middle(0, 0.1, 0);
  ASSERT_NEAR(a(middle), b(middle), 1e-15);
  EXPECT_NEAR(s(middle), a(middle) - k / 4, 1e-15);
  // Never above the plain union; and its bounds contain every inside point.
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> x(-3.5, 3.5);
  const Sdf u = unite({a, b});
  for (int i = 0; i < 2000; ++i) {
    const Vector3d p(x(rng), x(rng), x(rng));
    EXPECT_LE(s(p), u(p));
    if (s(p) <= 0) {
      EXPECT_TRUE(s.bounds().contains(p)) << p.transpose();
    }
  }
}

TEST(SdfTransform, SimilarityMovesRotatesAndScalesDistances) {
  const Sdf b = box(Vector3d::Zero(), Vector3d(2, 1, 0.5));
  const Similarity t{rotation_from_axis_angle_deg(Vector3d::UnitZ(), 90), Vector3d(5, 0, 0), 3};
  const Sdf moved = transform(b, t);
  // The x half extent 2 becomes a y half extent 6 around (5, 0, 0).
  EXPECT_NEAR(moved(Vector3d(5, 6, 0)), 0.0, 1e-12);
  EXPECT_NEAR(moved(Vector3d(5, 8, 0)), 2.0, 1e-12);
  EXPECT_NEAR(moved(Vector3d(8, 0, 0)), 0.0, 1e-12);
  EXPECT_NEAR(moved(Vector3d(5, 0, 0)), -1.5, 1e-12);
  EXPECT_TRUE(moved.bounds().isApprox(
      Eigen::AlignedBox3d(Vector3d(2, -6, -1.5), Vector3d(8, 6, 1.5)), 1e-12));
  // Euler angles apply x, then y, then z.
  const Eigen::Matrix3d r = rotation_from_euler_deg(Vector3d(90, 0, 90));
  EXPECT_TRUE((r * Vector3d::UnitY()).isApprox(Vector3d::UnitZ(), 1e-12));
  EXPECT_TRUE((r * Vector3d::UnitX()).isApprox(Vector3d::UnitY(), 1e-12));
}

TEST(SdfEvaluate, BatchMatchesPointwiseAcrossBlocksAndThreads) {
  const Sdf s = smooth_unite(
      {transform(ellipsoid(Vector3d::Zero(), Vector3d(1, 0.5, 0.3)),
                 {rotation_from_euler_deg(Vector3d(10, 20, 30)), Vector3d(0.2, 0, 0), 1.5}),
       subtract(box(Vector3d::Zero(), Vector3d(1, 1, 1), 0.1),
                cylinder(Vector3d(0, 0, -2), Vector3d(0, 0, 2), 0.4))},
      0.2);
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> x(-2, 2);
  Points points(20001, 3);  // not a multiple of the block size
  for (Eigen::Index i = 0; i < points.rows(); ++i) points.row(i) << x(rng), x(rng), x(rng);
  const Eigen::VectorXd values = s.evaluate(points);
  for (Eigen::Index i = 0; i < points.rows(); i += 97) {
    EXPECT_EQ(values[i], s(points.row(i).transpose()));
  }
}

TEST(SdfBounds, ContainTheInsideAndDetectEmptyIntersections) {
  const Sdf a = box(Vector3d::Zero(), Vector3d(1, 1, 1));
  const Sdf far = box(Vector3d(10, 0, 0), Vector3d(1, 1, 1));
  EXPECT_TRUE(intersect({a, far}).bounds().isEmpty());
  const Sdf c = cylinder(Vector3d(0, 0, 0), Vector3d(0, 0, 4), 1);
  EXPECT_TRUE(c.bounds().isApprox(Eigen::AlignedBox3d(Vector3d(-1, -1, 0), Vector3d(1, 1, 4))));
}

TEST(SdfPrimitives, RejectBadParameters) {
  EXPECT_THROW(box(Vector3d::Zero(), Vector3d(1, 0, 1)), std::invalid_argument);
  EXPECT_THROW(box(Vector3d::Zero(), Vector3d(1, 1, 1), 1.5), std::invalid_argument);
  EXPECT_THROW(capsule(Vector3d::Zero(), Vector3d(1, 0, 0), -1), std::invalid_argument);
  EXPECT_THROW(ellipsoid(Vector3d(NAN, 0, 0), Vector3d(1, 1, 1)), std::invalid_argument);
  EXPECT_THROW(cylinder(Vector3d::Zero(), Vector3d::Zero(), 1), std::invalid_argument);
  EXPECT_THROW(unite({}), std::invalid_argument);
  EXPECT_THROW(smooth_unite({box(Vector3d::Zero(), Vector3d(1, 1, 1))}, 0), std::invalid_argument);
  EXPECT_THROW(transform(box(Vector3d::Zero(), Vector3d(1, 1, 1)),
                         {Eigen::Matrix3d::Identity() * 2, Vector3d::Zero(), 1}),
               std::invalid_argument);
}

}  // namespace
}  // namespace smfem::geometry
