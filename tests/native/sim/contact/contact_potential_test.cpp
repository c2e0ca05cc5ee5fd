// The contact term of one body against finite differences, its Hessian's positive
// semi-definiteness, and CCD along reduced directions.
#include "smfem/sim/contact/contact_potential.hpp"

#include "smfem/multibody/composite_model.hpp"

#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include "sim/test_model.hpp"

namespace smfem::contact {
namespace {

using sim::ReducedMatrix;

// Two boxes (x in [0.2, 1.2], y in [-0.2, 0.2], z in [0.1, 0.5]) as one model (the second
// 5 mm above the first), 4 mm above a nearly level, moving ground, beside a sphere.
class ContactPotentialTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const sim::ReducedModel box = sim::make_box_model(sim::test::small_box()).model;
    ASSERT_FALSE(box.contact.empty());
    offsets_ = {Eigen::Vector3d::Zero(), Eigen::Vector3d(0.0, 0.405, 0.0)};
    composite_ = multibody::combine_models({box, box}, offsets_);

    Obstacle ground;
    ground.point = {0, -0.204, 0};
    ground.normal = Eigen::Vector3d(0.002, 1, 0).normalized();
    ground.friction = 0.5;
    // The ground moved 1 mm this step: friction's reference moves with it.
    ground.start_offset = {-1e-3, 0, 0};
    Obstacle sphere;
    sphere.kind = ObstacleKind::sphere;
    sphere.point = {1.2 + 0.05 + 0.006, 0.0, 0.3};
    sphere.radius = 0.05;
    obstacles_ = {ground, sphere};

    parameters_.activation = 0.01;
    parameters_.stiffness = 1e3;
    parameters_.friction = 0.3;
    potential_ = another_potential();
  }

  // A potential of the same bodies, obstacles and parameters, gathering on its own.
  std::unique_ptr<ContactPotential> another_potential() const {
    auto potential = std::make_unique<ContactPotential>(composite_.model.contact, offsets_);
    potential->set_environment(&obstacles_, parameters_, 0.01);
    return potential;
  }

  int modes() const { return composite_.model.mode_count(); }

  std::vector<Eigen::Vector3d> offsets_;
  multibody::CompositeModel composite_;
  std::vector<Obstacle> obstacles_;
  ContactParameters parameters_;
  std::unique_ptr<ContactPotential> potential_;
};

TEST_F(ContactPotentialTest, GradientMatchesFiniteDifferences) {
  const int m = modes();
  const ReducedMatrix U0 = sim::test::random_reduced(m, 2e-4, 11);
  potential_->begin_step(U0);
  const ReducedMatrix U = U0 + sim::test::random_reduced(m, 3e-4, 12);
  ReducedMatrix gradient;
  potential_->linearize(U, gradient);
  ASSERT_GT(potential_->measure(U).active, 10);
  const double h = 1e-8;
  double worst = 0.0;
  for (Eigen::Index i = 0; i < U.size(); ++i) {
    ReducedMatrix plus = U, minus = U;
    plus.data()[i] += h;
    minus.data()[i] -= h;
    const double fd = (potential_->energy(plus) - potential_->energy(minus)) / (2 * h);
    worst = std::max(worst, std::abs(fd - gradient.data()[i]) / (gradient.norm() + 1e-12));
  }
  EXPECT_LT(worst, 1e-5);
}

// Sample-plane pairs and friction: the Hessian is exact (the barrier's PSD projection is
// exact there, the friction Hessian is PSD as it is).
TEST_F(ContactPotentialTest, HessianMatchesFiniteDifferencesOnAPlane) {
  obstacles_.resize(1);
  const sim::ReducedModel box = sim::make_box_model(sim::test::small_box()).model;
  potential_ =
      std::make_unique<ContactPotential>(box.contact, std::vector<Eigen::Vector3d>{offsets_[0]});
  potential_->set_environment(&obstacles_, parameters_, 0.01);
  const int m = box.mode_count();
  const ReducedMatrix U0 = sim::test::random_reduced(m, 2e-4, 21);
  potential_->begin_step(U0);
  const ReducedMatrix U = U0 + sim::test::random_reduced(m, 3e-4, 22);
  ReducedMatrix gradient, plus_gradient, minus_gradient;
  potential_->linearize(U, gradient);
  const Eigen::Index n = U.size();
  Eigen::MatrixXd hessian = Eigen::MatrixXd::Zero(n, n);
  potential_->hessian().add_to_lower(sim::SystemLayout::stacked(static_cast<int>(U.rows())),
                                     hessian);
  hessian = hessian.selfadjointView<Eigen::Lower>();
  const double h = 1e-8;
  for (Eigen::Index i = 0; i < n; ++i) {
    ReducedMatrix plus = U, minus = U;
    plus.data()[i] += h;
    minus.data()[i] -= h;
    potential_->linearize(plus, plus_gradient);
    potential_->linearize(minus, minus_gradient);
    const Eigen::VectorXd column = Eigen::Map<const Eigen::VectorXd>(plus_gradient.data(), n) -
                                   Eigen::Map<const Eigen::VectorXd>(minus_gradient.data(), n);
    EXPECT_LT((column / (2 * h) - hessian.col(i)).norm(), 1e-4 * hessian.norm()) << i;
  }
}

