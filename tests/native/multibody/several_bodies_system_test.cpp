// The Newton system of a model of several bodies (sim/step/reduced_system.hpp): its solve, with or
// without bodies held, against the same system assembled densely in body order and solved by
// Eigen; and, while contact couples two bodies of different sizes and lets them go again (the body
// order changes both times), every solve gives the bits of a fresh system's (no block of an earlier
// solve, laid out in an earlier order, may survive into the matrix).
#include "smfem/sim/step/reduced_system.hpp"

#include <memory>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Cholesky>

#include "sim/test_model.hpp"
#include "smfem/multibody/composite_model.hpp"
#include "smfem/sim/contact/contact_potential.hpp"
#include "smfem/sim/fixtures/box_model.hpp"

namespace smfem::multibody {
namespace {

sim::ReducedModel box(int modes) { return sim::test::small_box_model(modes); }

struct TetInputs {
  std::vector<Matrix9<double>> hessians;
  std::vector<Matrix3<double>> gradients;
};

// Random SPD per-tet Hessians and random gradients, the same for every call given the seed.
TetInputs random_inputs(int tets) {
  std::mt19937 random(3);
  std::normal_distribution<double> normal;
  TetInputs inputs;
  for (int t = 0; t < tets; ++t) {
    Matrix9<double> R;
    Matrix3<double> g;
    for (int i = 0; i < 81; ++i) R.data()[i] = normal(random);
    for (int i = 0; i < 9; ++i) g.data()[i] = normal(random);
    inputs.hessians.push_back(R * R.transpose() + Matrix9<double>::Identity());
    inputs.gradients.push_back(g);
  }
  return inputs;
}

void set_inputs(sim::ReducedSystem& system, int tets, parallel::ThreadPool& pool) {
  const TetInputs inputs = random_inputs(tets);
  for (int t = 0; t < tets; ++t) {
    system.set_tet_hessian(t, inputs.hessians[static_cast<std::size_t>(t)]);
    system.set_tet_gradient(t, inputs.gradients[static_cast<std::size_t>(t)]);
  }
  system.assemble(pool);
}

// What both tests' solves need: the bodies, contact that acts within 1 cm, no obstacles, U = 0, a
// random gradient of the dynamics, and the dynamics.
struct Solve {
  explicit Solve(CompositeModel bodies)
      : composite(std::move(bodies)),
        U(sim::ReducedMatrix::Zero(4 * composite.model.mode_count(), 3)),
        dynamics_gradient(sim::ReducedMatrix::Random(U.rows(), 3)),
        dynamics(composite.model.mass_block, 0.01) {
    parameters.activation = 0.01;
    parameters.stiffness = 1e3;
  }
  CompositeModel composite;
  contact::ContactParameters parameters;
  std::vector<contact::Obstacle> obstacles;
  sim::ReducedMatrix U, dynamics_gradient;
  sim::Dynamics dynamics;
  parallel::ThreadPool pool{1};
};

// The system's solution computed apart: each body's stiffness assembled on its own, the whole
// matrix dense with the bodies in index order, the contact Hessian added, Eigen's LLT. With
// `moving` (a flag per body), only the moving bodies' rows and columns are solved for; the others'
// rows of du are zero.
sim::ReducedMatrix dense_solution(const sim::ReducedModel& model, const sim::Dynamics& dynamics,
                                  const contact::ContactPotential& contact,
                                  const sim::ReducedMatrix& dynamics_gradient,
                                  parallel::ThreadPool& pool,
                                  const std::vector<char>& moving = {}) {
  const TetInputs inputs = random_inputs(model.cubature_count());
  const auto n = dynamics_gradient.rows();
  Eigen::MatrixXd lower = Eigen::MatrixXd::Zero(3 * n, 3 * n);
  sim::ReducedMatrix rhs = -dynamics_gradient;
  sim::SystemLayout layout;
  for (const sim::ReducedModel::Body& body : model.bodies) {
    const int first_row = 4 * body.first_mode, rows = 4 * body.modes;
    layout.ranges.push_back({first_row, rows, 3 * first_row});
    sim::StiffnessAssembly assembly(
        model.cubature_Y.block(3 * body.first_tet, 0, 3 * body.tets, rows),
        model.cubature_weights.segment(body.first_tet, body.tets), 1);
    for (int t = 0; t < body.tets; ++t) {
      const auto k = static_cast<std::size_t>(body.first_tet + t);
      assembly.set_tet_hessian(t, inputs.hessians[k]);
      assembly.set_tet_gradient(t, inputs.gradients[k]);
    }
    assembly.assemble(pool);
    assembly.add_to_lower(dynamics.hessian_block().block(first_row, first_row, rows, rows),
                          lower.block(3 * first_row, 3 * first_row, 3 * rows, 3 * rows));
    rhs.middleRows(first_row, rows) -= assembly.force();
  }
  contact.hessian().add_to_lower(layout, lower);
  Eigen::VectorXd b(3 * n);
  for (const sim::SystemLayout::Range& range : layout.ranges) {
    for (int c = 0; c < 3; ++c) {
      b.segment(range.first_unknown + c * range.rows, range.rows) =
          rhs.col(c).segment(range.first_row, range.rows);
    }
  }
  const Eigen::MatrixXd A = lower.selfadjointView<Eigen::Lower>();
  std::vector<Eigen::Index> kept;  // the moving bodies' unknowns
  for (std::size_t k = 0; k < layout.ranges.size(); ++k) {
    if (!moving.empty() && !moving[k]) continue;
    const sim::SystemLayout::Range& range = layout.ranges[k];
    for (int i = 0; i < 3 * range.rows; ++i) kept.push_back(range.first_unknown + i);
  }
  const Eigen::MatrixXd A_kept = A(kept, kept);
  const Eigen::VectorXd x_kept = A_kept.llt().solve(Eigen::VectorXd(b(kept)));
  Eigen::VectorXd x = Eigen::VectorXd::Zero(3 * n);
  x(kept) = x_kept;
  sim::ReducedMatrix du(n, 3);
  for (const sim::SystemLayout::Range& range : layout.ranges) {
    for (int c = 0; c < 3; ++c) {
      du.col(c).segment(range.first_row, range.rows) =
          x.segment(range.first_unknown + c * range.rows, range.rows);
    }
  }
  return du;
}

// A tower of three bodies of 1, 4 and 2 modes, contact coupling 0-1 and 1-2: the middle body is
// eliminated first (its neighbours hold the fewest unknowns), which couples the other two (fill),
// so the blocks are laid out and factored in another order than the bodies'. Then as an impact's
// further iterations (sim/simulator.hpp) hold the bodies that do not approach: the system is the
// moving bodies' rows and columns of the whole one, and du is zero on the held bodies' rows. Held:
// none, the middle body (its two neighbours, coupled only through it, are solved apart), the bottom
// one, none again.
TEST(SeveralBodiesSystem, SolvesLikeTheDenseSystemInBodyOrder) {
  const std::vector<Eigen::Vector3d> tower = {
      Eigen::Vector3d::Zero(), {0.0, 0.405, 0.0}, {0.0, 0.81, 0.0}};
  Solve solve(combine_models({box(1), box(4), box(2)}, tower));
  const sim::ReducedModel& model = solve.composite.model;
  auto& [composite, parameters, obstacles, U, dynamics_gradient, dynamics, pool] = solve;
  contact::ContactPotential contact(model.contact, tower);
  contact.set_environment(&obstacles, parameters, 0.01);
  sim::ReducedMatrix gradient;
  contact.linearize(U, gradient);
  int pairs = 0;
  for (const contact::ContactHessian::Group& group : contact.hessian().groups()) {
    pairs += group.second.count > 0 ? 1 : 0;
  }
  ASSERT_EQ(pairs, 2) << "the tower's neighbours must touch for the test to mean anything";
  sim::ReducedSystem system(model, dynamics, 1);
  system.set_contact(&contact);
  for (const std::vector<char>& moving : {std::vector<char>{}, std::vector<char>{1, 0, 1},
                                          std::vector<char>{0, 1, 1}, std::vector<char>{}}) {
    system.set_moving_bodies(moving);
    // Assembled as an iteration does: the moving bodies only.
    set_inputs(system, model.cubature_count(), pool);
    sim::ReducedMatrix du;
    ASSERT_EQ(system.solve(dynamics_gradient, du), 0);
    const sim::ReducedMatrix expected =
        dense_solution(model, dynamics, contact, dynamics_gradient, pool, moving);
    EXPECT_LT((du - expected).norm(), 1e-10 * expected.norm());
    for (std::size_t b = 0; b < moving.size(); ++b) {
      const sim::ReducedModel::Body& body = model.bodies[b];
      if (!moving[b]) {
        EXPECT_TRUE(du.middleRows(4 * body.first_mode, 4 * body.modes).isZero(0.0));
      }
    }
  }
  EXPECT_THROW(system.set_moving_bodies({1, 0}), std::invalid_argument);
}

TEST(SeveralBodiesSystem, EverySolveGivesTheBitsOfAFreshSystem) {
  // Body 0 has 1 mode (12 unknowns), body 1 four (48): apart they go in index order; coupled,
  // body 1 goes first (its neighbour holds fewer unknowns).
  const std::vector<Eigen::Vector3d> near = {Eigen::Vector3d::Zero(), {0.0, 0.405, 0.0}};
  const std::vector<Eigen::Vector3d> far = {Eigen::Vector3d::Zero(), {0.0, 2.0, 0.0}};
  Solve solve(combine_models({box(1), box(4)}, near));
  const sim::ReducedModel& model = solve.composite.model;
  auto& [composite, parameters, obstacles, U, dynamics_gradient, dynamics, pool] = solve;
  sim::ReducedSystem lasting(model, dynamics, 1);
  set_inputs(lasting, model.cubature_count(), pool);
  bool coupled_once = false;
  for (const auto* offsets : {&far, &near, &far, &near}) {
    contact::ContactPotential contact(model.contact, *offsets);
    contact.set_environment(&obstacles, parameters, 0.01);
    sim::ReducedMatrix gradient;
    contact.linearize(U, gradient);
    for (const contact::ContactHessian::Group& group : contact.hessian().groups()) {
      coupled_once = coupled_once || group.second.count > 0;
    }
    sim::ReducedSystem fresh(model, dynamics, 1);
    set_inputs(fresh, model.cubature_count(), pool);
    sim::ReducedMatrix du_lasting, du_fresh;
    lasting.set_contact(&contact);
    fresh.set_contact(&contact);
    ASSERT_EQ(lasting.solve(dynamics_gradient, du_lasting), 0);
    ASSERT_EQ(fresh.solve(dynamics_gradient, du_fresh), 0);
    EXPECT_EQ(du_lasting, du_fresh);
  }
  EXPECT_TRUE(coupled_once) << "the near bodies must touch for the test to mean anything";
}

}  // namespace
}  // namespace smfem::multibody
