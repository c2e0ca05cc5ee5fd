// Contact of a body with patches (local/local_contact.hpp): the samples the patches reach see the
// dent; the energy, gradient, curvature and Hessian over [U_g; c] agree with finite differences of
// the barrier summed sample by sample over the mesh, and CCD keeps every sample off the obstacle.
#include <cmath>
#include <functional>
#include <vector>

#include <gtest/gtest.h>

#include "local/block_mesh.hpp"
#include "smfem/local/local_contact.hpp"
#include "smfem/sim/contact/barrier.hpp"
#include "smfem/sim/contact/friction.hpp"

namespace smfem::local::contact_test {
namespace {

using sim::ReducedMatrix;

constexpr int kCubes = 8;
constexpr int kModes = 4;
constexpr double kActivation = 0.01;

// The block of block_mesh.hpp with its contact surface (every boundary vertex a sample), one patch
// at the middle of its top face, and an obstacle just above that face.
struct ContactBlock {
  sim::BoxModel box;
  full::FullModel mesh;
  PatchSet patches;
  std::vector<contact::Obstacle> obstacles;
  contact::ContactPotential body;
  LocalContact local;

  explicit ContactBlock(const contact::Obstacle& obstacle)
      : box(test::block(kCubes, kModes, 1 << 20)),
        mesh(test::block_mesh(box, 1000.0)),
        patches(make_patches(box, mesh)),
        obstacles{obstacle},
        body(box.model.contact, {Eigen::Vector3d::Zero()}),
        local(body, box.model.contact, sample_vertices(box)) {
    contact::ContactParameters parameters;
    parameters.activation = kActivation;
    parameters.stiffness = 1e4;
    body.set_environment(&obstacles, parameters, 0.01);
    local.set_patches(patches);
  }

  static PatchSet make_patches(const sim::BoxModel& box, const full::FullModel& mesh) {
    const LoadPatch patch = test::top_patch(box, 0.0, 0.0, 0.13, 1.0 / kCubes);
    return PatchSet({patch_support(mesh, full::lumped_vertex_mass(mesh), patch, 0.35)}, 4 * kModes);
  }
  // The mesh vertex at each sample's rest position.
  static std::vector<int> sample_vertices(const sim::BoxModel& box) {
    const contact::ContactSurface& surface = box.model.contact;
    std::vector<int> vertices;
    for (Eigen::Index k = 0; k < surface.samples.size(); ++k) {
      Eigen::Index nearest = 0;
      (box.rest.rowwise() - surface.positions.row(surface.samples(k)))
          .rowwise()
          .squaredNorm()
          .minCoeff(&nearest);
      vertices.push_back(static_cast<int>(nearest));
    }
    return vertices;
  }

  // The barrier summed over every sample of the mesh, each at its position with the dent.
  double barrier_energy(const ReducedMatrix& U) const {
    const Eigen::MatrixXd x = test::displacements(box, patches, U);
    const contact::ContactSurface& surface = box.model.contact;
    double total = 0.0;
    for (Eigen::Index k = 0; k < surface.samples.size(); ++k) {
      const int v = sample_vertices_[static_cast<std::size_t>(k)];
      const Eigen::Vector3d position = box.rest.row(v).transpose() + x.row(v).transpose();
      total += 1e4 * surface.areas(k) *
               contact::barrier(contact::obstacle_distance(obstacles.front(), position).distance,
                                kActivation);
    }
    return total;
  }
  std::vector<int> sample_vertices_ = sample_vertices(box);