TEST_F(ContactPotentialTest, HessianIsPositiveSemiDefinite) {
  const int m = modes();
  for (unsigned seed = 0; seed < 5; ++seed) {
    const ReducedMatrix U0 = sim::test::random_reduced(m, 2e-4, 40 + seed);
    potential_->begin_step(U0);
    const ReducedMatrix U = U0 + sim::test::random_reduced(m, 3e-4, 50 + seed);
    ReducedMatrix gradient;
    potential_->linearize(U, gradient);
    Eigen::MatrixXd hessian = Eigen::MatrixXd::Zero(U.size(), U.size());
    potential_->hessian().add_to_lower(sim::SystemLayout::stacked(static_cast<int>(U.rows())),
                                       hessian);
    const Eigen::MatrixXd full = hessian.selfadjointView<Eigen::Lower>();
    const double smallest =
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(full).eigenvalues().minCoeff();
    EXPECT_GE(smallest, -1e-9 * full.norm());
    EXPECT_NEAR(potential_->curvature(U), U.reshaped().dot(full * U.reshaped()),
                1e-9 * std::abs(potential_->curvature(U)) + 1e-15);
  }
}

// Every alpha up to max_step keeps every pair apart, whatever the direction.
TEST_F(ContactPotentialTest, MaxStepKeepsEveryPairApart) {
  const int m = modes();
  potential_->begin_step(ReducedMatrix::Zero(4 * m, 3));
  int limited = 0;
  for (unsigned seed = 0; seed < 8; ++seed) {
    const ReducedMatrix U = sim::test::random_reduced(m, 2e-4, 60 + seed);
    const ReducedMatrix dU = sim::test::random_reduced(m, 0.05, 70 + seed);
    const double alpha = potential_->max_step(U, dU);
    ASSERT_GT(alpha, 0.0);
    limited += alpha < 1.0 ? 1 : 0;
    for (int s = 0; s <= 50; ++s) {
      const ReducedMatrix trial = U + (alpha * s / 50.0) * dU;
      EXPECT_TRUE(std::isfinite(potential_->energy(trial))) << seed << " " << s;
      EXPECT_GT(potential_->measure(trial).min_distance, 0.0) << seed << " " << s;
    }
  }
  EXPECT_GT(limited, 4);  // the directions did run into something
}

// The candidates max_step() keeps (boxes that overlap, less the pairs whose distance bound keeps
// them beyond dhat) miss no pair that comes within dhat anywhere on the segment: the line search's
// energy there equals that of a potential gathering afresh at the point.
TEST_F(ContactPotentialTest, LineSearchCandidatesMissNoPairOnTheSegment) {
  const int m = modes();
  // Without friction, the line search's energy is the barrier's alone.
  std::vector<Obstacle> obstacles = obstacles_;
  for (Obstacle& obstacle : obstacles) obstacle.friction = 0.0;
  ContactParameters parameters = parameters_;
  parameters.friction = 0.0;
  potential_->set_environment(&obstacles, parameters, 0.01);
  ContactPotential fresh(composite_.model.contact, offsets_);
  fresh.set_environment(&obstacles, parameters, 0.01);
  int touching = 0;
  for (unsigned seed = 0; seed < 6; ++seed) {
    const ReducedMatrix U0 = sim::test::random_reduced(m, 2e-4, 100 + seed);
    const ReducedMatrix dU = sim::test::random_reduced(m, 0.003 * (1 + seed), 110 + seed);
    potential_->begin_step(U0);
    const double alpha = potential_->max_step(U0, dU);
    ASSERT_GT(alpha, 0.0);
    for (int s = 0; s <= 20; ++s) {
      const double a = alpha * s / 20.0;
      const ReducedMatrix U = U0 + a * dU;
      const double barrier = fresh.potential_energy(U);
      touching += barrier > 0.0 ? 1 : 0;
      EXPECT_NEAR(potential_->energy_along(a, U), barrier, 1e-12 * barrier) << seed << " " << s;
    }
  }
  EXPECT_GT(touching, 60);  // most points of the segments are within dhat of something
}

