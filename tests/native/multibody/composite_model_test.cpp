// The model of several bodies (multibody/composite_model.hpp): each body's cubature basis is
// stored over its own modes only, and a tet of the combined model deforms exactly as the same
// tet of its body's own model under that body's block of the coordinates; its contact surface
// holds each vertex's own body's weights only, and moves each vertex as its body's own does.
#include "smfem/multibody/composite_model.hpp"

#include <stdexcept>

#include <gtest/gtest.h>

#include "sim/test_model.hpp"
#include "smfem/asset/asset_writer.hpp"
#include "smfem/sim/contact/contact_surface.hpp"
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

TEST(CompositeModel, EachSurfaceVertexHasItsOwnBodysWeightsAndNoOthers) {
  const std::vector<sim::ReducedModel> parts = {
      sim::test::small_box_model(1), sim::test::small_box_model(4), sim::test::small_box_model(2)};
  const CompositeModel composite = combine_models(
      parts, {Eigen::Vector3d::Zero(), Eigen::Vector3d(2, 0, 0), Eigen::Vector3d(4, 0, 0)});
  const contact::ContactSurface& surface = composite.model.contact;
  ASSERT_GT(surface.positions.rows(), 0);
  EXPECT_EQ(surface.weights.cols(), 4) << "the widest body's modes, not all bodies'";
  EXPECT_EQ(surface.modes(), composite.model.mode_count());
  Eigen::Index v = 0;
  for (std::size_t b = 0; b < parts.size(); ++b) {
    const contact::ContactSurface& own = parts[b].contact;
    const int first = composite.first_mode[b];
    for (Eigen::Index w = 0; w < own.positions.rows(); ++w, ++v) {
      for (int mode = 0; mode < surface.modes(); ++mode) {
        const bool its_own = mode >= first && mode < first + composite.mode_count[b];
        EXPECT_EQ(surface.weight(v, mode), its_own ? own.weights(w, mode - first) : 0.0)
            << "body " << b << ", vertex " << w << ", mode " << mode;
      }
    }
  }
  // The basis rows over the whole model: the body's own rows, zero elsewhere.
  const contact::SurfaceBasis whole = contact::surface_basis(surface);
  const contact::SurfaceBasis second = contact::surface_basis(parts[1].contact);
  const Eigen::Index at = parts[0].contact.positions.rows();
  const int first = 4 * composite.first_mode[1];
  EXPECT_EQ(whole.row(at).segment(first, second.cols()), second.row(0));
  EXPECT_EQ(whole.row(at).head(first).norm(), 0.0);
  // Not an asset's surface: the writer refuses it rather than write weights no reader places.
  asset::AssetWriter writer;
  EXPECT_THROW(contact::add_contact_surface(writer, surface), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::multibody
