// The steps (sim/step/fem_step.hpp, mfem_step.hpp) on a body with a patch (local/patch_set.hpp):
// the inertia of the extended coordinates, the dent's energy, the bordered system, checked against
// the energy of the whole mesh computed vertex by vertex and tet by tet.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "local/block_mesh.hpp"
#include "local/static_dent.hpp"
#include "sim/allocation_counter.hpp"
#include "smfem/fem/linear_tet.hpp"
#include "smfem/local/extended_deformation.hpp"
#include "smfem/local/local_dynamics.hpp"
#include "smfem/local/local_system.hpp"
#include "smfem/polar/polar.hpp"
#include "smfem/sim/step/cubature_deformation.hpp"
#include "smfem/sim/step/fem_step.hpp"
#include "smfem/sim/step/mfem_step.hpp"

namespace smfem::local {
namespace {

using sim::ReducedMatrix;

constexpr double kTimestep = 0.01;
const Eigen::Vector3d kGravity(0.0, -9.8, 0.0);
constexpr sim::MaterialModel kMaterial = sim::MaterialModel::stable_neo_hookean;

sim::Lame lame_of(double youngs, double poisson) {
  return energies::lame_from_young_poisson(youngs, poisson);
}

struct BlockOptions {
  int cubes = 8, modes = 4;
  double patch_x = 0.0, patch_z = 0.0, patch_radius = 0.13;  // on the top face
  double support = 0.35;
  bool second_patch = false;  // another beside it, overlapping its support
  int samples = 0;            // the patches' tets kept (patch_set.hpp), 0: all
  double timestep = kTimestep;
};

// A free block (every tet a cubature tet, so its global energy is exact) with one patch on its top
// face, and everything the steps need to step it.
struct PatchedBlock {
  BlockOptions options;
  sim::BoxModel box = test::block(options.cubes, options.modes);
  full::FullModel mesh = test::block_mesh(box, 1000.0);
  Eigen::VectorXd vertex_mass = full::lumped_vertex_mass(mesh);
  int C = box.model.cubature_count();
  LoadPatch patch = test::top_patch(box, options.patch_x, options.patch_z, options.patch_radius,
                                    1.0 / options.cubes);
  PatchSet patches{supports(), 4 * box.model.mode_count(), options.samples};
  int S = patches.tet_count();
  sim::SolverSettings settings;
  parallel::ThreadPool pool{1};
  sim::Dynamics dynamics{box.model.mass_block, options.timestep};
  sim::ReducedSystem body_system{box.model, dynamics, 1};
  LocalDynamics local_dynamics{dynamics, patches};
  std::vector<sim::Lame> lame;
  Eigen::VectorXd weights;
  std::unique_ptr<LocalSystem> system;
  ExtendedDeformation deformation{box.model, patches};

  std::vector<PatchSupport> supports() const {
    std::vector<PatchSupport> out{patch_support(mesh, vertex_mass, patch, options.support)};
    if (options.second_patch) {
      out.push_back(
          patch_support(mesh, vertex_mass,
                        test::top_patch(box, options.patch_x + 0.25, options.patch_z + 0.125,
                                        options.patch_radius, 1.0 / options.cubes),
                        options.support));
    }
    return out;
  }

  explicit PatchedBlock(BlockOptions block_options = {}) : options(block_options) {
    settings.material_model = kMaterial;
    settings.iterations = 40;
    settings.until_converged = true;
    settings.relative_tolerance = 1e-10;
    settings.absolute_tolerance = 1e-20;
    weights.resize(C + S);
    weights.head(C) = box.model.cubature_weights;
    for (int c = 0; c < C; ++c) {
      lame.push_back(lame_of(box.model.cubature_youngs(c), box.model.cubature_poisson(c)));
    }
    for (int e = 0; e < S; ++e) {
      const int t = patches.mesh_tet(e);
      lame.push_back(lame_of(mesh.youngs(t), mesh.poisson(t)));
      weights(C + e) = patches.weight(e);
    }
    system = std::make_unique<LocalSystem>(body_system, C, local_dynamics);
  }

