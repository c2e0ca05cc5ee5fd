// The model of several bodies (multibody/composite_model.hpp): each body's cubature basis is
// stored over its own modes only, and a tet of the combined model deforms exactly as the same
// tet of its body's own model under that body's block of the coordinates.
#include "smfem/multibody/composite_model.hpp"

#include <gtest/gtest.h>

#include "sim/test_model.hpp"
#include "smfem/sim/step/cubature_deformation.hpp"

namespace smfem::multibody {
namespace {

TEST(CompositeModel, EachTetDeformsAsInItsOwnBodysModel) {
  const std::vector<sim::ReducedModel> parts = {
      sim::test::small_box_model(1), sim::test::small_box_model(4), sim::test::small_box_model(2)};
  const CompositeModel composite = combine_models(
      parts, {Eigen::Vector3d::Zero(), Eigen::Vector3d(2, 0, 0), Eigen::Vector3d(4, 0, 0)});
  const sim::ReducedModel& model = composite.model;
  EXPECT_FALSE(sim::check_reduced_model(model).has_value());
  EXPECT_EQ(model.cubature_Y.cols(), 4 * 4) << "the widest body's columns, not all bodies'";
  const sim::ReducedMatrix U = sim::test::random_reduced(model.mode_count(), 0.1, 7);
  const sim::CubatureDeformation whole(model);
  for (std::size_t b = 0; b < parts.size(); ++b) {
    const sim::ReducedModel::Body& body = model.bodies[b];
    const sim::CubatureDeformation own(parts[b]);
    const sim::ReducedMatrix own_U = U.middleRows(4 * body.first_mode, 4 * body.modes);
    for (int t = 0; t < body.tets; ++t) {
      const Eigen::Matrix3d expected = own.displacement_gradient(t, own_U);
      EXPECT_EQ(whole.displacement_gradient(body.first_tet + t, U), expected)
          << "body " << b << ", tet " << t;
    }
  }
}

}  // namespace
}  // namespace smfem::multibody
