// The displacement-basis stepper: with the identity basis it is the full-space reference step
// for step; a basis holding the translations keeps linear momentum; converged implicit Euler
// does not gain energy; a cubature of every tet is exact integration bit for bit, a coarser one
// stays near it; the diagnostics are the vertex sums; bad bases and cubatures are refused.
#include "smfem/displacement/displacement_simulator.hpp"

#include <cmath>
#include <sstream>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "displacement/random_basis.hpp"
#include "full/full_box.hpp"
#include "smfem/full/tet_mesh_deformation.hpp"

namespace smfem::displacement {
namespace {

using sim::SolverMethod;

sim::SolverSettings settings_for(SolverMethod method, int iterations, bool converge) {
  sim::SolverSettings settings;
  settings.method = method;
  settings.timestep = 0.01;
  settings.iterations = iterations;
  settings.until_converged = converge;
  settings.relative_tolerance = 1e-10;
  settings.absolute_tolerance = 1e-24;
  settings.material_model = sim::MaterialModel::fixed_corotational;
  return settings;
}

// The columns e_{3v + d} of the free vertices: u = Phi q is any displacement of the free ones.
Eigen::MatrixXd identity_basis(const full::FullModel& model) {
  std::vector<char> pinned(static_cast<std::size_t>(model.vertex_count()), 0);
  for (const int v : model.pinned) pinned[static_cast<std::size_t>(v)] = 1;
  Eigen::MatrixXd basis = Eigen::MatrixXd::Zero(3 * model.vertex_count(), 0);
  for (int v = 0; v < model.vertex_count(); ++v) {
    if (pinned[static_cast<std::size_t>(v)]) continue;
    for (int d = 0; d < 3; ++d) {
      basis.conservativeResize(Eigen::NoChange, basis.cols() + 1);
      basis.rightCols<1>().setZero();
      basis(3 * v + d, basis.cols() - 1) = 1.0;
    }
  }
  return basis;
}

class BothSolvers : public ::testing::TestWithParam<SolverMethod> {};

// A soft cantilever sagging under gravity at 2 iterations per step (not converged, so every
// line search and iterate must agree, not only the solutions).
TEST_P(BothSolvers, IdentityBasisStepsAsTheFullSpaceReference) {
  sim::BoxModelOptions options;
  options.youngs[0] = 1e5;
  options.youngs[1] = 1e6;
  const full::FullModel model = full::test::full_box(options, 0.2);
  const sim::SolverSettings settings = settings_for(GetParam(), 2, false);
  full::FullSimulator full(model, settings);
  DisplacementSimulator reduced(model, identity_basis(model), settings);
  double worst = 0.0;
  for (int step = 0; step < 20; ++step) {
    const full::FullStepReport& a = full.step();
    const full::FullStepReport& b = reduced.step();
    ASSERT_TRUE(a.ok && b.ok) << "step " << step;
    EXPECT_EQ(a.stats.iterations, b.stats.iterations) << "step " << step;
    EXPECT_EQ(a.stats.backtracks, b.stats.backtracks) << "step " << step;
    worst = std::max(worst, (full.displacements() - reduced.displacements()).norm() /
                                full.displacements().norm());
  }
  EXPECT_LT(worst, 1e-9);
  EXPECT_GT(full.displacements().col(1).cwiseAbs().maxCoeff(), 1e-3) << "it should sag";
  EXPECT_NEAR(reduced.elastic_energy(), full.elastic_energy(), 1e-8 * full.elastic_energy());
}

TEST_P(BothSolvers, RestStaysAtRest) {
  sim::SolverSettings settings = settings_for(GetParam(), 100, true);
  settings.gravity.setZero();
  const full::FullModel model = full::test::full_box({}, 0.2);
  DisplacementSimulator simulator(model, test::random_basis(model, 5, 9u), settings);
  for (int step = 0; step < 5; ++step) ASSERT_TRUE(simulator.step().ok);
  EXPECT_TRUE(simulator.coordinates().isZero(0.0));
}

// A free bar, spinning and stretching, in a basis that holds the translations (so the internal
// forces' zero sum reaches the reduced equations): linear momentum stays; with converged steps
// the total energy never grows (implicit Euler only dissipates).
TEST_P(BothSolvers, KeepsLinearMomentumAndLosesEnergy) {
  sim::SolverSettings settings = settings_for(GetParam(), 100, true);
  settings.gravity.setZero();
  const full::FullModel model = full::test::full_box({.nx = 4, .ny = 1, .nz = 1});
  Eigen::MatrixXd basis(3 * model.vertex_count(), 9);
  basis.rightCols<6>() = test::random_basis(model, 6, 10u);
  for (int v = 0; v < model.vertex_count(); ++v) {
    basis.block<3, 3>(3 * v, 0).setIdentity();
  }
  DisplacementSimulator simulator(model, basis, settings);
  Eigen::VectorXd qdot = test::random_vector(9, 0.5, 11u);
  simulator.set_state(Eigen::VectorXd::Zero(9), qdot);
  const Eigen::Vector3d p0 = simulator.linear_momentum();
  double energy = simulator.kinetic_energy() + simulator.elastic_energy();
  const double start = energy;
  for (int step = 0; step < 50; ++step) {
    const full::FullStepReport& report = simulator.step();
    ASSERT_TRUE(report.ok && report.stats.converged) << "step " << step;
    EXPECT_LT((simulator.linear_momentum() - p0).norm(), 1e-9 * p0.norm()) << "step " << step;
    const double now = simulator.kinetic_energy() + simulator.elastic_energy();
    EXPECT_LE(now, energy * (1.0 + 1e-9)) << "step " << step;
    energy = now;
  }
  EXPECT_LT(energy, start);
  EXPECT_GT(simulator.elastic_energy(), 0.0);
}

// Every tet with its volume, given as a cubature, is the default exact integration: the same
// trajectory bit for bit. Half the tets, each standing for itself and a neighbour, move the
// body differently but nearby (a cubature approximates the integral).
TEST_P(BothSolvers, CubatureOfEveryTetIsExactIntegration) {
  const full::FullModel model = full::test::full_box({}, 0.2);
  const sim::SolverSettings settings = settings_for(GetParam(), 2, false);
  const Eigen::MatrixXd basis = test::random_basis(model, 6, 13u);
  const full::TetMeshDeformation mesh(model);
  DisplacementSimulator exact(model, basis, settings);
  DisplacementSimulator every_tet(model, basis, settings, 1, exact_quadrature(mesh));
  Quadrature half;
  for (int t = 0; t + 1 < model.tet_count(); t += 2) {
    half.tets.push_back(t);
    half.weights.conservativeResize(half.weights.size() + 1);
    half.weights(half.weights.size() - 1) = mesh.volumes()(t) + mesh.volumes()(t + 1);
  }
  DisplacementSimulator coarse(model, basis, settings, 1, half);
  EXPECT_EQ(coarse.quadrature_count(), model.tet_count() / 2);
  for (int step = 0; step < 20; ++step) {
    ASSERT_TRUE(exact.step().ok && every_tet.step().ok && coarse.step().ok) << "step " << step;
    ASSERT_EQ(exact.coordinates(), every_tet.coordinates()) << "step " << step;
  }
  const double sag = exact.coordinates().norm();
  EXPECT_GT(sag, 1e-4);
  EXPECT_GT((coarse.coordinates() - exact.coordinates()).norm(), 1e-6 * sag)
      << "half the tets should integrate differently";
  EXPECT_LT((coarse.coordinates() - exact.coordinates()).norm(), 0.5 * sag);
}

// The diagnostics are sums over the mesh's vertices: the momenta and the centroid of x and
// xdot, the gravity potential of the centroid, the energies of the simulator's own accessors.
TEST_P(BothSolvers, DiagnosticsAreTheVertexSums) {
  const full::FullModel model = full::test::full_box({}, 0.2);
  const sim::SolverSettings settings = settings_for(GetParam(), 2, false);
  DisplacementSimulator simulator(model, test::random_basis(model, 5, 14u), settings);
  simulator.set_state(test::random_vector(5, 0.05, 15u), test::random_vector(5, 0.3, 16u));
  for (int step = 0; step < 3; ++step) ASSERT_TRUE(simulator.step().ok);
  const sim::Diagnostics d = simulator.diagnostics();
  const Eigen::VectorXd mass = full::lumped_vertex_mass(model);
  const sim::ReducedMatrix x = model.positions + simulator.displacements();
  const sim::ReducedMatrix v = simulator.vertex_velocities();
  Eigen::Vector3d angular = Eigen::Vector3d::Zero();
  for (int i = 0; i < model.vertex_count(); ++i) {
    angular += mass(i) * Eigen::Vector3d(x.row(i)).cross(Eigen::Vector3d(v.row(i)));
  }
  const Eigen::Vector3d centroid = x.transpose() * mass / mass.sum();
  EXPECT_LT((d.angular_momentum - angular).norm(), 1e-12 * angular.norm());
  EXPECT_LT((d.linear_momentum - simulator.linear_momentum()).norm(), 1e-12);
  EXPECT_LT((d.centroid - centroid).norm(), 1e-14);
  EXPECT_NEAR(d.gravity_potential, -mass.sum() * settings.gravity.dot(centroid), 1e-12);
  EXPECT_EQ(d.kinetic_energy, simulator.kinetic_energy());
  EXPECT_EQ(d.elastic_energy, simulator.elastic_energy());
  EXPECT_EQ(d.total_energy, d.kinetic_energy + d.elastic_energy + d.gravity_potential);
  EXPECT_GT(d.kinetic_energy, 0.0);
  if (GetParam() == SolverMethod::fem) {
    EXPECT_EQ(d.stretch_energy, d.elastic_energy);
    EXPECT_EQ(d.max_constraint_violation, 0.0);
  } else {
    // Two iterations leave the stretches near s(F), not on it.
    EXPECT_GT(d.max_constraint_violation, 0.0);
    EXPECT_LT(d.max_constraint_violation, 1e-2);
    EXPECT_NEAR(d.stretch_energy, d.elastic_energy, 0.1 * d.elastic_energy);
  }
  simulator.reset();
  EXPECT_TRUE(simulator.coordinates().isZero(0.0));
  EXPECT_EQ(simulator.diagnostics().kinetic_energy, 0.0);
}

// FEM keeps the stretches consistent, so switching to MFEM (or the material model) mid-run
// continues from where FEM left off: the same as a run that was MFEM all along from a state
// made consistent there.
TEST_P(BothSolvers, SwitchesSolverAndMaterialModelMidRun) {
  const full::FullModel model = full::test::full_box({}, 0.2);
  sim::SolverSettings settings = settings_for(GetParam(), 2, false);
  const Eigen::MatrixXd basis = test::random_basis(model, 5, 17u);
  DisplacementSimulator switching(model, basis, settings);
  for (int step = 0; step < 5; ++step) ASSERT_TRUE(switching.step().ok);
  settings.method = GetParam() == SolverMethod::fem ? SolverMethod::mfem : SolverMethod::fem;
  settings.material_model = sim::MaterialModel::stable_neo_hookean;
  switching.set_settings(settings);
  DisplacementSimulator fresh(model, basis, settings);
  fresh.set_state(switching.coordinates(), switching.velocities());
  for (int step = 0; step < 5; ++step) {
    ASSERT_TRUE(switching.step().ok && fresh.step().ok) << "step " << step;
  }
  EXPECT_LT((switching.coordinates() - fresh.coordinates()).norm(),
            1e-12 * fresh.coordinates().norm());
}

INSTANTIATE_TEST_SUITE_P(DisplacementSimulator, BothSolvers,
                         ::testing::Values(SolverMethod::mfem, SolverMethod::fem),
                         [](const auto& case_info) {
                           return std::string(sim::solver_method_name(case_info.param));
                         });

TEST(DisplacementSimulator, RefusesBadBasesAndStates) {
  const full::FullModel model = full::test::full_box({}, 0.2);
  const sim::SolverSettings settings = settings_for(SolverMethod::mfem, 2, false);
  const Eigen::MatrixXd good = test::random_basis(model, 4, 12u);
  Eigen::MatrixXd moves_pin = good;
  moves_pin(3 * model.pinned.front() + 1, 2) = 1.0;
  EXPECT_THROW(DisplacementSimulator(model, moves_pin, settings), std::invalid_argument);
  Eigen::MatrixXd dependent = good;
  dependent.col(3) = 2.0 * dependent.col(0);
  EXPECT_THROW(DisplacementSimulator(model, dependent, settings), std::invalid_argument);
  EXPECT_THROW(DisplacementSimulator(model, good.topRows(good.rows() - 3), settings),
               std::invalid_argument);
  Eigen::MatrixXd infinite = good;
  infinite(10, 1) = std::numeric_limits<double>::infinity();
  EXPECT_THROW(DisplacementSimulator(model, infinite, settings), std::invalid_argument);
  const auto refuses = [&](Quadrature quadrature, const std::string& words) {
    try {
      DisplacementSimulator(model, good, settings, 1, std::move(quadrature));
      ADD_FAILURE() << "accepted a cubature that should say: " << words;
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
    }
  };
  refuses({{}, Eigen::VectorXd()}, "at least one tet");
  refuses({{0, 1}, Eigen::VectorXd::Ones(1)}, "a weight each");
  refuses({{model.tet_count()}, Eigen::VectorXd::Ones(1)}, "is not a tet");
  refuses({{3, 3}, Eigen::VectorXd::Ones(2)}, "appears twice");
  refuses({{0}, Eigen::VectorXd::Constant(1, -1.0)}, "finite and positive");
  refuses({{0}, Eigen::VectorXd::Constant(1, std::nan(""))}, "finite and positive");
  DisplacementSimulator simulator(model, good, settings);
  EXPECT_THROW(simulator.set_state(Eigen::VectorXd::Zero(3), Eigen::VectorXd::Zero(4)),
               std::invalid_argument);
}

}  // namespace
}  // namespace smfem::displacement