  sim::StepContext context() {
    return {deformation, weights, kMaterial, lame, settings, local_dynamics, *system, pool};
  }
  int rows() const { return patches.rows(); }
  int n() const { return patches.global_rows(); }

  // The vertices' positions of the extended U.
  Eigen::MatrixXd positions(const ReducedMatrix& U) const {
    return mesh.positions + test::displacements(box, patches, U);
  }

  // The step's inertia and gravity over the whole mesh, vertex by vertex: Psi_u.
  double mesh_inertia(const ReducedMatrix& U, const ReducedMatrix& prediction) const {
    const Eigen::MatrixXd x = positions(U), x_tilde = positions(prediction);
    double energy = 0.0;
    for (int v = 0; v < mesh.vertex_count(); ++v) {
      const Eigen::Vector3d change = (x.row(v) - x_tilde.row(v)).transpose();
      energy +=
          0.5 * vertex_mass(v) * change.squaredNorm() / (options.timestep * options.timestep) -
          vertex_mass(v) * kGravity.dot((x.row(v) - mesh.positions.row(v)).transpose());
    }
    return energy;
  }

  // The step's energy as the model defines it (patch_set.hpp), over the whole mesh: Psi_u, every
  // tet's psi(F_0) and the dent's psi(R + F - F_0), F from the vertices' positions, F_0 from
  // their global part alone, R the rotation of the first patch whose support holds the tet.
  double mesh_energy(const ReducedMatrix& U, const ReducedMatrix& prediction) const {
    ReducedMatrix global_only = U;
    global_only.bottomRows(patches.patch_count()).setZero();
    const Eigen::MatrixXd x = positions(U), x_global = positions(global_only);
    std::vector<Eigen::Matrix3d> frame(static_cast<std::size_t>(mesh.tet_count()),
                                       Eigen::Matrix3d::Identity());
    std::vector<bool> framed(frame.size(), false);
    for (int p = 0; p < patches.patch_count(); ++p) {
      for (const SupportTet& tet : patches.patch(p).tets) {
        const auto t = static_cast<std::size_t>(tet.tet);
        if (!framed[t]) frame[t] = patches.rotation(p), framed[t] = true;
      }
    }
    double energy = mesh_inertia(U, prediction);
    for (int t = 0; t < mesh.tet_count(); ++t) {
      fem::TetCorners X, corners, global_corners;
      for (int k = 0; k < 4; ++k) {
        X.row(k) = mesh.positions.row(mesh.tets(t, k));
        corners.row(k) = x.row(mesh.tets(t, k));
        global_corners.row(k) = x_global.row(mesh.tets(t, k));
      }
      const fem::TetCorners dphi = fem::linear_tet_dphi_dX(X);
      const Eigen::Matrix3d F = fem::linear_tet_deformation_gradient(corners, dphi);
      const Eigen::Matrix3d F_0 = fem::linear_tet_deformation_gradient(global_corners, dphi);
      const sim::Lame material = lame_of(mesh.youngs(t), mesh.poisson(t));
      const Eigen::Matrix3d dent = frame[static_cast<std::size_t>(t)] + F - F_0;
      energy += fem::linear_tet_volume(X) *
                (sim::psi(kMaterial, polar::symmetric_stretch<double>(F_0), material) +
                 sim::psi(kMaterial, polar::symmetric_stretch<double>(dent), material));
    }
    return energy;
  }

