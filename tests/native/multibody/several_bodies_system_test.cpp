// The Newton system of a model of several bodies (sim/step/reduced_system.hpp) while contact
// couples two bodies of different sizes and lets them go again: the body order changes both times,
// and every solve must still give the bits of a fresh system's (no block of an earlier solve, laid
// out in an earlier order, may survive into the matrix).
#include "smfem/sim/step/reduced_system.hpp"

#include <memory>
#include <random>

#include <gtest/gtest.h>

#include "sim/test_model.hpp"
#include "smfem/multibody/composite_model.hpp"
#include "smfem/sim/contact/contact_potential.hpp"
#include "smfem/sim/fixtures/box_model.hpp"

namespace smfem::multibody {
namespace {

sim::ReducedModel box(int modes) {
  sim::BoxModelOptions options = sim::test::small_box();
  options.mode_count = modes;
  return sim::make_box_model(options).model;
}

// Random SPD per-tet Hessians and random gradients, the same for every system given the seed.
void set_inputs(sim::ReducedSystem& system, int tets, parallel::ThreadPool& pool) {
  std::mt19937 random(3);
  std::normal_distribution<double> normal;
  for (int t = 0; t < tets; ++t) {
    Matrix9<double> R;
    Matrix3<double> g;
    for (int i = 0; i < 81; ++i) R.data()[i] = normal(random);
    for (int i = 0; i < 9; ++i) g.data()[i] = normal(random);
    system.set_tet_hessian(t, R * R.transpose() + Matrix9<double>::Identity());
    system.set_tet_gradient(t, g);
  }
  system.assemble(pool);
}

TEST(SeveralBodiesSystem, EverySolveGivesTheBitsOfAFreshSystem) {
  // Body 0 has 1 mode (12 unknowns), body 1 four (48): apart they go in index order; coupled,
  // body 1 goes first (its neighbour holds fewer unknowns).
  const std::vector<Eigen::Vector3d> near = {Eigen::Vector3d::Zero(), {0.0, 0.405, 0.0}};
  const std::vector<Eigen::Vector3d> far = {Eigen::Vector3d::Zero(), {0.0, 2.0, 0.0}};
  const CompositeModel composite = combine_models({box(1), box(4)}, near);
  const sim::ReducedModel& model = composite.model;
  contact::ContactParameters parameters;
  parameters.activation = 0.01;
  parameters.stiffness = 1e3;
  const std::vector<contact::Obstacle> obstacles;
  const sim::ReducedMatrix U = sim::ReducedMatrix::Zero(4 * model.mode_count(), 3);
  const sim::ReducedMatrix dynamics_gradient = sim::ReducedMatrix::Random(U.rows(), 3);
  sim::Dynamics dynamics(model.mass_block, 0.01);
  parallel::ThreadPool pool(1);
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