// The candidates against obstacles are exactly the (sample, obstacle) pairs that the segment may
// bring within dhat, counted one by one: a body of 12 x 6 x 6 cubes among obstacles of every
// kind, some touching it, some near and some far, moved by small and large directions. (A broad
// phase that culls samples by a bound must keep this.)
TEST(ContactPotentialObstacles, CandidatesAreEverySampleWithinReach) {
  sim::BoxModelOptions options;
  options.nx = 12;
  options.ny = 6;
  options.nz = 6;
  const sim::ReducedModel body = sim::make_box_model(options).model;
  const auto make = [](ObstacleKind kind, Eigen::Vector3d point) {
    Obstacle obstacle;
    obstacle.kind = kind;
    obstacle.point = point;
    return obstacle;
  };
  std::vector<Obstacle> obstacles;
  obstacles.push_back(make(ObstacleKind::plane, {0.0, -0.203, 0.0}));  // the floor
  obstacles.back().normal = Eigen::Vector3d(0.01, 1.0, 0.0).normalized();
  obstacles.push_back(make(ObstacleKind::plane, {1.26, 0.0, 0.0}));  // a wall
  obstacles.back().normal = -Eigen::Vector3d::UnitX();
  obstacles.push_back(make(ObstacleKind::plane, {0.0, 5.0, 0.0}));  // a ceiling far above
  obstacles.back().normal = -Eigen::Vector3d::UnitY();
  obstacles.push_back(make(ObstacleKind::sphere, {0.7, 0.0, 0.58}));
  obstacles.back().radius = 0.075;
  obstacles.push_back(make(ObstacleKind::box, {0.1, 0.0, 0.3}));
  obstacles.back().half_extents = {0.098, 0.05, 0.05};
  obstacles.push_back(make(ObstacleKind::capsule, {0.3, 0.25, 0.0}));
  obstacles.back().end = {1.1, 0.25, 0.6};
  obstacles.back().radius = 0.04;
  obstacles.push_back(make(ObstacleKind::capsule, {3.0, 3.0, 3.0}));  // far away
  obstacles.back().end = {4.0, 3.0, 3.0};
  obstacles.back().radius = 0.5;
  ContactParameters parameters;
  parameters.activation = 0.01;
  parameters.stiffness = 1e3;
  ContactPotential potential(body.contact, {Eigen::Vector3d::Zero()});
  potential.set_environment(&obstacles, parameters, 0.01);

  const int m = body.mode_count();
  const Eigen::Index samples = body.contact.samples.size();
  ASSERT_GT(samples, 300);
  std::size_t fewest = std::numeric_limits<std::size_t>::max(), most = 0;
  for (unsigned seed = 0; seed < 8; ++seed) {
    const ReducedMatrix U = sim::test::random_reduced(m, 2e-4, 200 + seed);
    const ReducedMatrix dU = sim::test::random_reduced(m, 0.002 * (1 << seed), 210 + seed);
    const SurfacePositions x0 = potential.positions_at(U);
    const SurfacePositions x1 = potential.positions_at(U + dU);
    // Bounds of the count, a hair inside and outside the reach: the gather's motion is the
    // product of dU, not this difference of positions.
    std::size_t inside = 0, outside = 0;
    for (Eigen::Index k = 0; k < samples; ++k) {
      const int v = body.contact.samples(k);
      const Eigen::Vector3d x = x0.row(v).transpose();
      const double reach = (x1.row(v) - x0.row(v)).norm() + parameters.activation;
      for (const Obstacle& obstacle : obstacles) {
        const double distance = obstacle_distance(obstacle, x).distance;
        inside += distance < reach - 1e-12 ? 1 : 0;
        outside += distance < reach + 1e-12 ? 1 : 0;
      }
    }
    potential.max_step(U, dU);
    EXPECT_GE(potential.candidate_count(), inside) << seed;
    EXPECT_LE(potential.candidate_count(), outside) << seed;
    fewest = std::min(fewest, inside);
    most = std::max(most, inside);
  }
  // The small directions reach the obstacles the body touches, the large ones several more.
  EXPECT_GT(fewest, 0U);
  EXPECT_LT(fewest, static_cast<std::size_t>(samples) / 2);
  EXPECT_GT(most, static_cast<std::size_t>(samples));
}

