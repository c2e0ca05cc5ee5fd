#include "smfem/bake/asset_sections.hpp"

#include <set>

#include <gtest/gtest.h>

#include "bake/bake_files.hpp"
#include "smfem/asset/asset.hpp"
#include "smfem/asset/render_surface.hpp"
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

}  // namespace
}  // namespace smfem::bake
