#include "smfem/sim/model/reduced_model.hpp"

#include <gtest/gtest.h>

#include "sim/test_model.hpp"
#include "smfem/asset/asset.hpp"
#include "smfem/asset/asset_error.hpp"
#include "smfem/multibody/composite_model.hpp"
#include "smfem/sim/model/reduced_model_writer.hpp"

namespace smfem::sim {
namespace {

asset::Asset as_asset(const std::vector<std::uint8_t>& bytes) {
  return asset::Asset::from_bytes(bytes, "model.smfem");
}

TEST(ReducedModel, TheBoxModelIsConsistent) {
  const BoxModel test_model = make_box_model();
  EXPECT_FALSE(check_reduced_model(test_model.model).has_value());
  // Definitions of reduced_model.hpp, checked against the vertices: the centroid and total
  // mass, and x_v = X_v + U^T b_v reproducing the render vertex basis.
  const ReducedModel& model = test_model.model;
  EXPECT_NEAR(model.total_mass, 1000.0 * 1.0 * 0.4 * 0.4, 1e-9);
  EXPECT_NEAR(model.rest_centroid.x(), 0.7, 1e-12);
  const Eigen::VectorXd b = render_vertex_basis(model, 7);
  EXPECT_LT((b - test_model.basis.row(7).transpose()).norm(), 1e-6 * b.norm());
}

// A model of several bodies (an island's, multibody/composite_model.hpp) has its mass checked
// body by body where nothing couples the bodies, whole where something does: a body whose block
// is not positive definite is refused, and so is a coupling that makes M indefinite though each
// body's block is positive definite; a mild coupling is not refused.
TEST(ReducedModel, AModelOfSeveralBodiesIsRefusedWhereItsMassIsNotPositiveDefinite) {
  const auto two_bodies = [] {
    return multibody::combine_models(
               {make_box_model({.mode_count = 2}).model, make_box_model({.mode_count = 3}).model},
               {Eigen::Vector3d::Zero(), Eigen::Vector3d(2.0, 0.0, 0.0)})
        .model;
  };
  EXPECT_FALSE(check_reduced_model(two_bodies()).has_value());
  const Eigen::Index second = 4 * two_bodies().bodies[1].first_mode;
  const auto section_of = [](const ReducedModel& model) {
    const std::optional<ModelProblem> problem = check_reduced_model(model);
    return problem ? problem->section : std::string("none");
  };
  ReducedModel massless = two_bodies();
  massless.mass_block(second + 1, second + 1) = -1.0;
  EXPECT_EQ(section_of(massless), "subspace.mass_block");
  const auto coupled = [&](double fraction) {
    ReducedModel model = two_bodies();
    const double c =
        fraction * std::sqrt(model.mass_block(0, 0) * model.mass_block(second, second));
    model.mass_block(0, second) = c;
    model.mass_block(second, 0) = c;
    return model;
  };
  EXPECT_EQ(section_of(coupled(2.0)), "subspace.mass_block");
  EXPECT_EQ(section_of(coupled(1e-3)), "none");
}

TEST(ReducedModel, RoundTripsThroughAnAsset) {
  const BoxModel test_model = make_box_model({.mode_count = 5});
  const ReducedModel& model = test_model.model;
  const nlohmann::json meta = {
      {"solver",
       {{"method", "fem"},
        {"iterations", 3},
        {"timestep", 0.01},
        {"gravity", {0.0, 0.0, -9.8}},
        {"material_model", "stable_neo_hookean"}}},
      {"materials",
       {{{"name", "soft"}, {"region", 0}, {"youngs", 1e5}, {"poisson", 0.3}, {"density", 1000}},
        {{"name", "hard"}, {"region", 1}, {"youngs", 1e9}, {"poisson", 0.4}, {"density", 2000}}}}};
  const ReducedModel loaded = load_reduced_model(as_asset(reduced_model_asset_bytes(model, meta)));
  EXPECT_EQ(loaded.mode_count(), 5);
  EXPECT_EQ(loaded.cubature_count(), model.cubature_count());
  EXPECT_EQ(loaded.source, "model.smfem");
  EXPECT_TRUE(loaded.eigenvalues == model.eigenvalues);
  EXPECT_TRUE(loaded.mass_block == model.mass_block);
  EXPECT_TRUE(loaded.mass_vector == model.mass_vector);
  EXPECT_TRUE(loaded.first_moment == model.first_moment);
  EXPECT_EQ(loaded.total_mass, model.total_mass);
  EXPECT_TRUE(loaded.rest_centroid == model.rest_centroid);
  EXPECT_TRUE(loaded.cubature_Y == model.cubature_Y);
  EXPECT_TRUE(loaded.cubature_weights == model.cubature_weights);
  EXPECT_TRUE(loaded.cubature_youngs == model.cubature_youngs);
  EXPECT_TRUE(loaded.cubature_poisson == model.cubature_poisson);
  EXPECT_EQ(loaded.cubature_region, model.cubature_region);
  EXPECT_EQ(loaded.cubature_tets, model.cubature_tets);
  EXPECT_TRUE(loaded.render_positions == model.render_positions);
  EXPECT_TRUE(loaded.render_weights == model.render_weights);

  EXPECT_EQ(loaded.defaults.method, SolverMethod::fem);
  EXPECT_EQ(loaded.defaults.iterations, 3);
  EXPECT_EQ(loaded.defaults.timestep, 0.01);
  EXPECT_EQ(loaded.defaults.gravity, Eigen::Vector3d(0.0, 0.0, -9.8));
  EXPECT_EQ(loaded.defaults.material_model, MaterialModel::stable_neo_hookean);
  ASSERT_EQ(loaded.materials.size(), 2u);
  EXPECT_EQ(loaded.materials[1].name, "hard");
  EXPECT_EQ(loaded.materials[1].region, 1u);
  EXPECT_EQ(loaded.materials[1].youngs, 1e9);
}

TEST(ReducedModel, WithoutRenderWeightsOrMeta) {
  BoxModel test_model = make_box_model();
  test_model.model.render_positions.resize(0, 3);
  test_model.model.render_weights.resize(0, 0);
  const ReducedModel loaded =
      load_reduced_model(as_asset(reduced_model_asset_bytes(test_model.model)));
  EXPECT_EQ(loaded.render_weights.rows(), 0);
  EXPECT_EQ(loaded.defaults.method, SolverSettings{}.method);
  EXPECT_TRUE(loaded.materials.empty());
  EXPECT_THROW(render_vertex_basis(loaded, 0), std::out_of_range);
}

// The AssetError for a model broken by `breakage`, or a failure if none is thrown.
template <class Breakage>
asset::AssetError load_error(Breakage breakage, const nlohmann::json& meta = {}) {
  BoxModel test_model = make_box_model();
  breakage(test_model.model);
  try {
    load_reduced_model(as_asset(reduced_model_asset_bytes(test_model.model, meta)));
  } catch (const asset::AssetError& error) {
    return error;
  }
  ADD_FAILURE() << "no AssetError";
  return asset::AssetError("", "", "");
}

TEST(ReducedModel, RefusesInconsistentModelsNamingTheSection) {
  const auto no_change = [](ReducedModel&) {};
  {
    const auto error = load_error([](ReducedModel& model) { model.mass_block(0, 0) = -1.0; });
    EXPECT_EQ(error.section(), "subspace.mass_block");
    EXPECT_NE(std::string(error.what()).find("model.smfem"), std::string::npos);
  }
  {
    const auto error = load_error([](ReducedModel& model) { model.mass_block(0, 1) += 1.0; });
    EXPECT_EQ(error.section(), "subspace.mass_block");
    EXPECT_NE(error.problem().find("symmetric"), std::string::npos);
  }
  EXPECT_EQ(load_error([](ReducedModel& model) { model.cubature_weights(3) = 0.0; }).section(),
            "cubature.weights");
  EXPECT_EQ(load_error([](ReducedModel& model) { model.cubature_youngs(0) = -5.0; }).section(),
            "cubature.youngs");
  EXPECT_EQ(load_error([](ReducedModel& model) { model.cubature_poisson(0) = 0.5; }).section(),
            "cubature.poisson");
  EXPECT_EQ(load_error([](ReducedModel& model) { model.total_mass = 0.0; }).section(),
            "subspace.total_mass");
  EXPECT_EQ(load_error(no_change, {{"solver", {{"method", "euler"}}}}).section(), "meta");
  EXPECT_EQ(load_error(no_change, {{"solver", {{"iterations", 2.5}}}}).section(), "meta");
  EXPECT_EQ(load_error(no_change, {{"solver", {{"gravity", {1, 2}}}}}).section(), "meta");
  EXPECT_EQ(load_error(no_change, {{"solver", {{"material_model", "rubber"}}}}).section(), "meta");
  EXPECT_EQ(load_error(no_change, {{"materials", {{{"name", "x"}}}}}).section(), "meta");
}

// Positions far beyond any scene (finite, so they passed) and ids that point past what the asset
// says it has: each refused naming its section, where the stepper would fail every step without
// saying why or carry the bad id on.
TEST(ReducedModel, RefusesPositionsBeyondTheBoundAndIdsPastWhatTheAssetHas) {
  const auto no_change = [](ReducedModel&) {};
  EXPECT_EQ(
      load_error([](ReducedModel& model) { model.contact.positions(3, 1) = 1e300; }).section(),
      "contact.positions");
  EXPECT_EQ(load_error([](ReducedModel& model) { model.render_positions(0, 0) = -2e6; }).section(),
            "render.positions");
  const nlohmann::json small_mesh = {{"mesh", {{"tets", 5}, {"vertices", 8}}}};
  const auto past_the_mesh = load_error(no_change, small_mesh);
  EXPECT_EQ(past_the_mesh.section(), "cubature.tets");
  EXPECT_NE(past_the_mesh.problem().find("not below the mesh's 5 tets"), std::string::npos);
  const auto unlisted = load_error(no_change, {{"materials", {{{"region", 7}}}}});
  EXPECT_EQ(unlisted.section(), "cubature.region");
  EXPECT_NE(unlisted.problem().find("(7)"), std::string::npos);

  // subspace.pinned against meta mesh.vertices: the bake's asset carries both.
  const BoxModel test_model = make_box_model();
  const auto with_pins = [&](std::vector<std::uint32_t> pinned) {
    asset::AssetWriter writer;
    writer.set_meta({{"format", "smfem-asset"},
                     {"kind", "scene"},
                     {"generator", "test"},
                     {"mesh", {{"tets", 1000000}, {"vertices", 40}}}});
    add_reduced_model(writer, test_model.model);
    writer.add("subspace.pinned", pinned, {pinned.size()});
    return as_asset(writer.to_bytes());
  };
  EXPECT_NO_THROW(load_reduced_model(with_pins({0, 39})));
  try {
    load_reduced_model(with_pins({0, 40}));
    ADD_FAILURE() << "no AssetError";
  } catch (const asset::AssetError& error) {
    EXPECT_EQ(error.section(), "subspace.pinned");
  }
}

TEST(ReducedModel, RefusesMissingAndMisshapenSections) {
  const BoxModel test_model = make_box_model();
  // A mass vector of the wrong length: the shape check names the section.
  ReducedModel model = test_model.model;
  model.mass_vector.conservativeResize(model.mass_vector.size() - 1);
  try {
    load_reduced_model(as_asset(reduced_model_asset_bytes(model)));
    ADD_FAILURE() << "no AssetError";
  } catch (const asset::AssetError& error) {
    EXPECT_EQ(error.section(), "subspace.mass_vector");
  }
}

TEST(ReducedModel, CheckNamesHandBuiltInconsistencies) {
  ReducedModel model = make_box_model().model;
  model.cubature_Y.conservativeResize(model.cubature_Y.rows() - 3, Eigen::NoChange);
  const auto problem = check_reduced_model(model);
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->section, "cubature.y");
}

}  // namespace
}  // namespace smfem::sim