  // IPC's lagged friction summed over every sample of the mesh, each with its dent: the samples
  // within dhat at U_start, with their normal force and tangent plane there, slipping to U.
  double friction_energy(const ReducedMatrix& U_start, const ReducedMatrix& U, double mu) const {
    const Eigen::MatrixXd x0 = test::displacements(box, patches, U_start);
    const Eigen::MatrixXd x = test::displacements(box, patches, U);
    const contact::ContactSurface& surface = box.model.contact;
    const double eps = body.parameters().slip * body.timestep();
    double total = 0.0;
    for (Eigen::Index k = 0; k < surface.samples.size(); ++k) {
      const int v = sample_vertices_[static_cast<std::size_t>(k)];
      const contact::ObstacleDistance d = contact::obstacle_distance(
          obstacles.front(), box.rest.row(v).transpose() + x0.row(v).transpose());
      if (!(d.distance < kActivation)) continue;
      const double normal_force =
          1e4 * surface.areas(k) * std::abs(contact::barrier_derivative(d.distance, kActivation));
      const Eigen::Vector3d dx = (x.row(v) - x0.row(v)).transpose();
      const double slip = (dx - d.direction * d.direction.dot(dx)).norm();
      total += mu * normal_force * contact::friction_f0(slip, eps);
    }
    return total;
  }

