// ContactPotential::measure (contact_measure.cpp) against the one-thread loop it replaced, its
// searches done by brute force over every pair, on one thread and on a pool of two.
#include <algorithm>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "sim/test_model.hpp"
#include "smfem/geometry/point_triangle.hpp"
#include "smfem/multibody/composite_model.hpp"
#include "smfem/sim/contact/contact_potential.hpp"

namespace smfem::contact {
namespace {

// Four boxes (x in [0.2, 1.2], y in [-0.2, 0.2], z in [0.1, 0.5] before their offsets) on a
// ground: the first 2 mm above the ground (the closest contact), the second 3 mm above the first,
// the third 4 mm beside the first (within dhat of both and of the ground), the fourth 10 cm behind
// and above the first (beyond dhat of everything).
TEST(ContactMeasure, IsTheOneThreadLoopOverEveryPairOnAnyThreadCount) {
  sim::BoxModelOptions fine = sim::test::small_box();
  fine.nx = 8;
  fine.ny = 4;
  fine.nz = 4;
  const sim::ReducedModel box = sim::make_box_model(fine).model;
  const std::vector<Eigen::Vector3d> offsets = {
      Eigen::Vector3d::Zero(), Eigen::Vector3d(0.1, 0.403, 0.05), Eigen::Vector3d(1.004, 0, 0),
      Eigen::Vector3d(0, 0.1, 0.5)};
  const multibody::CompositeModel composite =
      multibody::combine_models({box, box, box, box}, offsets);
  const ContactSurface& surface = composite.model.contact;
  ASSERT_GT(surface.samples.size(), 2 * 256);  // several of the measure's chunks
  Obstacle ground;
  ground.point = {0, -0.202, 0};
  const std::vector<Obstacle> obstacles = {ground};
  ContactParameters parameters;
  parameters.activation = 0.01;
  const double dhat = parameters.activation;
  const ReducedMatrix U = sim::test::random_reduced(composite.model.mode_count(), 1e-4, 7);

  ContactPotential serial(surface, offsets);
  serial.set_environment(&obstacles, parameters, 0.01);
  const ContactMeasure measure = serial.measure(U);

  // The one-thread loop the measure reproduces, its trees' searches done by brute force: each
  // sample against the ground, then against each other box, that box's nearest triangle counted
  // where it beats the closest distance so far (or dhat, if larger); every pair within dhat
  // active.
  const SurfacePositions& P = serial.positions_at(U);
  const auto parts = static_cast<std::size_t>(offsets.size());
  ContactMeasure expected;
  expected.min_distance = std::numeric_limits<double>::infinity();
  expected.part_closest.assign(parts, std::numeric_limits<double>::infinity());
  std::vector<double> true_closest(parts, std::numeric_limits<double>::infinity());
  for (Eigen::Index k = 0; k < surface.samples.size(); ++k) {
    const int v = surface.samples(k);
    const auto p = static_cast<std::size_t>(surface.part(v));
    const Eigen::Vector3d x = P.row(v).transpose();
    bool sample_active = false;
    const auto count = [&](double d, std::size_t q) {
      expected.min_distance = std::min(expected.min_distance, d);
      expected.part_closest[p] = std::min(expected.part_closest[p], d);
      expected.part_closest[q] = std::min(expected.part_closest[q], d);
    };
    const double to_ground = obstacle_distance(ground, x).distance;
    count(to_ground, p);
    true_closest[p] = std::min(true_closest[p], to_ground);
    if (to_ground < dhat) {
      ++expected.active;
      sample_active = true;
    }
    for (std::size_t q = 0; q < parts; ++q) {
      if (q == p) continue;
      double nearest = std::numeric_limits<double>::infinity();
      for (Eigen::Index t = 0; t < surface.triangles.rows(); ++t) {
        if (static_cast<std::size_t>(surface.part(surface.triangles(t, 0))) != q) continue;
        const Eigen::Vector3d y = geometry::closest_point_on_triangle(
            x, P.row(surface.triangles(t, 0)).transpose(),
            P.row(surface.triangles(t, 1)).transpose(), P.row(surface.triangles(t, 2)).transpose());
        const double d = (x - y).norm();
        nearest = std::min(nearest, d);
        if (d < dhat) {
          ++expected.active;
          sample_active = true;
        }
      }
      true_closest[p] = std::min(true_closest[p], nearest);
      true_closest[q] = std::min(true_closest[q], nearest);
      if (nearest < std::max(expected.min_distance, dhat)) count(nearest, q);
    }
    if (sample_active) expected.active_points.push_back(x);
  }
  // The scene is what the comment says: the ground closest, the fourth box beyond dhat, and its
  // closest (the second box) not what the measure reports (the bound kept it out).
  ASSERT_LT(expected.min_distance, 2.5e-3);
  ASSERT_GT(true_closest[3], dhat);
  ASSERT_LT(true_closest[3], expected.part_closest[3]);

  EXPECT_EQ(measure.min_distance, expected.min_distance);
  EXPECT_EQ(measure.active, expected.active);
  EXPECT_EQ(measure.active_points, expected.active_points);
  EXPECT_EQ(measure.part_closest, expected.part_closest);
  for (std::size_t p = 0; p < parts; ++p) {
    if (true_closest[p] < dhat) {
      EXPECT_EQ(measure.part_closest[p], true_closest[p]) << p;
    }
  }

  // On a pool: the same bits.
  parallel::ThreadPool pool(2);
  if (parallel::ThreadPool::max_thread_count() >= 2) {
    ASSERT_EQ(pool.thread_count(), 2);
  }
  ContactPotential shared(surface, offsets);
  shared.set_pool(&pool);
  shared.set_environment(&obstacles, parameters, 0.01);
  const ContactMeasure on_pool = shared.measure(U);
  EXPECT_EQ(on_pool.min_distance, measure.min_distance);
  EXPECT_EQ(on_pool.active, measure.active);
  EXPECT_EQ(on_pool.active_points, measure.active_points);
  EXPECT_EQ(on_pool.part_closest, measure.part_closest);
  EXPECT_EQ(on_pool.barrier_energy, measure.barrier_energy);

  // The barrier's energy: the potential's own (its gather of candidates at U), with stiffness
  // per body so that a pair between two bodies takes the stiffer one's.
  EXPECT_GT(measure.barrier_energy, 0.0);
  EXPECT_NEAR(measure.barrier_energy, serial.potential_energy(U), 1e-12 * measure.barrier_energy);
  serial.set_part_stiffness({1e3, 4e3, 2e3, 1e3});
  const double per_body = serial.measure(U).barrier_energy;
  EXPECT_NEAR(per_body, serial.potential_energy(U), 1e-12 * per_body);
  EXPECT_GT(per_body, 1.5 * measure.barrier_energy);
}

}  // namespace
}  // namespace smfem::contact
