#include "smfem/bake/asset_sections.hpp"

#include <algorithm>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "bake/bake_files.hpp"
#include "smfem/asset/asset.hpp"
#include "smfem/asset/render_surface.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/model/reduced_model_writer.hpp"
#include "subspace/box_mesh.hpp"
#include "support/test_paths.hpp"

namespace smfem::bake {
namespace {

using asset::DType;
using asset::kAnyExtent;

struct Baked {
  BakeInput input;
  BakeResult result;
  BakeSettings settings;
};

Baked bake_box(const std::filesystem::path& dir) {
  Baked baked;
  baked.settings.modes = 3;
  baked.settings.cubature = 12;
  baked.input =
      load_bake_input(test::write_medit(dir / "box.mesh",
                                        test::warped(test::box_mesh({3, 2, 2}, {1.5, 1, 1}), 0.02)),
                      baked.settings);
  baked.result = run_bake(baked.input, baked.settings);
  return baked;
}

TEST(BakeAsset, WritesTheStepperSectionsWithTheirShapesAndRoundTrips) {
  const auto dir = test::scratch_dir("asset");
  const Baked baked = bake_box(dir);
  bake_asset(baked.input, baked.result, baked.settings).write_file(dir / "box.smfem");
  const asset::Asset a = asset::Asset::from_file(dir / "box.smfem");
  const std::int64_t m = 3, n = 12, C = 12;
  const std::int64_t T = baked.input.mesh.tets.rows();
  a.expect("subspace.eigenvalues", DType::f64, {m});
  a.expect("subspace.mass_block", DType::f64, {n, n});
  a.expect("subspace.mass_vector", DType::f64, {n});
  a.expect("subspace.first_moment", DType::f64, {3, n});
  a.expect("subspace.total_mass", DType::f64, {1});
  a.expect("subspace.rest_centroid", DType::f64, {3});
  a.expect("subspace.pinned", DType::u32, {0});
  a.expect("cubature.y", DType::f64, {C, n, 3});
  a.expect("cubature.weights", DType::f64, {C});
  a.expect("cubature.youngs", DType::f64, {C});
  a.expect("cubature.poisson", DType::f64, {C});
  a.expect("cubature.region", DType::u32, {C});
  a.expect("cubature.tets", DType::u32, {C});
  a.expect("cubature.cluster_of_tet", DType::u32, {T});

  const std::vector<double> eigenvalues = a.array<double>("subspace.eigenvalues");
  for (std::int64_t i = 0; i < m; ++i) EXPECT_EQ(eigenvalues[i], baked.result.modes.eigenvalues(i));
  const std::vector<double> Y = a.array<double>("cubature.y");
  ASSERT_EQ(Y.size(), static_cast<std::size_t>(C * n * 3));
  for (std::int64_t i = 0; i < C * n * 3; ++i) ASSERT_EQ(Y[i], baked.result.Y.data()[i]);
  const std::vector<double> first_moment = a.array<double>("subspace.first_moment");
  EXPECT_EQ(first_moment[n + 5], baked.result.first_moment(1, 5));  // row-major

  const asset::RenderSurface render = asset::read_render_surface(a);
  EXPECT_EQ(render.mode_count, 3u);
  EXPECT_EQ(render.vertex_count,
            static_cast<std::size_t>(baked.input.render_surface.vertices.rows()));

  // The display aids: every render vertex in a cluster, and each representative tet's centroid
  // and weights (the mean over its vertices).
  ASSERT_EQ(render.clusters.size(), render.vertex_count);
  for (const std::uint32_t cluster : render.clusters)
    EXPECT_LT(cluster, static_cast<std::uint32_t>(C));
  ASSERT_EQ(render.regions.size(), render.vertex_count);
  const std::set<int> mesh_regions(baked.input.mesh.regions.begin(),
                                   baked.input.mesh.regions.end());
  for (const std::uint32_t region : render.regions)
    EXPECT_TRUE(mesh_regions.contains(static_cast<int>(region))) << region;
  a.expect("cubature.centroids", DType::f32, {C, 3});
  a.expect("cubature.centroid_weights", DType::f32, {C, m});
  const std::vector<float> centroids = a.array<float>("cubature.centroids");
  const std::vector<float> centroid_weights = a.array<float>("cubature.centroid_weights");
  for (std::int64_t c = 0; c < C; ++c) {
    const int tet = baked.result.cubature.tets(c);
    Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
    Eigen::VectorXd weights = Eigen::VectorXd::Zero(m);
    for (int k = 0; k < 4; ++k) {
      const int v = baked.input.mesh.tets(tet, k);
      centroid += 0.25 * baked.input.mesh.vertices.row(v).transpose();
      weights += 0.25 * baked.result.modes.weights.row(v).transpose();
    }
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(centroids[3 * c + d], centroid(d), 1e-6);
    for (int i = 0; i < m; ++i) EXPECT_NEAR(centroid_weights[m * c + i], weights(i), 1e-6);
  }

  const nlohmann::json& meta = a.meta();
  EXPECT_EQ(meta["kind"], "scene");
  EXPECT_EQ(meta["solver"]["material_model"], "fixed_corotational");
  EXPECT_EQ(meta["materials"][0]["region"], 0);
  EXPECT_EQ(meta["subspace"]["cubature"], 12);
}

TEST(BakeAsset, TheStoredYGivesTheDeformationGradientOfAnAffineMapThroughTheConstantMode) {
  // u with A_0 = [G t] / w_0 moves every vertex by G X + t (the constant mode has weight w_0
  // everywhere), so F_c = I + G at every cubature tet: F_c row d = e_d^T + u_d^T Y_c.
  const auto dir = test::scratch_dir("affine");
  const Baked baked = bake_box(dir);
  bake_asset(baked.input, baked.result, baked.settings).write_file(dir / "box.smfem");
  const asset::Asset a = asset::Asset::from_file(dir / "box.smfem");
  const std::vector<double> Y = a.array<double>("cubature.y");
  const double w0 = baked.result.modes.weights(0, 0);
  Eigen::Matrix<double, 3, 4> G;
  G << 0.1, -0.2, 0.05, 1.0, 0.3, 0.02, -0.1, 2.0, -0.05, 0.15, 0.2, -1.0;
  const int n = 12;
  for (int c = 0; c < 12; ++c) {
    Eigen::Matrix3d F = Eigen::Matrix3d::Identity();
    for (int d = 0; d < 3; ++d) {
      for (int k = 0; k < 4; ++k) {  // u_d[4 * 0 + k] = (A_0)_dk, all other entries 0
        for (int j = 0; j < 3; ++j) F(d, j) += G(d, k) / w0 * Y[(c * n + k) * 3 + j];
      }
    }
    EXPECT_LT((F - Eigen::Matrix3d::Identity() - G.leftCols<3>()).cwiseAbs().maxCoeff(), 1e-10);
  }
}

TEST(BakeAsset, SameInputAndSeedGiveTheSameBytes) {
  const Baked first = bake_box(test::scratch_dir("first"));
  const Baked second = bake_box(test::scratch_dir("second"));
  BakeSettings threads = first.settings;
  threads.threads = 1;
  const BakeResult single = run_bake(first.input, threads);
  const auto bytes = bake_asset(first.input, first.result, first.settings).to_bytes();
  EXPECT_EQ(bytes, bake_asset(second.input, second.result, second.settings).to_bytes());
  EXPECT_EQ(bytes, bake_asset(first.input, single, first.settings).to_bytes());
}

// The box with a periodic acceleration on the whole body and a pull on its x >= 1 end, released
// at 0.5 s (meta "forces" as a recipe's scene metadata has them).
Baked bake_box_with_forces(const std::filesystem::path& dir) {
  Baked baked;
  baked.settings.modes = 3;
  baked.settings.cubature = 12;
  baked.input =
      load_bake_input(test::write_medit(dir / "box.mesh",
                                        test::warped(test::box_mesh({3, 2, 2}, {1.5, 1, 1}), 0.02)),
                      baked.settings);
  scene::SceneForce shake{scene::PeriodicForce{2.0, 1.5, Eigen::Vector3d(0.0, 0.0, 1.0)}, {}};
  scene::SceneForce pull{scene::PullForce{Eigen::Vector3d(0.1, 0.0, 0.0), 50.0, 0.5}, {}};
  for (int v = 0; v < baked.input.mesh.vertices.rows(); ++v) {
    shake.vertices.push_back(v);
    if (baked.input.mesh.vertices(v, 0) >= 1.0) pull.vertices.push_back(v);
  }
  baked.input.forces = {shake, pull};
  baked.input.scene["forces"] = {
      {{"kind", "periodic"}, {"amplitude", 2.0}, {"frequency", 1.5}, {"direction", {0, 0, 1}}},
      {{"kind", "pull"}, {"offset", {0.1, 0, 0}}, {"stiffness", 50.0}, {"release", 0.5}}};
  baked.result = run_bake(baked.input, baked.settings);
  return baked;
}

TEST(BakeAsset, TheBakedModelRoundTripsThroughTheStepperReader) {
  const Baked baked = bake_box_with_forces(test::scratch_dir("round-trip"));
  const sim::ReducedModel model = baked_model(baked.input, baked.result, baked.settings);
  const asset::Asset a = asset::Asset::from_bytes(
      bake_asset(baked.input, baked.result, baked.settings).to_bytes(), "box.smfem");
  const sim::ReducedModel loaded = sim::load_reduced_model(a);

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
  // Stored as f32.
  EXPECT_TRUE(loaded.render_positions == model.render_positions.cast<float>().cast<double>());
  EXPECT_TRUE(loaded.render_weights == model.render_weights);
  ASSERT_FALSE(model.contact.empty());
  EXPECT_TRUE(loaded.contact.positions == model.contact.positions);
  EXPECT_TRUE(loaded.contact.weights == model.contact.weights.cast<float>().cast<double>());
  EXPECT_TRUE(loaded.contact.triangles == model.contact.triangles);
  EXPECT_TRUE(loaded.contact.samples == model.contact.samples);
  EXPECT_TRUE(loaded.contact.areas == model.contact.areas);

  ASSERT_EQ(loaded.loads.size(), 2u);
  ASSERT_EQ(model.loads.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(loaded.loads[i].kind, model.loads[i].kind) << i;
    EXPECT_TRUE(loaded.loads[i].mass_vector == model.loads[i].mass_vector) << i;
    EXPECT_TRUE(loaded.loads[i].mass_block == model.loads[i].mass_block) << i;
    EXPECT_TRUE(loaded.loads[i].rest_offset == model.loads[i].rest_offset) << i;
    EXPECT_EQ(loaded.loads[i].amplitude, model.loads[i].amplitude) << i;
    EXPECT_EQ(loaded.loads[i].frequency, model.loads[i].frequency) << i;
    EXPECT_TRUE(loaded.loads[i].direction == model.loads[i].direction) << i;
    EXPECT_EQ(loaded.loads[i].stiffness, model.loads[i].stiffness) << i;
    EXPECT_EQ(loaded.loads[i].release, model.loads[i].release) << i;
  }
  EXPECT_EQ(model.loads[0].kind, sim::SceneLoad::Kind::periodic);
  EXPECT_EQ(model.loads[1].kind, sim::SceneLoad::Kind::springs);
  EXPECT_GT(model.loads[1].mass_block.norm(), 0.0);
  ASSERT_EQ(loaded.materials.size(), model.materials.size());
  EXPECT_EQ(loaded.materials[0].youngs, model.materials[0].youngs);
  EXPECT_EQ(loaded.defaults.material_model, model.defaults.material_model);
  EXPECT_EQ(loaded.defaults.timestep, model.defaults.timestep);

  // Writing what was read gives the stepper's sections of the baked asset byte for byte, and
  // the bake adds nothing else the stepper reads.
  asset::AssetWriter writer;
  writer.set_meta({{"format", "smfem-asset"}, {"kind", "scene"}, {"generator", "test"}});
  sim::add_reduced_model(writer, loaded);
  const asset::Asset again = asset::Asset::from_bytes(writer.to_bytes(), "again.smfem");
  std::set<std::string> stepper;
  for (const asset::SectionInfo& section : again.sections()) {
    if (section.name == "meta") continue;
    stepper.insert(section.name);
    ASSERT_TRUE(a.has(section.name)) << section.name;
    EXPECT_EQ(a.section(section.name).shape, section.shape) << section.name;
    const auto baked_bytes = a.bytes(section.name), written = again.bytes(section.name);
    EXPECT_TRUE(std::equal(baked_bytes.begin(), baked_bytes.end(), written.begin(), written.end()))
        << section.name;
  }
  const std::set<std::string> bake_only = {"subspace.pinned",    "cubature.cluster_of_tet",
                                           "cubature.centroids", "cubature.centroid_weights",
                                           "render.triangles",   "render.normals",
                                           "render.clusters",    "render.regions"};
  for (const asset::SectionInfo& section : a.sections()) {
    if (section.name == "meta") continue;
    EXPECT_TRUE(stepper.contains(section.name) != bake_only.contains(section.name)) << section.name;
  }
  EXPECT_TRUE(stepper.contains("force.1.rest_offset"));
  EXPECT_TRUE(stepper.contains("contact.samples"));
  EXPECT_TRUE(stepper.contains("render.weights"));
}

}  // namespace
}  // namespace smfem::bake