  // A state with the global modes a little deformed and the patch dented.
  ReducedMatrix state(double dent) {
    std::srand(3);
    ReducedMatrix U = ReducedMatrix::Zero(4 * kModes + 1, 3);
    U.topRows(4 * kModes) = 1e-4 * ReducedMatrix::Random(4 * kModes, 3);
    U.row(4 * kModes) << 0.2 * dent, -0.3 * dent, dent;
    patches.set_rotations(U);
    local.begin_step(U);
    return U;
  }
};

contact::Obstacle sphere_above_top(double gap) {
  contact::Obstacle sphere;
  sphere.kind = contact::ObstacleKind::sphere;
  sphere.radius = 0.3;
  sphere.point = Eigen::Vector3d(0.02, 0.5 + 0.3 + gap, 0.01);
  return sphere;
}

contact::Obstacle plane_above_top(double gap) {
  contact::Obstacle plane;
  plane.point = Eigen::Vector3d(0.0, 0.5 + gap, 0.0);
  plane.normal = Eigen::Vector3d(0.002, -1.0, 0.001).normalized();
  return plane;
}

double directional_derivative(const std::function<double(const ReducedMatrix&)>& f,
                              const ReducedMatrix& U, const ReducedMatrix& dU, double h) {
  return (f(U + h * dU) - f(U - h * dU)) / (2.0 * h);
}

TEST(LocalContact, ItsEnergyIsTheBarrierOfEveryDentedSample) {
  ContactBlock block(sphere_above_top(0.4 * kActivation));
  const ReducedMatrix U = block.state(2e-3);
  const double energy = block.local.potential_energy(U);
  EXPECT_GT(energy, 0.0);
  // To rounding: the positions come from the surface's weights here and the mesh's basis there,
  // and the barrier's logarithm amplifies their last bits near the obstacle (4e-10 of the energy
  // in wasm); the dented samples left out, or counted twice, change it by a large fraction.
  EXPECT_NEAR(energy, block.barrier_energy(U), 1e-8 * energy);
  // Along a segment: the trials' energy is the energy at the trial (its positions moved along
  // the segment rather than made from U, to rounding, which the barrier's logarithm amplifies
  // near the obstacle).
  std::srand(5);
  const ReducedMatrix dU = 1e-3 * ReducedMatrix::Random(U.rows(), 3);
  const double alpha = block.local.max_step(U, dU);
  ASSERT_GT(alpha, 0.0);
  EXPECT_NEAR(block.local.energy_along(0.5 * alpha, U + 0.5 * alpha * dU),
              block.barrier_energy(U + 0.5 * alpha * dU), 1e-7 * energy);
}

TEST(LocalContact, ItsGradientAgreesWithFiniteDifferences) {
  ContactBlock block(sphere_above_top(0.4 * kActivation));
  const ReducedMatrix U = block.state(2e-3);
  ReducedMatrix gradient;
  block.local.linearize(U, gradient);
  ASSERT_EQ(gradient.rows(), U.rows());
  EXPECT_NE(gradient.row(4 * kModes).norm(), 0.0);  // the dent is pushed
  const auto energy = [&](const ReducedMatrix& V) { return block.barrier_energy(V); };
  for (int trial = 0; trial < 4; ++trial) {
    ReducedMatrix dU = ReducedMatrix::Random(U.rows(), 3);
    if (trial == 0) dU.topRows(4 * kModes).setZero();  // the dent alone
    const double expected = directional_derivative(energy, U, dU, 1e-7);
    EXPECT_NEAR(gradient.cwiseProduct(dU).sum(), expected, 1e-5 * std::abs(expected) + 1e-9)
        << "trial " << trial;
  }
}

// Against a plane the distance is linear in x: the Hessian is exact, and its form, the curvature
// and the rank-one terms in the bordered system's layout all agree with second differences.
TEST(LocalContact, ItsHessianAgreesWithFiniteDifferencesAgainstAPlane) {
  ContactBlock block(plane_above_top(0.5 * kActivation));
  const ReducedMatrix U = block.state(2e-3);
  ReducedMatrix gradient;
  block.local.linearize(U, gradient);
  const int n = 4 * kModes;
  Eigen::MatrixXd lower = Eigen::MatrixXd::Zero(3 * n + 3, 3 * n + 3);
  block.local.add_to_lower(lower);
  const Eigen::MatrixXd hessian = lower.selfadjointView<Eigen::Lower>();
  const auto energy = [&](const ReducedMatrix& V) { return block.barrier_energy(V); };
  for (int trial = 0; trial < 4; ++trial) {
    ReducedMatrix dU = ReducedMatrix::Random(U.rows(), 3);
    if (trial == 0) dU.topRows(n).setZero();
    const double h = 1e-6;
    const double second = (energy(U + h * dU) - 2.0 * energy(U) + energy(U - h * dU)) / (h * h);
    const double curvature = block.local.curvature(dU);
    EXPECT_NEAR(curvature, second, 1e-4 * std::abs(second)) << "trial " << trial;
    // The body's own samples' share sits in its potential's Hessian (the body's system adds it).
    Eigen::VectorXd v(3 * n + 3);
    for (int d = 0; d < 3; ++d) v.segment(d * n, n) = dU.col(d).head(n);
    v.tail<3>() = dU.row(n).transpose();
    const double own = block.body.curvature(dU.topRows(n));
    EXPECT_GT(curvature - own, 0.01 * curvature);  // the dented samples' share
    EXPECT_NEAR(v.dot(hessian * v), curvature - own, 1e-9 * std::abs(curvature))
        << "trial " << trial;
  }
}

// A dent driven into the obstacle stops short of it: CCD keeps a fraction of each distance.
TEST(LocalContact, CcdStopsTheDentShortOfTheObstacle) {
  ContactBlock block(sphere_above_top(0.4 * kActivation));
  const ReducedMatrix U = block.state(0.0);
  ReducedMatrix dU = ReducedMatrix::Zero(U.rows(), 3);
  dU(4 * kModes, 2) = -0.5;  // the normal field outwards: half a metre at the patch's centre
  const double alpha = block.local.max_step(U, dU);
  EXPECT_GT(alpha, 0.0);
  EXPECT_LT(alpha, 0.1);
  EXPECT_TRUE(std::isfinite(block.barrier_energy(U + alpha * dU)));
  EXPECT_GT(block.local.largest_approach(), kActivation);
  EXPECT_LT(block.local.measure(U + alpha * dU).min_distance, block.local.measure(U).min_distance);
  EXPECT_GT(block.local.measure(U + alpha * dU).min_distance, 0.0);
}

// The force on the obstacle is the barrier's reaction: minus the energy's gradient in the
// obstacle's translation.
TEST(LocalContact, TheForceOnTheObstacleIsTheBarriersReaction) {
  ContactBlock block(sphere_above_top(0.4 * kActivation));
  const ReducedMatrix U = block.state(2e-3);
  const Eigen::Vector3d force = block.local.obstacle_forces(U).front();
  EXPECT_GT(force.y(), 0.0);  // pushed up, away from the block
  for (int d = 0; d < 3; ++d) {
    const auto energy_moved = [&](double t) {
      block.obstacles.front().offset = t * Eigen::Vector3d::Unit(d);
      const double e = block.barrier_energy(U);
      block.obstacles.front().offset.setZero();
      return e;
    };
    const double h = 1e-7;
    const double slope = (energy_moved(h) - energy_moved(-h)) / (2.0 * h);
    EXPECT_NEAR(force(d), -slope, 1e-5 * force.norm()) << "axis " << d;
  }
}

contact::Obstacle with_friction(contact::Obstacle obstacle, double mu) {
  obstacle.friction = mu;
  return obstacle;
}

// A state near U: every coordinate moved by up to `scale` (m), so that the samples slip.
ReducedMatrix moved(const ReducedMatrix& U, double scale, unsigned seed) {
  std::srand(seed);
  return U + scale * ReducedMatrix::Random(U.rows(), 3);
}

// The block against an obstacle with friction, its step started at a dented state U0, and the
// energy its contact term should have: the barrier and lagged friction summed sample by sample.
struct FrictionBlock {
  static constexpr double kMu = 0.5;
  ContactBlock block;
  ReducedMatrix U0;