// A translation of body `body` alone by t in the composite's subspace (exact where the subspace
// holds a constant weight, as the box's does).
ReducedMatrix body_translation(const sim::ReducedModel& model, int body, const Eigen::Vector3d& t) {
  const sim::ReducedModel::Body& b = model.bodies[static_cast<std::size_t>(body)];
  Eigen::VectorXd along = Eigen::VectorXd::Zero(model.mass_vector.size());
  along.segment(4 * b.first_mode, 4 * b.modes) =
      model.mass_vector.segment(4 * b.first_mode, 4 * b.modes);
  const Eigen::VectorXd rows = model.mass_block.ldlt().solve(along);
  return rows * t.transpose();
}

// Bodies moving together sweep across each other's triangles, but no distance between them
// changes: their candidates are the pairs within dhat, as when nothing moves (both boxes half
// their length sideways, 5 mm apart; counted by absolute motion, every sample of a facing side
// was paired with every triangle within twice that of it).
TEST_F(ContactPotentialTest, BodiesMovingTogetherKeepOnlyThePairsWithinDhat) {
  potential_->set_environment(nullptr, parameters_, 0.01);  // the bodies' pairs alone
  const ReducedMatrix U0 = ReducedMatrix::Zero(4 * modes(), 3);
  potential_->begin_step(U0);
  ASSERT_EQ(potential_->max_step(U0, ReducedMatrix::Zero(U0.rows(), 3)), 1.0);
  const std::size_t at_rest = potential_->candidate_count();
  ASSERT_GT(at_rest, 10u);
  const Eigen::Vector3d sideways(-0.5, 0.0, 0.0);
  const ReducedMatrix together = body_translation(composite_.model, 0, sideways) +
                                 body_translation(composite_.model, 1, sideways);
  EXPECT_EQ(potential_->max_step(U0, together), 1.0);
  EXPECT_EQ(potential_->candidate_count(), at_rest);
  // The upper body alone sliding half its length over the lower does pass over triangles that
  // are beyond dhat of its samples at rest.
  potential_->max_step(U0, body_translation(composite_.model, 1, sideways));
  EXPECT_GT(potential_->candidate_count(), at_rest);
}

// linearize() at a point of the segment the last max_step() swept reuses its pairs: the same
// gradient and energy as a potential that gathers afresh there.
TEST_F(ContactPotentialTest, LinearizeOnTheSweptSegmentMatchesAFreshGather) {
  const int m = modes();
  const ReducedMatrix U0 = sim::test::random_reduced(m, 2e-4, 81);
  const ReducedMatrix dU = sim::test::random_reduced(m, 4e-4, 82);
  const std::unique_ptr<ContactPotential> fresh_potential = another_potential();
  ContactPotential& fresh = *fresh_potential;
  for (ContactPotential* potential : {potential_.get(), &fresh}) potential->begin_step(U0);
  const double alpha = potential_->max_step(U0, dU);
  ASSERT_GT(alpha, 0.0);
  const ReducedMatrix U = U0 + (0.7 * alpha) * dU;
  ASSERT_GT(fresh.measure(U).active, 10);
  ReducedMatrix reused_gradient, fresh_gradient;
  potential_->linearize(U, reused_gradient);
  fresh.linearize(U, fresh_gradient);
  EXPECT_LT((reused_gradient - fresh_gradient).norm(), 1e-12 * fresh_gradient.norm());
  EXPECT_NEAR(potential_->potential_energy(U), fresh.potential_energy(U),
              1e-12 * fresh.potential_energy(U));
}

