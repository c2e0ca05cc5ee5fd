// The full-space model: read from the mesh.* sections, and refused with the section and the
// problem named when the mesh or its materials are broken.
#include "smfem/full/full_model.hpp"

#include <gtest/gtest.h>

#include "full/full_box.hpp"
#include "smfem/asset/asset_error.hpp"
#include "smfem/asset/asset_writer.hpp"

namespace smfem::full {
namespace {

std::string refusal(const FullModel& model) {
  const auto problem = check_full_model(model);
  return problem ? problem->section + ": " + problem->problem : "";
}

TEST(FullModel, RoundTripsThroughTheMeshSections) {
  const FullModel box = test::full_box({}, 0.2);
  const FullModel read =
      load_full_model(asset::Asset::from_bytes(test::full_model_asset_bytes(box), "box.smfem"));
  EXPECT_EQ(read.positions, box.positions);
  EXPECT_EQ(read.tets, box.tets);
  EXPECT_EQ(read.youngs, box.youngs);
  EXPECT_EQ(read.poisson, box.poisson);
  EXPECT_EQ(read.density, box.density);
  EXPECT_EQ(read.pinned, box.pinned);
  EXPECT_FALSE(read.pinned.empty());
  EXPECT_EQ(read.defaults.timestep, 0.01);
  EXPECT_EQ(read.defaults.material_model, sim::MaterialModel::stable_neo_hookean);
  EXPECT_EQ(read.weights.size(), 0) << "mesh.weights is optional";
}

TEST(FullModel, ReadsTheSkinningWeightsOfTheVertices) {
  FullModel box = test::full_box({}, 0.2);
  box.weights = sim::RowMatrixXf::Random(box.vertex_count(), 3);
  const FullModel read =
      load_full_model(asset::Asset::from_bytes(test::full_model_asset_bytes(box), "box.smfem"));
  EXPECT_EQ(read.weights, box.weights);
}

TEST(FullModel, AnAssetWithoutTheMeshSaysHowToBakeOne) {
  asset::AssetWriter writer;
  writer.set_meta({{"format", "smfem-asset"}, {"kind", "scene"}, {"generator", "test"}});
  const double value = 1.0;
  writer.add("subspace.total_mass", std::span(&value, 1), {1});
  try {
    load_full_model(asset::Asset::from_bytes(writer.to_bytes(), "plain.smfem"));
    FAIL() << "accepted an asset without mesh.*";
  } catch (const asset::AssetError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("plain.smfem"), std::string::npos) << message;
    EXPECT_NE(message.find("mesh.positions"), std::string::npos) << message;
    EXPECT_NE(message.find("--full-mesh"), std::string::npos) << message;
  }
}

TEST(FullModel, BrokenMeshesAndMaterialsAreRefusedByName) {
  const FullModel box = test::full_box();
  ASSERT_EQ(refusal(box), "");

  FullModel bad = box;
  bad.tets(3, 2) = box.vertex_count();
  EXPECT_NE(refusal(bad).find("mesh.tets: tet 3 has vertex id"), std::string::npos) << refusal(bad);
  bad = box;
  bad.tets(5, 1) = bad.tets(5, 0);
  EXPECT_NE(refusal(bad).find("tet 5 repeats a vertex"), std::string::npos) << refusal(bad);
  bad = box;
  std::swap(bad.tets(7, 0), bad.tets(7, 1));
  EXPECT_NE(refusal(bad).find("tet 7 has no positive volume"), std::string::npos) << refusal(bad);
  bad = box;
  bad.positions(2, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(refusal(bad), "mesh.positions: not finite, or a coordinate beyond 1000000 m");
  bad = box;
  bad.positions(2, 1) = 1e300;
  EXPECT_EQ(refusal(bad), "mesh.positions: not finite, or a coordinate beyond 1000000 m");
  bad = box;
  bad.poisson(4) = 0.5;
  EXPECT_NE(refusal(bad).find("mesh.poisson: tet 4"), std::string::npos) << refusal(bad);
  bad = box;
  bad.density.resize(3);
  EXPECT_NE(refusal(bad).find("mesh.density: has 3 entries"), std::string::npos) << refusal(bad);
  bad = box;
  bad.weights = sim::RowMatrixXf::Ones(box.vertex_count() - 1, 2);
  EXPECT_NE(refusal(bad).find("mesh.weights: has"), std::string::npos) << refusal(bad);
  bad.weights = sim::RowMatrixXf::Ones(box.vertex_count(), 2);
  ASSERT_EQ(refusal(bad), "");
  bad.weights(4, 1) = std::numeric_limits<float>::infinity();
  EXPECT_EQ(refusal(bad), "mesh.weights: not finite");
  bad = box;
  for (int v = 0; v < bad.vertex_count(); ++v) bad.pinned.push_back(v);
  EXPECT_NE(refusal(bad).find("nothing can move"), std::string::npos) << refusal(bad);

  // The same problems met in a file are AssetErrors naming the file and the section.
  bad = box;
  bad.youngs(0) = -1.0;
  try {
    load_full_model(asset::Asset::from_bytes(test::full_model_asset_bytes(bad), "bad.smfem"));
    FAIL() << "accepted a negative Young's modulus";
  } catch (const asset::AssetError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("bad.smfem"), std::string::npos) << message;
    EXPECT_NE(message.find("mesh.youngs"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace smfem::full
