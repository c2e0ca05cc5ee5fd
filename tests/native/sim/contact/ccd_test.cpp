// CCD bounds (sim/contact/ccd.hpp) against brute-force sampling of the motion: a point and a
// triangle moving, rotating and deforming linearly keep at least the promised distance up to
// the step each bound returns, and the plane bound lets a resting point slide where conservative
// advancement stalls.
#include <random>

#include <gtest/gtest.h>

#include "smfem/geometry/point_triangle.hpp"
#include "smfem/sim/contact/ccd.hpp"

namespace smfem::contact {
namespace {

struct Motion {
  Eigen::Vector3d p, a, b, c;      // at alpha = 0
  Eigen::Vector3d dp, da, db, dc;  // over alpha in [0, 1]
  double distance(double alpha) const {
    const Eigen::Vector3d x = p + alpha * dp;
    const Eigen::Vector3d y =
        geometry::closest_point_on_triangle(x, a + alpha * da, b + alpha * db, c + alpha * dc);
    return (x - y).norm();
  }
  double plane_step(double target) const {
    return plane_bound_step(p, dp, a, b, c, da, db, dc, target);
  }
};

TEST(Ccd, PlaneBoundKeepsTheTargetDistanceAgainstBruteForceSampling) {
  std::mt19937 random(5);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const auto vec = [&](double scale) {
    return Eigen::Vector3d(scale * unit(random), scale * unit(random), scale * unit(random));
  };
  const double keep = 0.1, dhat = 1e-2;
  int useful = 0, hits = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    Motion m;
    m.a = vec(1.0);
    m.b = vec(1.0);
    m.c = vec(1.0);
    // A point just above the triangle's inside (resting contact) or anywhere near it.
    const Eigen::Vector3d normal = (m.b - m.a).cross(m.c - m.a).normalized();
    const double height = std::pow(10.0, -1.0 - 4.0 * std::abs(unit(random)));
    m.p = trial % 2 == 0 ? Eigen::Vector3d((m.a + m.b + m.c) / 3.0 + height * normal) : vec(1.0);
    // Translations, plus rotations and deformations of the triangle of every size.
    const double spread = std::pow(10.0, -5.0 * std::abs(unit(random)));
    const Eigen::Vector3d shift = vec(0.5);
    m.dp = vec(0.5);
    m.da = shift + vec(spread);
    m.db = shift + vec(spread);
    m.dc = shift + vec(spread);
    const double d0 = m.distance(0.0);
    const double target = ccd_target(d0, keep, dhat);
    const double alpha = m.plane_step(target);
    ASSERT_GE(alpha, 0.0);
    ASSERT_LE(alpha, 1.0);
    if (alpha > 0.0) ++useful;
    bool touched = false;
    for (int s = 0; s <= 2000; ++s) {
      const double a = alpha * s / 2000.0;
      ASSERT_GE(m.distance(a), target * (1.0 - 1e-9)) << "trial " << trial << " alpha " << a;
    }
    for (int s = 0; s <= 200 && !touched; ++s) touched = m.distance(s / 200.0) < target;
    hits += touched ? 1 : 0;
  }
  EXPECT_GT(useful, 1000);  // the bound is not vacuous
  EXPECT_GT(hits, 200);     // and the motions did come within the target
}

// A point resting 1e-5 m above a triangle slides 5 cm along it while the triangle turns a
// little: the plane bound allows the whole step; conservative advancement, whose bound on the
// distance's rate is the 5 cm slide, reaches a small part of it.
TEST(Ccd, PlaneBoundLetsARestingPointSlide) {
  Motion m;
  m.a = {0, 0, 0};
  m.b = {0.2, 0, 0};
  m.c = {0, 0, 0.2};
  m.p = {0.05, 1e-5, 0.05};
  m.dp = {0.05, 0, 0.02};
  m.da = {0, 0, 0};
  m.db = {0, 1e-7, 0};
  m.dc = {0, -1e-7, 0};
  const double d0 = m.distance(0.0);
  const double target = ccd_target(d0, 0.1, 1e-3);
  EXPECT_EQ(m.plane_step(target), 1.0);
  const double speed = std::max({(m.dp - m.da).norm(), (m.dp - m.db).norm(), (m.dp - m.dc).norm()});
  const double advanced =
      conservative_advancement([&](double a) { return m.distance(a); }, speed, 0.1, 1e-3);
  EXPECT_LT(advanced, 0.1);
}

}  // namespace
}  // namespace smfem::contact