// begin_step() given the step's first direction gathers that segment once for friction and for
// the max_step() along it: the same friction, bound and pairs as a start gathered on its own.
// Friction on.
TEST_F(ContactPotentialTest, TheFirstSegmentGatheredOnceGivesWhatTwoGathersGave) {
  const int m = modes();
  const ReducedMatrix U0 = sim::test::random_reduced(m, 2e-4, 91);
  const ReducedMatrix dU = sim::test::random_reduced(m, 4e-4, 92) +
                           body_translation(composite_.model, 1, {0.0, -0.006, 0.0});
  const std::unique_ptr<ContactPotential> apart_potential = another_potential();
  ContactPotential& apart = *apart_potential;
  apart.begin_step(U0);
  const double alpha = apart.max_step(U0, dU);
  potential_->begin_step(U0, dU);
  ASSERT_GT(alpha, 0.0);
  ASSERT_LT(alpha, 1.0);
  EXPECT_EQ(potential_->max_step(U0, dU), alpha);
  EXPECT_EQ(potential_->candidate_count(), apart.candidate_count());
  EXPECT_EQ(potential_->largest_approach(), apart.largest_approach());
  const ReducedMatrix U = U0 + (0.5 * alpha) * dU;
  ASSERT_GT(apart.friction_energy(U), 0.0);
  EXPECT_EQ(potential_->friction_energy(U), apart.friction_energy(U));
  ReducedMatrix gradient, apart_gradient;
  potential_->linearize(U, gradient);
  apart.linearize(U, apart_gradient);
  EXPECT_EQ(gradient, apart_gradient);
}

// Holding a body after a sweep keeps the segment's pairs that touch a moving body: the same
// gradient and energy as a potential that gathers afresh with the body held, and not those
// of every pair (the lower box against the ground drops out).
TEST_F(ContactPotentialTest, HoldingABodyAfterASweepMatchesAFreshGather) {
  const int m = modes();
  const ReducedMatrix U0 = sim::test::random_reduced(m, 2e-4, 93);
  const ReducedMatrix dU = sim::test::random_reduced(m, 4e-4, 94);
  const std::unique_ptr<ContactPotential> fresh_potential = another_potential();
  ContactPotential& fresh = *fresh_potential;
  fresh.begin_step(U0);
  fresh.set_moving_parts({0, 1});
  potential_->begin_step(U0);
  const double alpha = potential_->max_step(U0, dU);
  ASSERT_GT(alpha, 0.0);
  const ReducedMatrix U = U0 + (0.5 * alpha) * dU;
  ReducedMatrix every_pair, held, fresh_gradient;
  potential_->linearize(U, every_pair);
  potential_->set_moving_parts({0, 1});
  potential_->linearize(U, held);
  fresh.linearize(U, fresh_gradient);
  EXPECT_EQ(held, fresh_gradient);
  EXPECT_NE(held, every_pair);
  EXPECT_EQ(potential_->potential_energy(U), fresh.potential_energy(U));
}

// Which bodies a direction makes approach something by more than a distance: the upper box moved
// down 2 cm onto the lower (both), up (neither), the lower box down 2 cm towards the ground and
// away from the upper (the lower only).
TEST_F(ContactPotentialTest, NamesTheBodiesThatApproach) {
  const ReducedMatrix U0 = ReducedMatrix::Zero(4 * modes(), 3);
  const sim::ReducedModel& model = composite_.model;
  const auto approaching = [&](int body, double dy) {
    potential_->begin_step(U0);
    potential_->max_step(U0, body_translation(model, body, {0.0, dy, 0.0}));
    return potential_->parts_approaching(parameters_.activation);
  };
  EXPECT_EQ(approaching(1, -0.02), (std::vector<char>{1, 1}));
  EXPECT_EQ(approaching(1, 0.02), (std::vector<char>{0, 0}));
  EXPECT_EQ(approaching(0, -0.02), (std::vector<char>{1, 0}));
}

