#include "smfem/bake/run_bake.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "bake/bake_files.hpp"
#include "smfem/bake/bake_input.hpp"
#include "smfem/subspace/elastic_laplacian.hpp"
#include "subspace/box_mesh.hpp"
#include "support/test_paths.hpp"

namespace smfem::bake {
namespace {

// A 2 x 1 x 1 box of 4 x 2 x 2 cells (96 tets), slightly warped so that no eigenvalue repeats,
// then scaled (the warp is not scale-equivariant, so scaling comes last).
mesh::TetMesh small_box(double scale = 1.0) {
  mesh::TetMesh box = test::warped(test::box_mesh({4, 2, 2}, {2.0, 1.0, 1.0}), 0.03);
  box.vertices *= scale;
  return box;
}

BakeInput box_input(const std::string& name, const mesh::TetMesh& mesh,
                    BakeSettings settings = {}) {
  const auto dir = test::scratch_dir(name);
  return load_bake_input(test::write_medit(dir / "box.mesh", mesh), settings);
}

TEST(RunBake, EigenpairsSolveTheGeneralizedProblemAndStartWithTheConstantMode) {
  BakeSettings settings;
  settings.modes = 6;
  const BakeInput input = box_input("box", small_box(), settings);
  const BakeResult result = run_bake(input, settings);
  const Eigen::SparseMatrix<double> H =
      subspace::elastic_laplacian(input.mesh, input.youngs, input.poisson);
  const Eigen::MatrixXd& W = result.modes.weights;
  const Eigen::VectorXd& gamma = result.modes.eigenvalues;
  ASSERT_EQ(W.cols(), 6);
  EXPECT_EQ(result.modes.constant_modes, 1);
  EXPECT_EQ(gamma(0), 0.0);
  EXPECT_LT((W.col(0).array() - W(0, 0)).abs().maxCoeff(), 1e-12 * std::abs(W(0, 0)));
  for (int i = 1; i < 6; ++i) {
    EXPECT_GT(gamma(i), gamma(i - 1));
    const Eigen::VectorXd residual =
        H * W.col(i) - gamma(i) * result.vertex_mass.cwiseProduct(W.col(i));
    EXPECT_LT(residual.norm(), 1e-7 * gamma(i) * result.vertex_mass.cwiseProduct(W.col(i)).norm());
  }
  const Eigen::MatrixXd gram = W.transpose() * result.vertex_mass.asDiagonal() * W;
  EXPECT_LT((gram - Eigen::MatrixXd::Identity(6, 6)).cwiseAbs().maxCoeff(), 1e-9);
}

TEST(RunBake, ReducedMassDataMatchTheirDefinitions) {
  BakeSettings settings;
  settings.modes = 4;
  settings.density = 800.0;
  const BakeInput input = box_input("box", small_box(), settings);
  const BakeResult result = run_bake(input, settings);
  // total mass = density x volume; the constant mode's mass vector entry is sqrt(total mass).
  EXPECT_NEAR(result.total_mass, 800.0 * result.tet_volumes.sum(), 1e-9 * result.total_mass);
  const Eigen::MatrixXd& Mu = result.mass_block;
  EXPECT_EQ(Mu, Mu.transpose());
  EXPECT_EQ(Eigen::LLT<Eigen::MatrixXd>(Mu).info(), Eigen::Success);
  // Row d of the first moment holds sum m_v X_v,d b_v: with b_v[3] = W_v0 (the constant mode's
  // translation slot) it is W_0 times the mass-weighted sum of X_v,d.
  const double w0 = result.modes.weights(0, 0);
  for (int d = 0; d < 3; ++d) {
    EXPECT_NEAR(result.first_moment(d, 3), w0 * result.total_mass * result.rest_centroid(d),
                1e-9 * std::abs(w0) * result.total_mass);
  }
  EXPECT_NEAR(result.mass_vector(3), w0 * result.total_mass,
              1e-9 * std::abs(w0) * result.total_mass);
}

TEST(RunBake, UniformScalingScalesEigenvaluesByTheInverseSquareAndKeepsTheWeightShapes) {
  // H scales as s, M as s^3: gamma scales as s^-2 and M-orthonormal weights as s^-3/2.
  BakeSettings settings;
  settings.modes = 5;
  const double s = 3.0;
  const BakeResult unit = run_bake(box_input("unit", small_box(1.0), settings), settings);
  const BakeResult scaled = run_bake(box_input("scaled", small_box(s), settings), settings);
  for (int i = 1; i < 5; ++i) {
    EXPECT_NEAR(scaled.modes.eigenvalues(i) * s * s, unit.modes.eigenvalues(i),
                1e-8 * unit.modes.eigenvalues(i));
  }
  const Eigen::MatrixXd rescaled = scaled.modes.weights * std::pow(s, 1.5);
  EXPECT_LT((rescaled - unit.modes.weights).cwiseAbs().maxCoeff(),
            1e-7 * unit.modes.weights.cwiseAbs().maxCoeff());
}

TEST(RunBake, PinnedVerticesGetZeroWeightsAndNoConstantMode) {
  const auto dir = test::scratch_dir("pins");
  const mesh::TetMesh box = small_box();
  std::string pins;
  for (Eigen::Index v = 0; v < box.vertices.rows(); ++v) {
    if (box.vertices(v, 0) < 0.1) pins += std::to_string(v) + "\n";
  }
  BakeSettings settings;
  settings.modes = 4;
  settings.pin_file = test::write_text(dir / "pins.txt", pins);
  const BakeInput input = load_bake_input(test::write_medit(dir / "box.mesh", box), settings);
  ASSERT_FALSE(input.pinned.empty());
  const BakeResult result = run_bake(input, settings);
  EXPECT_EQ(result.modes.constant_modes, 0);
  EXPECT_GT(result.modes.eigenvalues(0), 0.0);
  for (int v : input.pinned) EXPECT_EQ(result.modes.weights.row(v).cwiseAbs().maxCoeff(), 0.0);
}

TEST(RunBake, DisconnectedPartsEachGetAConstantModeOrAreRefusedWithTooFewModes) {
  const mesh::TetMesh two = test::merged(test::box_mesh({2, 2, 2}, {1, 1, 1}),
                                         test::box_mesh({2, 2, 2}, {1, 1, 1}, {3, 0, 0}));
  BakeSettings settings;
  settings.modes = 4;
  const BakeInput input = box_input("two", two, settings);
  const BakeResult result = run_bake(input, settings);
  EXPECT_EQ(result.components, 2);
  EXPECT_EQ(result.modes.constant_modes, 2);
  EXPECT_EQ(result.modes.eigenvalues(1), 0.0);

  settings.modes = 1;
  const BakeInput one_mode = box_input("one", two, settings);
  try {
    run_bake(one_mode, settings);
    FAIL() << "one mode for two unpinned parts was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("parts with no pinned vertex"), std::string::npos)
        << error.what();
  }
}

TEST(RunBake, RefusesMoreModesThanTheVerticesCarry) {
  // 2 x 1 x 1 cells: 12 vertices carry at most 3 modes by count (4 unknowns each), and on this
  // grid not even 3 (its mass matrix is singular); 4 would be short of vertices. Each refusal
  // suggests what a default bake takes (12 / 5: 2 modes), which bakes.
  const mesh::TetMesh bar = test::box_mesh({2, 1, 1}, {2.0, 1.0, 1.0});
  BakeSettings settings;
  settings.modes = 2;
  EXPECT_NO_THROW(run_bake(box_input("two", bar, settings), settings));
  const auto refusal = [&](int modes) {
    settings.modes = modes;
    try {
      run_bake(box_input("many", bar, settings), settings);
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal(4),
            "4 modes need at least 16 free vertices (4 per mode) and the mesh has 12: bake "
            "with --modes 2 or fewer, or a finer mesh");
  EXPECT_EQ(refusal(3),
            "the reduced mass matrix of 3 modes is singular: its 12 free vertices do not carry "
            "them (bake with --modes 2 or fewer, or a finer mesh)");
}

TEST(RunBake, CubatureWeightsSumToTheVolumeAndRepresentativesLieInTheirClusters) {
  BakeSettings settings;
  settings.modes = 4;
  settings.cubature = 20;
  const BakeInput input = box_input("box", small_box(), settings);
  const BakeResult result = run_bake(input, settings);
  ASSERT_EQ(result.cubature.tets.size(), 20);
  EXPECT_NEAR(result.cubature.weights.sum(), result.tet_volumes.sum(), 1e-12);
  for (int c = 0; c < 20; ++c) EXPECT_EQ(result.cubature.labels(result.cubature.tets(c)), c);
  EXPECT_EQ(result.Y.rows(), 20 * 16);
}

// A small region (one cell, 6 of 96 tets) at the free end of a box with two big ones: the
// default k-means cubature gives every region its minimum and integrates each region's volume
// with that region's tets; --cubature-per-region 0 is the paper's clustering of the whole body.
TEST(RunBake, KMeansCubatureSamplesEveryMaterialRegion) {
  mesh::TetMesh box = small_box();
  for (Eigen::Index t = 0; t < box.tets.rows(); ++t) {
    const Eigen::Vector3d c = test::tet_centroid(box, t);
    box.regions(t) = c.x() > 1.5 && c.y() < 0.5 && c.z() < 0.5 ? 5 : (c.x() < 1.0 ? 1 : 2);
  }
  BakeSettings settings;
  settings.modes = 4;
  settings.cubature = 12;
  const BakeInput input = box_input("regions", box, settings);
  ASSERT_EQ(input.materials.size(), 3u);
  const BakeResult result = run_bake(input, settings);
  ASSERT_EQ(result.cubature.tets.size(), 12);
  for (const MaterialInfo& material : input.materials) {
    int sampled = 0;
    double weight = 0.0;
    double volume = 0.0;
    for (Eigen::Index c = 0; c < 12; ++c) {
      if (input.mesh.regions(result.cubature.tets(c)) != material.region) continue;
      ++sampled;
      weight += result.cubature.weights(c);
    }
    for (Eigen::Index t = 0; t < input.mesh.tets.rows(); ++t) {
      if (input.mesh.regions(t) == material.region) volume += result.tet_volumes(t);
    }
    EXPECT_GE(sampled, cubature::kDefaultTetsPerRegion) << material.name;
    EXPECT_NEAR(weight, volume, 1e-12 * volume) << material.name;
  }

  settings.cubature_per_region = 0;
  const BakeResult plain = run_bake(input, settings);
  cubature::CubatureOptions options;
  options.clusters = 12;
  const cubature::Cubature expected = cubature::kmeans_cubature(
      plain.tet_volumes, subspace::tet_averaged_weights(input.mesh, plain.modes.weights),
      plain.modes.eigenvalues, options);
  EXPECT_TRUE(plain.cubature.tets == expected.tets);
  EXPECT_TRUE(plain.cubature.weights == expected.weights);
}

}  // namespace
}  // namespace smfem::bake
