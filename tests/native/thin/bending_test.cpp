// The bending matrices: symmetric, positive semi-definite, blind to rigid motions and in-plane
// maps of a flat (straight) rest shape, and equal to the plate's (rod's) energy on bends of
// known curvature, on meshes that are not aligned with the bend.
#include "smfem/thin/bending.hpp"

#include <cmath>
#include <iostream>
#include <numbers>
#include <random>

#include <gtest/gtest.h>
#include <Eigen/Dense>
#include <Eigen/Geometry>

#include "smfem/thin/rod.hpp"
#include "smfem/thin/shell.hpp"

namespace smfem::thin {
namespace {

// 1/2 sum_d x_d^T B x_d.
double energy(const Eigen::SparseMatrix<double>& B, const Positions& x) {
  const Eigen::MatrixXd X = x;
  return 0.5 * X.cwiseProduct(B * X).sum();
}

// What rounding leaves of an energy that is zero in exact arithmetic: B's entries times the
// squared size of the coordinates, times double's precision.
double rounding(const Eigen::SparseMatrix<double>& B, const Positions& x) {
  return 1e-15 * B.cwiseAbs().sum() * x.cwiseAbs().maxCoeff() * x.cwiseAbs().maxCoeff();
}

// A grid whose interior vertices are moved in the plane by up to `jitter` of a cell.
ShellMesh jittered_grid(int n, double size, double jitter, unsigned seed) {
  ShellMesh mesh = shell_grid(n, n, size, size);
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> offset(-jitter * size / (n - 1), jitter * size / (n - 1));
  for (int j = 1; j + 1 < n; ++j) {
    for (int i = 1; i + 1 < n; ++i) {
      mesh.positions(i + n * j, 0) += offset(random);
      mesh.positions(i + n * j, 2) += offset(random);
    }
  }
  return mesh;
}

TEST(ShellBending, IsPositiveSemiDefiniteAndBlindToRigidAndInPlaneMaps) {
  const ShellMesh mesh = jittered_grid(6, 0.5, 0.3, 2);
  const int nodes = 36 + 5;  // a few nodes beyond the vertices (directors): zero rows
  const Eigen::SparseMatrix<double> sparse =
      shell_bending(mesh.positions, mesh.triangles, 2.0, 0.3, nodes);
  ASSERT_EQ(sparse.rows(), nodes);
  const Eigen::MatrixXd B = sparse;
  EXPECT_LT((B - B.transpose()).cwiseAbs().maxCoeff(), 1e-9 * B.cwiseAbs().maxCoeff());
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(B);
  EXPECT_GT(eigen.eigenvalues().minCoeff(), -1e-10 * eigen.eigenvalues().maxCoeff());
  EXPECT_TRUE(B.bottomRows(5).isZero(0.0));
  // Rotated, translated and stretched in the plane, then rotated out of it: no energy.
  const Eigen::Matrix3d R = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).matrix();
  Eigen::Matrix3d stretch = Eigen::Matrix3d::Identity();
  stretch(0, 0) = 1.3;
  stretch(2, 0) = 0.2;
  Positions x(nodes, 3);
  x.setZero();
  for (int v = 0; v < 36; ++v) {
    x.row(v) =
        (R * stretch * mesh.positions.row(v).transpose() + Eigen::Vector3d(1, -2, 3)).transpose();
  }
  Positions bent = x;
  bent(20, 1) += 0.01;
  EXPECT_LT(energy(sparse, x), rounding(sparse, x));
  EXPECT_GT(energy(sparse, bent), 0.0);
}

struct Bend {
  Eigen::Vector3d axis;  // the direction the sheet curves along, in the plane y = 0
  double jitter;
  double tolerance;  // relative
};

class ShellBendingOfACylinder : public ::testing::TestWithParam<Bend> {};

// The sheet wrapped onto a cylinder of curvature k along `axis`: D / 2 k^2 A, the plate's
// energy of a bend with no Gaussian curvature, where the mesh is fine: within 1 % on the grid
// whatever the direction, within 6 % where its vertices are jittered by a quarter of a cell.
TEST_P(ShellBendingOfACylinder, MatchesThePlateEnergy) {
  const Bend bend = GetParam();
  const double size = 0.4, curvature = 2.0, D = 3.0;
  const int n = 41;
  const ShellMesh mesh = jittered_grid(n, size, bend.jitter, 3);
  const Eigen::SparseMatrix<double> B =
      shell_bending(mesh.positions, mesh.triangles, D, 0.3, n * n);
  Positions wrapped = mesh.positions;
  for (int v = 0; v < n * n; ++v) {
    const Eigen::Vector3d X = mesh.positions.row(v).transpose();
    const double s = X.dot(bend.axis);  // arc length along the bend
    const double angle = curvature * s;
    const Eigen::Vector3d across = X - s * bend.axis;
    wrapped.row(v) = (across + std::sin(angle) / curvature * bend.axis +
                      Eigen::Vector3d(0, (1 - std::cos(angle)) / curvature, 0))
                         .transpose();
  }
  const double expected = 0.5 * D * curvature * curvature * size * size;
  EXPECT_NEAR(energy(B, wrapped) / expected, 1.0, bend.tolerance);
  std::cout << "bend along " << bend.axis.transpose() << ", jitter " << bend.jitter
            << ": energy / plate's = " << energy(B, wrapped) / expected << "\n";
}

INSTANTIATE_TEST_SUITE_P(Meshes, ShellBendingOfACylinder,
                         ::testing::Values(Bend{Eigen::Vector3d(1, 0, 0), 0.0, 0.01},
                                           Bend{Eigen::Vector3d(0, 0, 1), 0.0, 0.01},
                                           Bend{Eigen::Vector3d(1, 0, 1).normalized(), 0.0, 0.01},
                                           Bend{Eigen::Vector3d(1, 0, 2).normalized(), 0.25, 0.06},
                                           Bend{Eigen::Vector3d(1, 0, 0), 0.25, 0.06}));

// Out of the plane by w = c (x^2 - z^2) (a saddle) and w = c x z (a twist): no mean curvature,
// so only the (1 - nu) |H|^2 part of the plate energy holds them: D / 2 (1 - nu) 8 c^2 A and
// D / 2 (1 - nu) 2 c^2 A.
TEST(ShellBending, ResistsSaddlesAndTwistsAsAPlateDoes) {
  const double size = 0.4, c = 0.05, D = 3.0, nu = 0.3;
  for (const double jitter : {0.0, 0.25}) {
    const ShellMesh mesh = jittered_grid(41, size, jitter, 4);
    const Eigen::SparseMatrix<double> B =
        shell_bending(mesh.positions, mesh.triangles, D, nu, 41 * 41);
    Positions saddle = mesh.positions, twist = mesh.positions;
    for (Eigen::Index v = 0; v < mesh.positions.rows(); ++v) {
      const double x = mesh.positions(v, 0), z = mesh.positions(v, 2);
      saddle(v, 1) = c * (x * x - z * z);
      twist(v, 1) = c * x * z;
    }
    const double area = size * size;
    EXPECT_NEAR(energy(B, saddle) / (0.5 * D * (1 - nu) * 8 * c * c * area), 1.0, 0.03)
        << "jitter " << jitter;
    EXPECT_NEAR(energy(B, twist) / (0.5 * D * (1 - nu) * 2 * c * c * area), 1.0, 0.03)
        << "jitter " << jitter;
  }
}

TEST(RodBending, IsBlindToRigidMotionsAndMatchesTheRodEnergyOnAnArc) {
  const int n = 101;
  const double length = 0.5, EI = 0.2, curvature = 3.0;
  Positions X = rod_line(n, length);
  // Unevenly spaced points keep the line straight.
  for (int v = 1; v + 1 < n; ++v) X(v, 0) += 0.3 * length / (n - 1) * std::sin(v);
  const Eigen::SparseMatrix<double> B = rod_bending(X, EI, n + 4);
  const Eigen::Matrix3d R = Eigen::AngleAxisd(1.1, Eigen::Vector3d(0, 1, 1).normalized()).matrix();
  Positions moved = Positions::Zero(n + 4, 3);
  Positions arc = moved;
  for (int v = 0; v < n; ++v) {
    moved.row(v) = (R * X.row(v).transpose()).transpose() + Eigen::RowVector3d(1, 2, 3);
    const double angle = curvature * X(v, 0);
    arc.row(v) << std::sin(angle) / curvature, (1 - std::cos(angle)) / curvature, 0.0;
  }
  // The end vertices carry no bend: the energy covers the interior vertices' half segments.
  const double covered = length - 0.5 * (X(1, 0) - X(0, 0)) - 0.5 * (X(n - 1, 0) - X(n - 2, 0));
  const double expected = 0.5 * EI * curvature * curvature * covered;
  EXPECT_LT(energy(B, moved), rounding(B, moved));
  EXPECT_NEAR(energy(B, arc) / expected, 1.0, 1e-3);
}

}  // namespace
}  // namespace smfem::thin