// With the lower box held (an impact's further iterations, sim/simulator.hpp), directions that
// move the upper box alone see the same changes of energy, the same step bound, and on the upper
// box's rows the same gradient as with every pair: the pairs left out (the lower box against the
// ground) cannot change. Friction on.
TEST_F(ContactPotentialTest, HoldingABodyKeepsTheChangesOfTheOthers) {
  const int m = modes();
  const sim::ReducedModel& model = composite_.model;
  const sim::ReducedModel::Body& upper = model.bodies[1];
  const auto upper_rows = [&](const ReducedMatrix& A) {
    return A.middleRows(4 * upper.first_mode, 4 * upper.modes);
  };
  const std::unique_ptr<ContactPotential> whole_potential = another_potential();
  ContactPotential& whole = *whole_potential;
  potential_->set_moving_parts({0, 1});
  const ReducedMatrix U0 = sim::test::random_reduced(m, 2e-4, 61);
  ReducedMatrix dU =
      sim::test::random_reduced(m, 2e-3, 62) + body_translation(model, 1, {0.0, -0.008, 0.0});
  dU.middleRows(4 * model.bodies[0].first_mode, 4 * model.bodies[0].modes).setZero();
  for (ContactPotential* potential : {potential_.get(), &whole}) potential->begin_step(U0);
  const double alpha = whole.max_step(U0, dU);
  ASSERT_GT(alpha, 0.0);
  EXPECT_EQ(potential_->max_step(U0, dU), alpha);
  const double held_start = potential_->energy_along(0.0, U0);
  const double whole_start = whole.energy_along(0.0, U0);
  int touching = 0;
  for (int s = 1; s <= 10; ++s) {
    const double a = alpha * s / 10.0;
    const ReducedMatrix U = U0 + a * dU;
    const double change = whole.energy_along(a, U) - whole_start;
    touching += change != 0.0 ? 1 : 0;
    EXPECT_NEAR(potential_->energy_along(a, U) - held_start, change, 1e-10 * whole_start) << s;
  }
  EXPECT_GT(touching, 5);
  const ReducedMatrix U = U0 + (0.5 * alpha) * dU;
  ReducedMatrix held_gradient, whole_gradient;
  potential_->linearize(U, held_gradient);
  whole.linearize(U, whole_gradient);
  ASSERT_GT(upper_rows(whole_gradient).norm(), 0.0);
  EXPECT_LT((upper_rows(held_gradient) - upper_rows(whole_gradient)).norm(),
            1e-12 * upper_rows(whole_gradient).norm());
  EXPECT_NEAR(potential_->curvature(dU), whole.curvature(dU), 1e-12 * whole.curvature(dU));
  // The held body's rows are left out of the Hessian (the system does not solve for them), and
  // on the upper box's rows it is the whole Hessian.
  ASSERT_GT(potential_->hessian().groups().size(), 0u);
  for (const ContactHessian::Group& group : potential_->hessian().groups()) {
    EXPECT_EQ(group.first.first, 4 * upper.first_mode);
    EXPECT_EQ(group.second.count, 0);
  }
  ReducedMatrix A = sim::test::random_reduced(m, 1.0, 63),
                B = sim::test::random_reduced(m, 1.0, 64);
  for (ReducedMatrix* X : {&A, &B}) {
    X->middleRows(4 * model.bodies[0].first_mode, 4 * model.bodies[0].modes).setZero();
  }
  const double form = whole.hessian().form(A, B);
  ASSERT_GT(std::abs(form), 0.0);
  EXPECT_NEAR(potential_->hessian().form(A, B), form, 1e-12 * std::abs(form));
  // Held the other way round (the upper box, the pair's second body), the lower box's rows;
  // friction's pairs from a start where every body moves, as in a step.
  potential_->set_moving_parts({});
  potential_->begin_step(U0);
  potential_->set_moving_parts({1, 0});
  potential_->linearize(U, held_gradient);
  for (const ContactHessian::Group& group : potential_->hessian().groups()) {
    EXPECT_EQ(group.first.first, 4 * model.bodies[0].first_mode);
    EXPECT_EQ(group.second.count, 0);
  }
  A = sim::test::random_reduced(m, 1.0, 65);
  B = sim::test::random_reduced(m, 1.0, 66);
  for (ReducedMatrix* X : {&A, &B}) X->middleRows(4 * upper.first_mode, 4 * upper.modes).setZero();
  const double lower_form = whole.hessian().form(A, B);
  ASSERT_GT(std::abs(lower_form), 0.0);
  EXPECT_NEAR(potential_->hessian().form(A, B), lower_form, 1e-12 * std::abs(lower_form));
  EXPECT_THROW(potential_->set_moving_parts({1}), std::invalid_argument);
}