  explicit FrictionBlock(const contact::Obstacle& obstacle)
      : block(with_friction(obstacle, kMu)), U0(block.state(2e-3)) {}
  double energy(const ReducedMatrix& V) const {
    return block.barrier_energy(V) + block.friction_energy(U0, V, kMu);
  }
};

// Friction on the dented samples is the body's: IPC's lagged friction, frozen at the step's start,
// in the samples' dented positions; within friction's static zone (slips below eps_v h = 1e-4 m)
// and beyond it.
TEST(LocalContact, ItsFrictionIsLaggedFrictionOnEverySample) {
  FrictionBlock frictional(sphere_above_top(0.4 * kActivation));
  ContactBlock& block = frictional.block;
  for (const double scale : {2e-6, 1e-4}) {
    const ReducedMatrix U = moved(frictional.U0, scale, 7);
    ReducedMatrix gradient;
    block.local.linearize(U, gradient);
    const double friction = block.local.energy(U) - block.barrier_energy(U);
    const double expected = frictional.energy(U) - block.barrier_energy(U);
    EXPECT_GT(expected, 0.0) << scale;
    EXPECT_NEAR(friction, expected, 1e-6 * expected) << scale;
    // Without the dented samples' friction the body's alone is a fraction of it.
    EXPECT_LT(block.body.energy(U.topRows(4 * kModes)) -
                  block.body.potential_energy(U.topRows(4 * kModes)),
              0.9 * expected)
        << scale;
  }
}

TEST(LocalContact, ItsFrictionsGradientAgreesWithFiniteDifferences) {
  FrictionBlock frictional(sphere_above_top(0.4 * kActivation));
  const auto energy = [&](const ReducedMatrix& V) { return frictional.energy(V); };
  for (const double scale : {2e-6, 1e-4}) {
    const ReducedMatrix U = moved(frictional.U0, scale, 11);
    ReducedMatrix gradient;
    frictional.block.local.linearize(U, gradient);
    for (int trial = 0; trial < 4; ++trial) {
      ReducedMatrix dU = ReducedMatrix::Random(U.rows(), 3);
      if (trial == 0) dU.topRows(4 * kModes).setZero();  // the dent alone
      const double expected = directional_derivative(energy, U, dU, 1e-8);
      EXPECT_NEAR(gradient.cwiseProduct(dU).sum(), expected, 1e-5 * std::abs(expected) + 1e-9)
          << "scale " << scale << " trial " << trial;
    }
  }
}

// Against a plane the barrier's Hessian is exact, and the curvature and the bordered system's
// terms agree with its second differences. The dented samples' friction is given its majorizer
// (friction.hpp): along a motion of the dent, the model made of friction's gradient and that
// curvature lies above friction's potential everywhere, also where the motion takes the slip
// back through the static zone (the exact Hessian, with no curvature along a slip beyond the
// zone, falls below it there: the overshoot the majorizer is for). Within the static zone and
// beyond it.
TEST(LocalContact, ItsFrictionsCurvatureBoundsItFromAboveAgainstAPlane) {
  FrictionBlock frictional(plane_above_top(0.5 * kActivation));
  ContactBlock& block = frictional.block;
  const auto friction = [&](const ReducedMatrix& V) {
    return frictional.energy(V) - block.barrier_energy(V);
  };
  const auto barrier = [&](const ReducedMatrix& V) { return block.barrier_energy(V); };
  const int n = 4 * kModes;
  int crossings = 0;
  for (const double scale : {2e-6, 1e-4}) {
    const ReducedMatrix U = moved(frictional.U0, scale, 13);
    ReducedMatrix gradient;
    block.local.linearize(U, gradient);
    Eigen::MatrixXd lower = Eigen::MatrixXd::Zero(3 * n + 3, 3 * n + 3);
    block.local.add_to_lower(lower);
    const Eigen::MatrixXd hessian = lower.selfadjointView<Eigen::Lower>();
    for (int trial = 0; trial < 5; ++trial) {
      // The dent alone (the body's own friction keeps the exact Hessian), a unit direction
      // moved a length beyond the static zone (eps_v h = 1e-4 m); trial 0 takes the dent back
      // to where the step started, through zero slip and as far beyond.
      ReducedMatrix dU = ReducedMatrix::Zero(U.rows(), 3);
      const Eigen::RowVector3d back = frictional.U0.row(n) - U.row(n);
      dU.row(n) = trial == 0 ? back.normalized() : Eigen::RowVector3d::Random().normalized();
      const double length = trial == 0 ? back.norm() : 2e-4;
      const double h = 1e-7;
      const double barrier_curvature =
          (barrier(U + h * dU) - 2.0 * barrier(U) + barrier(U - h * dU)) / (h * h);
      const double curvature = block.local.curvature(dU);
      const double friction_curvature = curvature - barrier_curvature;
      const double friction_slope =
          gradient.cwiseProduct(dU).sum() - directional_derivative(barrier, U, dU, 1e-8);
      EXPECT_NEAR(friction_slope, directional_derivative(friction, U, dU, 1e-8),
                  1e-5 * std::abs(friction_slope) + 1e-9);
      for (const double share : {0.25, 0.5, 1.0, 1.5, 2.0, 4.0}) {
        const double t = share * length;
        const double model = t * friction_slope + 0.5 * t * t * friction_curvature;
        const double actual = friction(U + t * dU) - friction(U);
        EXPECT_LE(actual, model + 1e-9 * std::abs(friction(U)))
            << "scale " << scale << " trial " << trial << " t " << t;
        crossings += actual > t * friction_slope + 1e-12 ? 1 : 0;  // where a linear model fails
      }
      Eigen::VectorXd v(3 * n + 3);
      for (int d = 0; d < 3; ++d) v.segment(d * n, n) = dU.col(d).head(n);
      v.tail<3>() = dU.row(n).transpose();
      EXPECT_NEAR(v.dot(hessian * v), curvature - block.body.curvature(dU.topRows(n)),
                  1e-9 * std::abs(curvature))
          << "scale " << scale << " trial " << trial;
    }
  }
  EXPECT_GT(crossings, 0);  // the bound was put to the test
}

}  // namespace
}  // namespace smfem::local::contact_test
