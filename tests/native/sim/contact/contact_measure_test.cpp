// ContactPotential::measure (contact_measure.cpp) against every pair counted by brute force, on
// one thread and on pools of two and three.
#include <algorithm>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "smfem/geometry/point_triangle.hpp"
#include "smfem/multibody/composite_model.hpp"
#include "smfem/sim/contact/contact_potential.hpp"
#include "sim/test_model.hpp"

namespace smfem::contact {
namespace {

// Four boxes (x in [0.2, 1.2], y in [-0.2, 0.2], z in [0.1, 0.5] before their offsets) on a
// ground: the first 4 mm above the ground, the second 3 mm above it, the third 4 mm beside it
// (within dhat of both and of the ground), the fourth 10 cm behind and above the first (beyond
// dhat of everything).
TEST(ContactMeasure, CountsEveryPairOnAnyThreadCount) {
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
  ground.point = {0, -0.204, 0};
  const std::vector<Obstacle> obstacles = {ground};
  ContactParameters parameters;
  parameters.activation = 0.01;
  const double dhat = parameters.activation;
  const ReducedMatrix U = sim::test::random_reduced(composite.model.mode_count(), 1e-4, 7);

  ContactPotential serial(surface, offsets);
  serial.set_environment(&obstacles, parameters, 0.01);
  const ContactMeasure measure = serial.measure(U);

  // Brute force: every sample against the ground and every triangle of the other boxes.
  const SurfacePositions& P = serial.positions_at(U);
  const auto parts = static_cast<std::size_t>(offsets.size());
  double closest = std::numeric_limits<double>::infinity();
  std::vector<double> part_closest(parts, std::numeric_limits<double>::infinity());
  int active = 0;
  std::vector<Eigen::Vector3d> active_points;
  for (Eigen::Index k = 0; k < surface.samples.size(); ++k) {
    const int v = surface.samples(k);
    const auto p = static_cast<std::size_t>(surface.part(v));
    const Eigen::Vector3d x = P.row(v).transpose();
    bool sample_active = false;
    const auto count = [&](double d, std::size_t q) {
      closest = std::min(closest, d);
      part_closest[p] = std::min(part_closest[p], d);
      part_closest[q] = std::min(part_closest[q], d);
      if (d < dhat) {
        ++active;
        sample_active = true;
      }
    };
    count(obstacle_distance(ground, x).distance, p);
    for (Eigen::Index t = 0; t < surface.triangles.rows(); ++t) {
      const auto q = static_cast<std::size_t>(surface.part(surface.triangles(t, 0)));
      if (q == p) continue;
      const Eigen::Vector3d y = geometry::closest_point_on_triangle(
          x, P.row(surface.triangles(t, 0)).transpose(), P.row(surface.triangles(t, 1)).transpose(),
          P.row(surface.triangles(t, 2)).transpose());
      count((x - y).norm(), q);
    }
    if (sample_active) active_points.push_back(x);
  }
  ASSERT_LT(closest, dhat);
  ASSERT_GT(part_closest[3], dhat);  // the far box: its closest is the ground, beyond dhat
  EXPECT_EQ(measure.min_distance, closest);
  EXPECT_EQ(measure.active, active);
  EXPECT_EQ(measure.active_points, active_points);
  ASSERT_EQ(measure.part_closest.size(), parts);
  for (std::size_t p = 0; p < parts; ++p) {
    // Exact below dhat, at least the true closest (and at least dhat) beyond it.
    if (part_closest[p] < dhat) {
      EXPECT_EQ(measure.part_closest[p], part_closest[p]) << "box " << p;
    } else {
      EXPECT_GE(measure.part_closest[p], std::max(part_closest[p], dhat)) << "box " << p;
    }
  }

  // On pools: the same bits.
  for (const int threads : {2, 3}) {
    parallel::ThreadPool pool(threads);
    ContactPotential shared(surface, offsets);
    shared.set_pool(&pool);
    shared.set_environment(&obstacles, parameters, 0.01);
    const ContactMeasure on_pool = shared.measure(U);
    EXPECT_EQ(on_pool.min_distance, measure.min_distance) << threads;
    EXPECT_EQ(on_pool.active, measure.active) << threads;
    EXPECT_EQ(on_pool.active_points, measure.active_points) << threads;
    EXPECT_EQ(on_pool.part_closest, measure.part_closest) << threads;
  }
}

}  // namespace
}  // namespace smfem::contact