// The Hessian along the bodies' translations (what the translation correction needs) equals the
// whole Hessian's projection on them, entry by entry, and the gradient is linearize()'s, bit for
// bit. Friction on.
TEST_F(ContactPotentialTest, ProjectsTheHessianOnTheBodiesTranslations) {
  const int m = modes();
  const sim::ReducedModel& model = composite_.model;
  const Eigen::VectorXd t = model.mass_block.ldlt().solve(model.mass_vector);
  const ReducedMatrix U0 = sim::test::random_reduced(m, 2e-4, 71);
  const ReducedMatrix U = U0 + body_translation(model, 1, {0.0, -0.003, 0.0});
  potential_->begin_step(U0);
  ReducedMatrix gradient, projected_gradient;
  Eigen::MatrixXd projected;
  potential_->linearize(U, gradient);
  potential_->linearize_translations(U, t, projected_gradient, projected);
  EXPECT_EQ(projected_gradient, gradient);
  ASSERT_EQ(projected.rows(), 6);
  // t on body b's rows alone, along coordinate d.
  const auto along = [&](int b, int d) {
    const sim::ReducedModel::Body& body = model.bodies[static_cast<std::size_t>(b)];
    ReducedMatrix A = ReducedMatrix::Zero(4 * m, 3);
    A.col(d).segment(4 * body.first_mode, 4 * body.modes) =
        t.segment(4 * body.first_mode, 4 * body.modes);
    return A;
  };
  const ContactHessian& hessian = potential_->hessian();
  const double scale = projected.cwiseAbs().maxCoeff();
  ASSERT_GT(std::abs(projected(4, 1)), 1e-6 * scale) << "the boxes must press on each other";
  for (int p = 0; p < 2; ++p) {
    for (int q = 0; q < 2; ++q) {
      for (int d = 0; d < 3; ++d) {
        for (int e = 0; e < 3; ++e) {
          EXPECT_NEAR(projected(3 * p + d, 3 * q + e), hessian.form(along(p, d), along(q, e)),
                      1e-10 * scale)
              << p << q << d << e;
        }
      }
    }
  }
}

// The loops over vertices, samples, pairs and groups on a pool of two (contact_potential.hpp):
// the bits of the same loops on the caller's thread alone, on bodies with enough samples and
// pairs for many chunks.
TEST(ContactPotentialOnAPool, GivesTheBitsOfTheSerialLoops) {
  sim::BoxModelOptions fine = sim::test::small_box();
  fine.nx = 16;
  fine.ny = 8;
  fine.nz = 8;
  const sim::ReducedModel box = sim::make_box_model(fine).model;
  const std::vector<Eigen::Vector3d> offsets = {Eigen::Vector3d::Zero(),
                                                Eigen::Vector3d(0.1, 0.403, 0.05)};
  const multibody::CompositeModel composite = multibody::combine_models({box, box}, offsets);
  Obstacle ground;
  ground.point = {0, -0.203, 0};
  ground.normal = Eigen::Vector3d(0.002, 1, 0).normalized();
  ground.friction = 0.5;
  const std::vector<Obstacle> obstacles = {ground};
  ContactParameters parameters;
  parameters.activation = 0.01;
  parameters.friction = 0.3;
  ContactPotential serial(composite.model.contact, offsets);
  ContactPotential shared(composite.model.contact, offsets);
  parallel::ThreadPool pool(2);
  shared.set_pool(&pool);
  const int m = composite.model.mode_count();
  const ReducedMatrix U0 = sim::test::random_reduced(m, 2e-4, 91);
  const ReducedMatrix dU = sim::test::random_reduced(m, 4e-3, 92);
  ASSERT_GT(composite.model.contact.samples.size(), 4 * 256);
  for (ContactPotential* potential : {&serial, &shared}) {
    potential->set_environment(&obstacles, parameters, 0.01);
    potential->begin_step(U0);
  }
  const double alpha = serial.max_step(U0, dU);
  EXPECT_EQ(alpha, shared.max_step(U0, dU));
  EXPECT_EQ(serial.largest_approach(), shared.largest_approach());
  const ReducedMatrix U = U0 + (0.5 * alpha) * dU;
  EXPECT_EQ(serial.energy_along(0.5 * alpha, U), shared.energy_along(0.5 * alpha, U));
  ReducedMatrix serial_gradient, shared_gradient;
  serial.linearize(U, serial_gradient);
  shared.linearize(U, shared_gradient);
  ASSERT_GT(serial.measure(U).active, 2 * 128);
  EXPECT_EQ(serial_gradient, shared_gradient);
  EXPECT_EQ(serial.curvature(dU), shared.curvature(dU));
  EXPECT_EQ(serial.potential_energy(U), shared.potential_energy(U));
}

}  // namespace
}  // namespace smfem::contact
