// The half-space point-load solutions (local/half_space.hpp) checked against linear elasticity
// itself, not against a transcription of the same formulas: Navier's equations, the free
// surface, the balance of forces and reciprocity. A sign or a factor wrong in any column fails
// at least one of them.
#include "smfem/local/half_space.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include <gtest/gtest.h>
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace smfem::local {
namespace {

constexpr HalfSpaceMaterial kRubber{3.4e5, 0.45};
constexpr HalfSpaceMaterial kCork{1.0e7, 0.0};
constexpr HalfSpaceMaterial kAuxetic{2.0e6, -0.5};
constexpr HalfSpaceMaterial kIncompressible{1.0e5, 0.5};
constexpr std::array<HalfSpaceMaterial, 4> kMaterials{kRubber, kCork, kAuxetic, kIncompressible};

// The displacement at p under a unit force along `axis`.
Eigen::Vector3d displacement(const Eigen::Vector3d& p, int axis, const HalfSpaceMaterial& m) {
  return point_load_response(p, m).col(axis);
}

// Grad u (row i: derivatives of u_i) by central differences of step h. Not inlined: inlined
// into stress() below, Emscripten 3.1.6's clang 14 at -O3 with -msimd128 computed it wrong (the
// surface's traction came out as large as the stress; at -O2, without SIMD, with external linkage
// or natively it is right; 2026-11-30).
[[gnu::noinline]] Eigen::Matrix3d displacement_gradient(const Eigen::Vector3d& p, int axis,
                                                        const HalfSpaceMaterial& m, double h) {
  Eigen::Matrix3d grad;
  for (int k = 0; k < 3; ++k) {
    const Eigen::Vector3d step = h * Eigen::Vector3d::Unit(k);
    grad.col(k) = (displacement(p + step, axis, m) - displacement(p - step, axis, m)) / (2.0 * h);
  }
  return grad;
}

// Hooke's law: sigma = lambda tr(eps) I + 2 G eps (lambda from G and nu; an incompressible
// body's lambda is infinite, so its stress is taken up to the pressure, which the tests that use
// it do not need: they skip nu = 0.5).
Eigen::Matrix3d stress(const Eigen::Vector3d& p, int axis, const HalfSpaceMaterial& m, double h) {
  const Eigen::Matrix3d grad = displacement_gradient(p, axis, m, h);
  const Eigen::Matrix3d strain = 0.5 * (grad + grad.transpose());
  const double lambda = 2.0 * m.shear * m.poisson / (1.0 - 2.0 * m.poisson);
  return lambda * strain.trace() * Eigen::Matrix3d::Identity() + 2.0 * m.shear * strain;
}

// Points inside the body at several distances and directions, away from the surface.
std::vector<Eigen::Vector3d> inner_points() {
  std::vector<Eigen::Vector3d> points;
  for (const double r : {1e-3, 0.05, 2.0}) {
    for (const Eigen::Vector3d& direction :
         {Eigen::Vector3d(0.3, -0.2, 0.9), Eigen::Vector3d(-0.7, 0.4, 0.5),
          Eigen::Vector3d(0.05, 0.9, 0.2), Eigen::Vector3d(0.0, 0.0, 1.0)}) {
      points.push_back(r * direction.normalized());
    }
  }
  return points;
}

TEST(HalfSpace, EachColumnSolvesNaviersEquations) {
  // div sigma = 0 away from the force: central differences of the stress (itself by central
  // differences), step h = 2e-4 |p|: truncation error about 1e-7 of the terms that cancel,
  // rounding about 1e-16 / (2e-4)^2 = 3e-9 of them.
  for (const HalfSpaceMaterial& m : kMaterials) {
    if (m.poisson == 0.5) continue;
    for (const Eigen::Vector3d& p : inner_points()) {
      const double h = 2e-4 * p.norm();
      for (int axis = 0; axis < 3; ++axis) {
        // The size of each term of the divergence under a unit force: 1 / |p|^3 (the stress
        // goes as 1 / |p|^2; on the normal axis a tangential force's vanishes, its slope not).
        const double scale = 1.0 / (p.norm() * p.norm() * p.norm());
        Eigen::Vector3d divergence = Eigen::Vector3d::Zero();
        for (int k = 0; k < 3; ++k) {
          const Eigen::Vector3d step = h * Eigen::Vector3d::Unit(k);
          divergence +=
              (stress(p + step, axis, m, h) - stress(p - step, axis, m, h)).col(k) / (2.0 * h);
        }
        EXPECT_LT(divergence.norm(), 1e-5 * scale)
            << "force along " << axis << " at " << p.transpose() << ", nu " << m.poisson;
      }
    }
  }
}

TEST(HalfSpace, AnIncompressibleBodyKeepsItsVolume) {
  // At nu = 0.5 the stress is not Hooke's (the pressure is a Lagrange multiplier), but the
  // displacement must be divergence-free.
  for (const Eigen::Vector3d& p : inner_points()) {
    const double h = 1e-4 * p.norm();
    for (int axis = 0; axis < 3; ++axis) {
      const Eigen::Matrix3d grad = displacement_gradient(p, axis, kIncompressible, h);
      EXPECT_LT(std::abs(grad.trace()), 1e-7 * grad.norm()) << "force along " << axis;
    }
  }
}

TEST(HalfSpace, TheSurfaceIsFreeOfTractionAwayFromTheForce) {
  for (const HalfSpaceMaterial& m : kMaterials) {
    if (m.poisson == 0.5) continue;
    for (const Eigen::Vector3d& p :
         {Eigen::Vector3d(0.1, 0.0, 0.0), Eigen::Vector3d(-0.03, 0.04, 0.0),
          Eigen::Vector3d(0.0, -2.0, 0.0), Eigen::Vector3d(1e-3, 1e-3, 0.0)}) {
      const double h = 1e-4 * p.norm();
      for (int axis = 0; axis < 3; ++axis) {
        const Eigen::Matrix3d sigma = stress(p, axis, m, h);
        // sigma e_z, against the stress's size there.
        EXPECT_LT(sigma.col(2).norm(), 1e-6 * sigma.norm())
            << "force along " << axis << " at " << p.transpose() << ", nu " << m.poisson;
      }
    }
  }
}

TEST(HalfSpace, AnyHemisphereAroundTheForceBalancesIt) {
  // The body inside a hemisphere of radius R is held by the point force f and by the traction
  // sigma n of the body outside it: f + integral of sigma n over the hemisphere = 0. Composite
  // Simpson in the polar angle (from the inward normal), the trapezoid rule (spectral for a
  // periodic integrand) in the azimuth.
  for (const HalfSpaceMaterial& m : {kRubber, kCork, kAuxetic}) {
    for (const double R : {0.01, 1.0}) {
      constexpr int kPolar = 200, kAzimuth = 64;
      for (int axis = 0; axis < 3; ++axis) {
        Eigen::Vector3d total = Eigen::Vector3d::Unit(axis);
        const double dtheta = 0.5 * std::numbers::pi / kPolar;
        const double dphi = 2.0 * std::numbers::pi / kAzimuth;
        for (int i = 0; i <= kPolar; ++i) {
          const double theta = i * dtheta;
          const double simpson = (i == 0 || i == kPolar) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
          for (int j = 0; j < kAzimuth; ++j) {
            const double phi = j * dphi;
            const Eigen::Vector3d n(std::sin(theta) * std::cos(phi),
                                    std::sin(theta) * std::sin(phi), std::cos(theta));
            // On the surface itself (theta = pi / 2) z is 0: differences reach z = -h, where
            // the solution continues smoothly.
            const double area = R * R * std::sin(theta) * simpson * dtheta / 3.0 * dphi;
            total += area * stress(R * n, axis, m, 1e-4 * R) * n;
          }
        }
        EXPECT_LT(total.norm(), 1e-6)
            << "force along " << axis << ", R " << R << ", nu " << m.poisson;
      }
    }
  }
}

TEST(HalfSpace, ReciprocityOnTheSurface) {
  // Maxwell-Betti: the displacement at b along i under a unit force at a along j equals the
  // displacement at a along j under a unit force at b along i, so G(d)_ij = G(-d)_ji for two
  // surface points d apart. This ties each tangential column to the normal one.
  for (const HalfSpaceMaterial& m : kMaterials) {
    for (const Eigen::Vector3d& d :
         {Eigen::Vector3d(0.2, 0.0, 0.0), Eigen::Vector3d(-0.05, 0.12, 0.0)}) {
      const Eigen::Matrix3d forward = point_load_response(d, m);
      const Eigen::Matrix3d backward = point_load_response(-d, m);
      EXPECT_LT((forward - backward.transpose()).norm(), 1e-12 * forward.norm());
    }
  }
}

TEST(HalfSpace, TurnsWithTheSurfaceAndScalesAsOneOverDistance) {
  // Isotropy: turning the point about the normal turns the tensor with it. Scaling: 1 / |p|.
  const Eigen::Matrix3d turn = Eigen::AngleAxisd(0.7, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  for (const HalfSpaceMaterial& m : kMaterials) {
    for (const Eigen::Vector3d& p : inner_points()) {
      const Eigen::Matrix3d at = point_load_response(p, m);
      EXPECT_LT((point_load_response(turn * p, m) - turn * at * turn.transpose()).norm(),
                1e-12 * at.norm());
      EXPECT_LT((point_load_response(3.0 * p, m) - at / 3.0).norm(), 1e-12 * at.norm());
    }
  }
}

TEST(HalfSpace, MatchesTheTextbookSurfaceDisplacements) {
  // Johnson (1985) eqs. 3.22 and 3.87, on the surface at distance r from a unit force: under the
  // normal force, u_z = (1 - nu) / (2 pi G r) and u_r = -(1 - 2 nu) / (4 pi G r); under a
  // tangential force along x, u_x = ((1 - nu) + nu x^2 / r^2) / (2 pi G r).
  const double G = kRubber.shear, nu = kRubber.poisson, pi = std::numbers::pi;
  const Eigen::Vector3d p(0.03, 0.04, 0.0);
  const double r = 0.05;
  const Eigen::Matrix3d at = point_load_response(p, kRubber);
  EXPECT_NEAR(at(2, 2), (1.0 - nu) / (2.0 * pi * G * r), 1e-12 * at(2, 2));
  EXPECT_NEAR(at.col(2).head<2>().dot(p.head<2>() / r), -(1.0 - 2.0 * nu) / (4.0 * pi * G * r),
              1e-12 * at(2, 2));
  EXPECT_NEAR(at(0, 0), ((1.0 - nu) + nu * 0.03 * 0.03 / (r * r)) / (2.0 * pi * G * r),
              1e-12 * at(2, 2));
}

TEST(HalfSpace, RefusesWhatIsNotAHalfSpaceOrAPointOfIt) {
  const Eigen::Vector3d p(0.1, 0.0, 0.1);
  EXPECT_THROW(point_load_response(p, {0.0, 0.3}), std::invalid_argument);
  EXPECT_THROW(point_load_response(p, {-1e5, 0.3}), std::invalid_argument);
  EXPECT_THROW(point_load_response(p, {1e5, 0.6}), std::invalid_argument);
  EXPECT_THROW(point_load_response(p, {1e5, -1.0}), std::invalid_argument);
  EXPECT_THROW(point_load_response(p, {std::nan(""), 0.3}), std::invalid_argument);
  EXPECT_THROW(point_load_response(Eigen::Vector3d::Zero(), kRubber), std::invalid_argument);
  EXPECT_THROW(point_load_response(Eigen::Vector3d(0.0, 0.0, -0.1), kRubber),
               std::invalid_argument);
  EXPECT_THROW(point_load_response(Eigen::Vector3d(std::nan(""), 0.0, 0.1), kRubber),
               std::invalid_argument);
  // Above the surface but off the negative axis: the smooth continuation.
  EXPECT_TRUE(point_load_response(Eigen::Vector3d(0.1, 0.0, -0.01), kRubber).allFinite());
}

TEST(HalfSpace, TruncationIsSmoothAndFollowsTheSupportRadius) {
  const double outer = 0.2;
  EXPECT_EQ(truncation_weight(0.0, outer), 1.0);
  EXPECT_NEAR(truncation_weight(0.5 * outer, outer), 0.5, 1e-15);  // the taper spans the support
  EXPECT_EQ(truncation_weight(outer, outer), 0.0);
  EXPECT_EQ(truncation_weight(5.0, outer), 0.0);
  // Decreasing, no steeper than the smoothstep's largest slope, flat at the centre, and at the
  // outer radius continuous with its first and second derivatives: a kink would show as one-sided
  // slopes that differ by about 1 / outer, a jump in the second derivative (a cubic smoothstep's)
  // as a centred second difference of about 1 / outer^2.
  const double h = 1e-6 * outer;
  double previous = 1.0;
  for (double r = 0.0; r <= 1.05 * outer; r += 1e-3 * outer) {
    const double w = truncation_weight(r, outer);
    EXPECT_LE(w, previous);
    previous = w;
    const double slope =
        (truncation_weight(r + h, outer) - truncation_weight(std::max(r - h, 0.0), outer)) /
        (r + h - std::max(r - h, 0.0));
    EXPECT_LE(std::abs(slope), 1.875 / outer * (1.0 + 1e-6));
  }
  EXPECT_LT(std::abs(truncation_weight(h, outer) - 1.0), 1e-12) << "flat at the centre";
  const double at = truncation_weight(outer, outer);
  const double slope_in = (at - truncation_weight(outer - h, outer)) / h;
  const double slope_out = (truncation_weight(outer + h, outer) - at) / h;
  EXPECT_LT(std::abs(slope_in - slope_out), 1e-3 / outer) << "a kink at the outer radius";
  const double second =
      (truncation_weight(outer + h, outer) - 2.0 * at + truncation_weight(outer - h, outer)) /
      (h * h);
  EXPECT_LT(std::abs(second), 1e-2 / (outer * outer)) << "a jump in curvature at the outer radius";
  // r^2 elements of the mean volume: 16 modes, 1e-6 m^3 -> (256e-6)^(1/3).
  EXPECT_NEAR(support_radius(16, 1e-6), std::cbrt(256e-6), 1e-15);
  EXPECT_THROW(support_radius(0, 1e-6), std::invalid_argument);
  EXPECT_THROW(support_radius(16, 0.0), std::invalid_argument);
  EXPECT_THROW(truncation_weight(0.1, 0.0), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::local