  void begin_step(const ReducedMatrix& U_n, const ReducedMatrix& Udot_n) {
    patches.set_rotations(U_n);
    const ReducedMatrix force = box.model.mass_vector * kGravity.transpose();
    local_dynamics.begin_step(U_n, Udot_n, force, patches.gravity_force(kGravity));
  }
};

TEST(LocalStep, AFreeFallLeavesThePatchAtRest) {
  PatchedBlock block;
  const ReducedMatrix rest = ReducedMatrix::Zero(block.rows(), 3);
  block.begin_step(rest, rest);
  ReducedMatrix U = block.local_dynamics.prediction();
  sim::FemStep fem(block.rows(), block.C + block.S);
  sim::StepStats stats;
  sim::StepContext context = block.context();
  fem.solve(context, U, stats);
  ASSERT_FALSE(stats.failed);
  // Every vertex falls g h^2 in the first step from rest; nothing deforms, the patch included.
  const Eigen::MatrixXd x = block.positions(U);
  const Eigen::Vector3d fall = kGravity * kTimestep * kTimestep;
  for (int v = 0; v < block.mesh.vertex_count(); ++v) {
    ASSERT_LT((x.row(v) - block.mesh.positions.row(v) - fall.transpose()).norm(),
              1e-6 * fall.norm())
        << "vertex " << v;
  }
  EXPECT_LT(U.row(block.n()).norm(), 1e-6 * fall.norm());
}

// A state with the patches dented and the body turned (0.9 rad), deformed and moving: U_n, Udot_n.
std::pair<ReducedMatrix, ReducedMatrix> moving_state(const PatchedBlock& block) {
  std::srand(3);
  ReducedMatrix U_n = 0.01 * ReducedMatrix::Random(block.rows(), 3);
  // The box's first weight function is 1: A_0 = [R - I, t] turns the whole body.
  U_n.topRows<3>() += (Eigen::AngleAxisd(0.9, Eigen::Vector3d(1, 2, 0).normalized()).matrix() -
                       Eigen::Matrix3d::Identity())
                          .transpose();
  for (int p = 0; p < block.patches.patch_count(); ++p) {
    U_n.row(block.n() + p) << 0.004, -0.003 * (p + 1), 0.01;  // a dent of about a centimetre
  }
  ReducedMatrix Udot_n = 0.2 * ReducedMatrix::Random(block.rows(), 3);
  return {U_n, Udot_n};
}

// The derivative of the mesh's energy at U along unit coordinate directions, by central
// differences, largest in size.
double largest_mesh_slope(const PatchedBlock& block, const ReducedMatrix& U,
                          const ReducedMatrix& prediction) {
  double largest = 0.0;
  const double step = 1e-6;
  for (int r = 0; r < U.rows(); ++r) {
    for (int d = 0; d < 3; ++d) {
      ReducedMatrix plus = U, minus = U;
      plus(r, d) += step;
      minus(r, d) -= step;
      const double slope =
          (block.mesh_energy(plus, prediction) - block.mesh_energy(minus, prediction)) /
          (2.0 * step);
      largest = std::max(largest, std::abs(slope));
    }
  }
  return largest;
}

// Psi is quadratic: its gradient at U and its curvature along dU give its change along dU exactly
// (checked at three lengths). Returns the curvature.
double expect_quadratic_along(LocalDynamics& dynamics, const ReducedMatrix& U,
                              const ReducedMatrix& dU) {
  const double energy = dynamics.energy(U);
  ReducedMatrix gradient;
  dynamics.gradient(U, gradient);
  const double curvature = dynamics.curvature(dU);
  for (const double t : {1e-3, 0.1, 1.0}) {
    const double change = dynamics.energy(U + t * dU) - energy;
    EXPECT_NEAR(change, t * gradient.cwiseProduct(dU).sum() + 0.5 * t * t * curvature,
                1e-9 * (std::abs(change) + std::abs(energy)))
        << t;
  }
  return curvature;
}

TEST(LocalStep, TheInertiaIsTheMeshsVertexByVertex) {
  PatchedBlock block;
  const auto [U_n, Udot_n] = moving_state(block);
  block.begin_step(U_n, Udot_n);
  const ReducedMatrix prediction = block.local_dynamics.prediction();
  std::srand(5);
  const ReducedMatrix U = prediction + 0.01 * ReducedMatrix::Random(block.rows(), 3);
  const ReducedMatrix dU = ReducedMatrix::Random(block.rows(), 3);
  const double energy = block.local_dynamics.energy(U);
  EXPECT_NEAR(energy, block.mesh_inertia(U, prediction), 1e-6 * std::abs(energy));
  const double curvature = expect_quadratic_along(block.local_dynamics, U, dU);
  // The mesh's inertia is quadratic too: its second difference is the curvature.
  EXPECT_NEAR(curvature,
              block.mesh_inertia(U + dU, prediction) + block.mesh_inertia(U - dU, prediction) -
                  2.0 * block.mesh_inertia(U, prediction),
              1e-6 * curvature);
}

// A drag spring on a mesh vertex both patches reach pulls the vertex where the mesh puts it, dent
// included: Psi is the mesh's inertia plus k/2 |x_v - t|^2, vertex by vertex, and its gradient and
// curvature are its own.
TEST(LocalStep, TheDragSpringPullsTheVertexWithItsDent) {
  BlockOptions options;
  options.second_patch = true;
  PatchedBlock block(options);
  // The vertex where the smaller of the two patches' fields is largest.
  int vertex = -1;
  double reach = 0.0;
  for (const int v : block.patches.patch(0).vertices) {
    const double smaller = std::min(field_at_vertex(block.patches.patch(0), v).norm(),
                                    field_at_vertex(block.patches.patch(1), v).norm());
    if (smaller > reach) vertex = v, reach = smaller;
  }
  ASSERT_GE(vertex, 0) << "the patches must overlap";
  sim::DragSpring spring;
  spring.basis = block.box.basis.row(vertex).transpose();
  spring.rest = block.mesh.positions.row(vertex).transpose();
  spring.target = spring.rest + Eigen::Vector3d(0.02, 0.05, -0.01);
  spring.stiffness = 3e4;
  block.dynamics.set_spring(spring);
  std::vector<Eigen::Matrix3d> fields;
  for (int p = 0; p < block.patches.patch_count(); ++p) {
    fields.push_back(field_at_vertex(block.patches.patch(p), vertex));
  }
  block.local_dynamics.set_spring_fields(fields);
  const auto [U_n, Udot_n] = moving_state(block);
  block.begin_step(U_n, Udot_n);
  const ReducedMatrix prediction = block.local_dynamics.prediction();
  std::srand(7);
  const ReducedMatrix U = prediction + 0.01 * ReducedMatrix::Random(block.rows(), 3);
  const ReducedMatrix dU = ReducedMatrix::Random(block.rows(), 3);
  const auto mesh_energy = [&](const ReducedMatrix& at) {
    const Eigen::Vector3d x = block.positions(at).row(vertex).transpose();
    return block.mesh_inertia(at, prediction) +
           0.5 * spring.stiffness * (x - spring.target).squaredNorm();
  };
  const double energy = block.local_dynamics.energy(U);
  EXPECT_NEAR(energy, mesh_energy(U), 1e-9 * std::abs(energy));
  const Eigen::Vector3d x = block.positions(U).row(vertex).transpose();
  EXPECT_NEAR(block.local_dynamics.spring_energy(U),
              0.5 * spring.stiffness * (x - spring.target).squaredNorm(), 1e-9 * std::abs(energy));
  const double curvature = expect_quadratic_along(block.local_dynamics, U, dU);
  EXPECT_NEAR(curvature, mesh_energy(U + dU) + mesh_energy(U - dU) - 2.0 * mesh_energy(U),
              1e-6 * curvature);
  // The Hessian's blocks are the curvature's: dU^T H dU over the coupling and local blocks.
  const int n = block.n(), P = block.patches.patch_count();
  ReducedMatrix global_only = dU;
  global_only.bottomRows(P).setZero();
  Eigen::VectorXd dc(3 * P);
  for (int p = 0; p < P; ++p) dc.segment<3>(3 * p) = dU.row(n + p).transpose();
  double blocks = dc.dot(block.local_dynamics.local_hessian() * dc);
  for (int d = 0; d < 3; ++d) {
    blocks += 2.0 * dU.col(d).head(n).dot(block.local_dynamics.coupling_hessian(d) * dc);
  }
  EXPECT_NEAR(block.local_dynamics.curvature(global_only) + blocks, curvature, 1e-9 * curvature);
}

TEST(LocalStep, ConvergedStepsStopWhereTheModelsEnergyIsStationary) {
  // Two patches whose supports overlap, on a turned, dented, moving body.
  BlockOptions options;
  options.second_patch = true;
  PatchedBlock block(options);
  ASSERT_EQ(block.patches.patch_count(), 2);
  const auto [U_n, Udot_n] = moving_state(block);
  block.begin_step(U_n, Udot_n);
  const ReducedMatrix prediction = block.local_dynamics.prediction();
  const double start_slope = largest_mesh_slope(block, prediction, prediction);

  ReducedMatrix U_fem = prediction;
  sim::FemStep fem(block.rows(), block.C + block.S);
  sim::StepStats fem_stats;
  sim::StepContext context = block.context();
  fem.solve(context, U_fem, fem_stats);
  ASSERT_FALSE(fem_stats.failed);
  EXPECT_TRUE(fem_stats.converged) << fem_stats.iterations << " iterations";
  // Newton's method on the model's Hessian converges in a few iterations.
  EXPECT_LE(fem_stats.iterations, 6);
  EXPECT_EQ(fem_stats.cholesky_shifts, 0);
  EXPECT_LT(largest_mesh_slope(block, U_fem, prediction), 1e-6 * start_slope);

  // The mixed step, converged, stops at the same place.
  ReducedMatrix U_mfem = prediction;
  sim::StretchField z = sim::StretchField::Zero(6, block.C + block.S), lambda = z;
  sim::make_stretches_consistent(block.deformation, kMaterial, block.lame, U_n, z, lambda);
  sim::MfemStep mfem(block.rows(), block.C + block.S);
  sim::StepStats mfem_stats;
  mfem.solve(context, U_mfem, z, lambda, mfem_stats);
  ASSERT_FALSE(mfem_stats.failed);
  EXPECT_TRUE(mfem_stats.converged) << mfem_stats.iterations << " iterations";
  EXPECT_LE(mfem_stats.iterations, 8);
  EXPECT_EQ(mfem_stats.cholesky_shifts, 0);
  EXPECT_LT((U_mfem - U_fem).norm(), 1e-7 * (U_fem - prediction).norm());
  // The coefficients moved: the patches take part.
  for (int p = 0; p < 2; ++p) {
    EXPECT_GT((U_fem.row(block.n() + p) - prediction.row(block.n() + p)).norm(), 1e-5) << p;
  }
}

TEST(LocalStep, TheInertiaAllocatesNothingInAStep) {
  if (!sim::test::counting_supported()) GTEST_SKIP() << "no allocation counting here";
  BlockOptions options;
  options.second_patch = true;
  PatchedBlock block(options);
  const auto [U_n, Udot_n] = moving_state(block);
  block.begin_step(U_n, Udot_n);
  ReducedMatrix gradient(block.rows(), 3), U = U_n;
  block.local_dynamics.gradient(U, gradient);
  const sim::test::CountingScope scope;
  double sink = block.local_dynamics.energy(U) + block.local_dynamics.curvature(Udot_n);
  block.local_dynamics.gradient(U, gradient);
  sink += gradient(0, 0);
  EXPECT_EQ(scope.count(), 0);
  EXPECT_TRUE(std::isfinite(sink));
}

// The relative error of displacements (nv x 3) against the reference (3 nv, vertex by vertex) on
// the block's top face within `radius` of its centre.
double near_error(const PatchedBlock& block, const Eigen::MatrixXd& displacement,
                  const Eigen::VectorXd& reference, double radius) {
  double error = 0.0, size = 0.0;
  for (int v = 0; v < block.mesh.vertex_count(); ++v) {
    const Eigen::Vector3d x = block.mesh.positions.row(v).transpose();
    if (std::abs(x.y() - 0.5) > 1e-12 || (x - block.patch.centre).norm() > radius) continue;
    const Eigen::Vector3d expected = reference.segment<3>(3 * v);
    error += (displacement.row(v).transpose() - expected).squaredNorm();
    size += expected.squaredNorm();
  }
  return std::sqrt(error / size);
}

struct PressedCase {
  double x, z, radius_in_cubes;
  Eigen::Vector3d pressure;  // Pa
};

// The relative errors near the load of the global fields alone and with the patch, and the dent
// at the patch's middle vertex: the whole mesh's, the global fields', with the patch.
struct PressedResult {
  double error_alone = 0.0, error_with_patch = 0.0;
  Eigen::Vector3d dent_reference, dent_alone, dent_with_patch;
};

PressedResult press(int cubes, const PressedCase& load, double support_scale, int samples = 0) {
  constexpr int kPressedModes = 8;
  const double h = 1.0 / cubes;
  BlockOptions options;
  options.cubes = cubes;
  options.modes = kPressedModes;
  options.patch_x = load.x;
  options.patch_z = load.z;
  options.patch_radius = load.radius_in_cubes * h;
  options.support =
      support_scale * support_radius(kPressedModes, 0.5 / (3.0 * cubes * cubes * cubes));
  options.timestep = 1e3;
  options.samples = samples;
  PatchedBlock block(options);
  const int n = block.n();
  const ReducedMatrix rest = ReducedMatrix::Zero(block.rows(), 3);

  // The bottom face held by stiff springs on its vertices' global displacement (the patch's
  // support stays clear of it).
  Eigen::MatrixXd anchors = Eigen::MatrixXd::Zero(n, n);
  for (int v = 0; v < block.mesh.vertex_count(); ++v) {
    if (block.mesh.positions(v, 1) < 1e-12) {
      anchors += 1e9 * block.box.basis.row(v).transpose() * block.box.basis.row(v);
    }
  }
  block.dynamics.set_anchors(anchors, ReducedMatrix::Zero(n, 3));
  std::vector<PatchSet::VertexForce> loads;
  ReducedMatrix global_force = ReducedMatrix::Zero(n, 3);
  for (std::size_t k = 0; k < block.patch.vertices.size(); ++k) {
    const int v = block.patch.vertices[k];
    loads.push_back({v, block.patch.areas[k] * load.pressure});
    global_force += block.box.basis.row(v).transpose() * loads.back().force.transpose();
  }
  const Eigen::VectorXd reference =
      test::static_dent(block.box, block.patch, load.pressure, block.box.model.cubature_youngs(0),
                        block.box.model.cubature_poisson(0));

  block.patches.set_rotations(rest);
  block.local_dynamics.begin_step(rest, rest, global_force, block.patches.load_force(loads));
  ReducedMatrix U = rest;
  sim::StepStats stats;
  sim::FemStep fem(block.rows(), block.C + block.S);
  sim::StepContext context = block.context();
  fem.solve(context, U, stats);
  EXPECT_TRUE(stats.converged);
  const Eigen::MatrixXd with_patch = block.positions(U) - block.mesh.positions;

  // The global fields alone: the body's own step.
  sim::Dynamics dynamics(block.box.model.mass_block, options.timestep);
  dynamics.set_anchors(anchors, ReducedMatrix::Zero(n, 3));
  sim::ReducedSystem system(block.box.model, dynamics, 1);
  sim::CubatureDeformation deformation(block.box.model);
  const std::vector<sim::Lame> lame(block.lame.begin(), block.lame.begin() + block.C);
  sim::StepContext global_context{deformation,    block.box.model.cubature_weights,
                                  kMaterial,      lame,
                                  block.settings, dynamics,
                                  system,         block.pool};
  dynamics.begin_step(rest.topRows(n), rest.topRows(n), global_force);
  ReducedMatrix U_global = rest.topRows(n);
  sim::StepStats global_stats;
  sim::FemStep global_fem(n, block.C);
  global_fem.solve(global_context, U_global, global_stats);
  EXPECT_TRUE(global_stats.converged);
  const Eigen::MatrixXd alone = block.box.basis * U_global;

  PressedResult result;
  const double radius = 3.0 * options.patch_radius;
  result.error_alone = near_error(block, alone, reference, radius);
  result.error_with_patch = near_error(block, with_patch, reference, radius);
  const int middle = block.patch.vertices[block.patch.vertices.size() / 2];
  result.dent_reference = reference.segment<3>(3 * middle);
  result.dent_alone = alone.row(middle).transpose();
  result.dent_with_patch = with_patch.row(middle).transpose();
  return result;
}

TEST(LocalStep, APressedPatchDentsNearlyAsDeepAsTheWholeMesh) {
  // A block of 12 x 6 x 12 cubes held at its bottom, pressed on a patch of its top face and
  // stepped to its static equilibrium (a timestep of 1000 s, converged), with the box model's 8
  // global weights alone and with the patch (paper 001's support radius: 198 tets), every tet of
  // its support integrated or 16 representatives; the reference is linear finite elements on the
  // whole mesh with the bottom face fixed (the load is small: the materials are linear there).
  // Measured (2026-11-30), the dent along the load at the patch's middle vertex against the whole
  // mesh's, global fields alone -> with the patch, every tet / 16 representatives: 0.18 -> 0.83 /
  // 0.81, 0.33 -> 0.81 / 0.80, 0.31 -> 0.81 / 0.85, 0.27 -> 0.78 / 0.76 (the cases below in
  // order); the error within three patch radii 0.71 -> 0.41 / 0.41, 0.56 -> 0.44 / 0.44, 0.51 ->
  // 0.35 / 0.34, 0.57 -> 0.45 / 0.45. Issue 26 asks a third of the global error; this is 0.58-0.79
  // of it (docs/local.md). Asserted: the global fields alone dent less than 0.4 of the depth, with
  // the patch 0.7-1.1 of it, and the error shrinks by 15 %.
  const std::vector<PressedCase> cases = {
      {0.0, 0.0, 1.1, Eigen::Vector3d(0.0, -1.0, 0.0)},
      {0.25, -1.0 / 6.0, 1.5, Eigen::Vector3d(0.0, -1.0, 0.0)},
      {0.0, 0.0, 1.1, Eigen::Vector3d(1.0, 0.0, 0.0)},
      {-1.0 / 6.0, 0.25, 1.1, Eigen::Vector3d(0.6, -0.8, 0.0)},
  };
  for (const int samples : {0, 16}) {
    for (const PressedCase& load : cases) {
      const PressedResult r = press(12, load, 1.0, samples);
      const Eigen::Vector3d direction = load.pressure.normalized();
      const double depth = r.dent_reference.dot(direction);
      std::cout << "patch at (" << load.x << ", " << load.z << "), pressure "
                << load.pressure.transpose() << ", " << samples
                << " samples: dent along the load, of the whole mesh's: global "
                << r.dent_alone.dot(direction) / depth << ", with the patch "
                << r.dent_with_patch.dot(direction) / depth << "; error within 3 radii "
                << r.error_alone << " -> " << r.error_with_patch << "\n";
      EXPECT_LT(r.dent_alone.dot(direction), 0.4 * depth);
      EXPECT_GT(r.dent_with_patch.dot(direction), 0.7 * depth) << samples;
      EXPECT_LT(r.dent_with_patch.dot(direction), 1.1 * depth) << samples;
      EXPECT_LE(r.error_with_patch, 0.85 * r.error_alone) << samples;
    }
  }
}

}  // namespace
}  // namespace smfem::local
