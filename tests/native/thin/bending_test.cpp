// The bending matrices: symmetric, positive semi-definite, blind to rigid motions and in-plane
// maps of a flat (straight) rest shape, and equal to the plate's (rod's) energy on bends of
// known curvature, on meshes that are not aligned with the bend.
#include "smfem/thin/bending.hpp"

#include <cmath>
#include <iostream>
#include <numbers>
#include <random>
#include <stdexcept>
#include <vector>

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

// A rod body's nodes where `deformed` puts each segment: its vertices at `vertices` and each
// segment's directors turned by `frames[s]` (F_s = frames[s] where the segment keeps its length).
Positions rod_nodes(const ThinBody& body, const Positions& vertices,
                    const std::vector<Eigen::Matrix3d>& frames) {
  Positions nodes(body.model.node_count, 3);
  nodes.topRows(body.vertex_count) = vertices;
  for (Eigen::Index d = 0; d < body.directions.rows(); ++d) {
    nodes.row(body.vertex_count + d) =
        (frames[static_cast<std::size_t>(d / 2)] * body.directions.row(d).transpose()).transpose();
  }
  return nodes;
}

// A helix of `points` points, radius 5 cm, 2 cm a turn, 3 turns.
Positions helix(int points) {
  Positions X(points, 3);
  for (int v = 0; v < points; ++v) {
    const double angle = 6.0 * std::numbers::pi * v / (points - 1);
    X.row(v) << 0.05 * std::cos(angle), 0.06 * v / (points - 1), 0.05 * std::sin(angle);
  }
  return X;
}

TEST(RodJointBending, IsPositiveSemiDefiniteAndBlindToAffineMapsOfACurvedRest) {
  const ThinBody body = make_rod(helix(25), RodMaterial{}, {});
  const Eigen::MatrixXd B = body.model.bending;
  ASSERT_EQ(B.rows(), body.model.node_count);
  EXPECT_LT((B - B.transpose()).cwiseAbs().maxCoeff(), 1e-12 * B.cwiseAbs().maxCoeff());
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(B);
  EXPECT_GT(eigen.eigenvalues().minCoeff(), -1e-10 * eigen.eigenvalues().maxCoeff());
  EXPECT_GT(eigen.eigenvalues().maxCoeff(), 0.0);
  // Rotated, translated, and under a general affine map (directors mapped by it too): F_s is the
  // same for every segment, so no energy.
  const Eigen::Matrix3d R = Eigen::AngleAxisd(1.1, Eigen::Vector3d(1, 2, 3).normalized()).matrix();
  Eigen::Matrix3d A;
  A << 1.3, 0.2, -0.1, 0.05, 0.8, 0.3, -0.2, 0.1, 1.1;
  for (const Eigen::Matrix3d& map : {R, A}) {
    const std::vector<Eigen::Matrix3d> frames(static_cast<std::size_t>(body.directions.rows() / 2),
                                              map);
    Positions vertices = (body.rest * map.transpose()).rowwise() + Eigen::RowVector3d(1, 2, 3);
    const Positions moved = rod_nodes(body, vertices, frames);
    EXPECT_LT(energy(body.model.bending, moved), rounding(body.model.bending, moved));
  }
}

// A line that folds back on itself turns by pi at the fold: it bends by its joints, which a rigid
// turn leaves unloaded (the straight rods' curvature energy would not). And the joints refuse a
// twisting stiffness beyond 2 EI, where their energy would not be positive semi-definite.
TEST(RodJointBending, TakesAFoldedLineAndRefusesTooStiffATwist) {
  const Positions folded = (Positions(3, 3) << 0, 0, 0, 1, 0, 0, 0.5, 0, 0).finished();
  const ThinBody body = make_rod(folded, RodMaterial{}, {});
  const Eigen::Matrix3d R = Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitZ()).matrix();
  const Positions turned =
      rod_nodes(body, body.rest * R.transpose(), std::vector<Eigen::Matrix3d>(2, R));
  EXPECT_LT(energy(body.model.bending, turned), rounding(body.model.bending, turned));
  EXPECT_THROW(rod_joint_bending(body.model, 3, 1.0, 2.5), std::invalid_argument);
  EXPECT_THROW(rod_joint_bending(body.model, 3, 1.0, -0.1), std::invalid_argument);
}

// A planar arc of radius R0 bent in its plane to radius R1, every segment keeping its length and
// its directors turning with it: the energy is EI / 2 (1 / R1 - 1 / R0)^2 over the joints' length.
TEST(RodJointBending, BendsACurvedRodInItsPlaneWithStiffnessEI) {
  const int n = 61;
  const double R0 = 0.2, R1 = 0.21, sweep = 1.5;
  RodMaterial material;
  material.radius = 3e-3;
  material.youngs = 2e8;
  const double step0 = sweep / (n - 1);
  const double chord = 2.0 * R0 * std::sin(step0 / 2.0);
  const double step1 = 2.0 * std::asin(chord / (2.0 * R1));
  Positions rest(n, 3), bent(n, 3);
  for (int v = 0; v < n; ++v) {
    rest.row(v) << R0 * std::sin(v * step0), R0 * (1.0 - std::cos(v * step0)), 0.0;
    bent.row(v) << R1 * std::sin(v * step1), R1 * (1.0 - std::cos(v * step1)), 0.0;
  }
  const ThinBody body = make_rod(rest, material, {});
  std::vector<Eigen::Matrix3d> frames;
  for (int s = 0; s + 1 < n; ++s) {
    frames.push_back(
        Eigen::AngleAxisd((step1 - step0) * (s + 0.5), Eigen::Vector3d::UnitZ()).matrix());
  }
  const double EI = material.youngs * std::numbers::pi * std::pow(material.radius, 4) / 4.0;
  const double covered = (n - 2) * chord;  // the interior joints' half segments
  const double expected = 0.5 * EI * std::pow(1.0 / R1 - 1.0 / R0, 2) * covered;
  EXPECT_NEAR(energy(body.model.bending, rod_nodes(body, bent, frames)) / expected, 1.0, 1e-3);
}

// A straight rod's joints (the energy a network or curved rod gets; a straight polyline's own
// bending has no twist) twisted uniformly, its line kept: GJ / 2 tau^2 over the joints' length,
// GJ = EI / (1 + nu).
TEST(RodJointBending, TwistsWithStiffnessGJ) {
  const int n = 41;
  const double length = 0.4, tau = 0.5;  // rad/m
  RodMaterial material;
  material.bending = false;
  material.poisson = 0.35;
  ThinBody body = make_rod(rod_line(n, length), material, {});
  const double EI = material.youngs * std::numbers::pi * std::pow(material.radius, 4) / 4.0;
  const double GJ = EI / (1.0 + material.poisson);
  body.model.bending = rod_joint_bending(body.model, n, EI, GJ);
  std::vector<Eigen::Matrix3d> frames;
  const double segment = length / (n - 1);
  for (int s = 0; s + 1 < n; ++s) {
    frames.push_back(
        Eigen::AngleAxisd(tau * segment * (s + 0.5), Eigen::Vector3d::UnitX()).matrix());
  }
  const double expected = 0.5 * GJ * tau * tau * (n - 2) * segment;
  EXPECT_NEAR(energy(body.model.bending, rod_nodes(body, body.rest, frames)) / expected, 1.0, 1e-3);
}

}  // namespace
}  // namespace smfem::thin
