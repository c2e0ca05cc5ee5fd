#include "smfem/cubature/cubature.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "smfem/subspace/basis.hpp"
#include "smfem/subspace/elastic_laplacian.hpp"
#include "smfem/subspace/lumped_mass.hpp"
#include "smfem/subspace/skinning_eigenmodes.hpp"
#include "subspace/box_mesh.hpp"

namespace smfem::cubature {
namespace {

struct Bar {
  mesh::TetMesh mesh;
  Eigen::VectorXd volumes;
  Eigen::MatrixXd tet_weights;
  Eigen::VectorXd eigenvalues;
};

// A 4 x 1 x 1 bar, stiff (E 1e10) for x < 2 and soft (E 1e6) beyond, unpinned, m modes.
Bar make_bar(int m) {
  Bar bar;
  bar.mesh = test::box_mesh({24, 4, 4}, {4, 1, 1});
  const Eigen::Index tets = bar.mesh.tets.rows();
  Eigen::VectorXd E(tets);
  for (Eigen::Index t = 0; t < tets; ++t) {
    E(t) = test::tet_centroid(bar.mesh, t).x() < 2.0 ? 1e10 : 1e6;
  }
  const auto H = subspace::elastic_laplacian(bar.mesh, E, Eigen::VectorXd::Constant(tets, 0.45));
  const auto mass = subspace::lumped_mass(bar.mesh, Eigen::VectorXd::Constant(tets, 1000.0));
  const subspace::SkinningModes modes =
      subspace::skinning_eigenmodes(H, mass, bar.mesh.vertices, m, Eigen::VectorXi());
  bar.volumes = subspace::tet_rest_volumes(bar.mesh);
  bar.tet_weights = subspace::tet_averaged_weights(bar.mesh, modes.weights);
  bar.eigenvalues = modes.eigenvalues;
  return bar;
}

const Bar& bar16() {
  static const Bar bar = make_bar(16);
  return bar;
}

TEST(Cubature, FeaturesDropTheConstantModeAndWeighByInverseSquaredEigenvalues) {
  const Bar& bar = bar16();
  ASSERT_EQ(bar.eigenvalues(0), 0.0);
  const FeatureMatrix features = cubature_features(bar.tet_weights, bar.eigenvalues);
  ASSERT_EQ(features.cols(), 15);
  const double gamma_1 = bar.eigenvalues(1);
  for (int f = 0; f < 15; ++f) {
    const double scale = std::pow(gamma_1 / bar.eigenvalues(f + 1), 2);
    EXPECT_LT((features.col(f) - scale * bar.tet_weights.col(f + 1)).norm(),
              1e-14 * features.col(0).norm())
        << "feature " << f;
  }
}

TEST(Cubature, PartitionsTheMeshIntoClustersEachIntegratedByOneOfItsTets) {
  const Bar& bar = bar16();
  const Cubature cubature = kmeans_cubature(bar.volumes, bar.tet_weights, bar.eigenvalues);
  const Eigen::Index clusters = cubature.tets.size();
  EXPECT_EQ(clusters, 20 * 16);  // the default |C| = 20 m
  ASSERT_EQ(cubature.weights.size(), clusters);
  ASSERT_EQ(cubature.labels.size(), bar.mesh.tets.rows());
  EXPECT_TRUE(cubature.converged);
  EXPECT_NEAR(cubature.weights.sum(), bar.volumes.sum(), 1e-12 * bar.volumes.sum());
  EXPECT_GE(cubature.labels.minCoeff(), 0);
  EXPECT_LT(cubature.labels.maxCoeff(), clusters);

  // Each representative lies in its own cluster and is its member nearest the centroid;
  // each weight is its cluster's volume; representatives ascend.
  const FeatureMatrix features = cubature_features(bar.tet_weights, bar.eigenvalues);
  FeatureMatrix centroids = FeatureMatrix::Zero(clusters, features.cols());
  Eigen::VectorXd volume = Eigen::VectorXd::Zero(clusters);
  Eigen::VectorXi count = Eigen::VectorXi::Zero(clusters);
  for (Eigen::Index t = 0; t < features.rows(); ++t) {
    centroids.row(cubature.labels(t)) += features.row(t);
    volume(cubature.labels(t)) += bar.volumes(t);
    ++count(cubature.labels(t));
  }
  for (Eigen::Index c = 0; c < clusters; ++c) {
    ASSERT_GT(count(c), 0);
    centroids.row(c) /= count(c);
    EXPECT_EQ(cubature.labels(cubature.tets(c)), c) << "representative outside cluster " << c;
    EXPECT_NEAR(cubature.weights(c), volume(c), 1e-12 * volume(c));
    if (c > 0) {
      EXPECT_LT(cubature.tets(c - 1), cubature.tets(c));
    }
  }
  for (Eigen::Index t = 0; t < features.rows(); ++t) {
    const Eigen::Index c = cubature.labels(t);
    const double representative = (features.row(cubature.tets(c)) - centroids.row(c)).norm();
    EXPECT_LE(representative, (features.row(t) - centroids.row(c)).norm() * (1 + 1e-9) + 1e-300);
  }
}

TEST(Cubature, IsBitIdenticalAcrossRuns) {
  const Bar& bar = bar16();
  const Cubature first = kmeans_cubature(bar.volumes, bar.tet_weights, bar.eigenvalues);
  CubatureOptions single_thread;
  single_thread.threads = 1;
  const Cubature second =
      kmeans_cubature(bar.volumes, bar.tet_weights, bar.eigenvalues, single_thread);
  EXPECT_TRUE(first.tets == second.tets);
  EXPECT_TRUE(first.weights == second.weights);
  EXPECT_TRUE(first.labels == second.labels);
}

// Paper Fig. 6: soft regions, which deform more, get more cubature points than stiff ones.
TEST(Cubature, SamplesTheSoftHalfMoreDenselyThanTheStiffHalf) {
  const Bar& bar = bar16();
  const Cubature cubature = kmeans_cubature(bar.volumes, bar.tet_weights, bar.eigenvalues);
  int soft = 0;
  int stiff = 0;
  for (Eigen::Index c = 0; c < cubature.tets.size(); ++c) {
    (test::tet_centroid(bar.mesh, cubature.tets(c)).x() < 2.0 ? stiff : soft) += 1;
  }
  // Both halves have volume 2, so points per unit volume compare as counts.
  const double ratio = static_cast<double>(soft) / std::max(stiff, 1);
  // Measured: 319 soft and 1 stiff (|C| = 320), ratio 319.
  EXPECT_GT(ratio, 5.0) << soft << " soft, " << stiff << " stiff";
  RecordProperty("soft_over_stiff_density", std::to_string(ratio));
  std::printf("[ measured ] cubature points: %d soft, %d stiff, density ratio %.3g\n", soft, stiff,
              ratio);
}

TEST(Cubature, TheDefaultClusterCountIsCappedByTheTetCount) {
  const mesh::TetMesh cube = test::box_mesh({1, 1, 1}, {1, 1, 1});  // 6 tets
  Eigen::MatrixXd tet_weights(6, 3);
  tet_weights << Eigen::VectorXd::Ones(6), Eigen::VectorXd::LinSpaced(6, 0, 1),
      Eigen::VectorXd::LinSpaced(6, 0, 1).array().square();
  const Cubature cubature = kmeans_cubature(subspace::tet_rest_volumes(cube), tet_weights,
                                            Eigen::Vector3d(0.0, 1.0, 2.0));
  EXPECT_EQ(cubature.tets.size(), 6);
  EXPECT_TRUE(cubature.weights.isApprox(subspace::tet_rest_volumes(cube)));
}

TEST(Cubature, RefusesBadInput) {
  const Eigen::VectorXd volumes = Eigen::VectorXd::Ones(4);
  const Eigen::MatrixXd tet_weights = Eigen::MatrixXd::Random(4, 3);
  const Eigen::Vector3d eigenvalues(0.0, 1.0, 2.0);
  EXPECT_THROW(kmeans_cubature(Eigen::VectorXd(0), Eigen::MatrixXd(0, 3), eigenvalues),
               std::invalid_argument);
  EXPECT_THROW(kmeans_cubature(volumes.head(3), tet_weights, eigenvalues), std::invalid_argument);
  EXPECT_THROW(kmeans_cubature(volumes, tet_weights, eigenvalues.head(2)), std::invalid_argument);
  Eigen::VectorXd bad_volumes = volumes;
  bad_volumes(1) = 0.0;
  EXPECT_THROW(kmeans_cubature(bad_volumes, tet_weights, eigenvalues), std::invalid_argument);
  EXPECT_THROW(kmeans_cubature(volumes, tet_weights, Eigen::Vector3d(0.0, -1.0, 2.0)),
               std::invalid_argument);
  EXPECT_THROW(kmeans_cubature(volumes, tet_weights, Eigen::Vector3d(0.0, 1.0, NAN)),
               std::invalid_argument);
  // Only constant modes (an affine body): every tet deforms alike, one represents them all.
  const Cubature affine = kmeans_cubature(volumes, tet_weights, Eigen::Vector3d::Zero());
  ASSERT_EQ(affine.tets.size(), 1);
  EXPECT_NEAR(affine.weights.sum(), volumes.sum(), 1e-12 * volumes.sum());
  CubatureOptions negative;
  negative.clusters = -1;
  EXPECT_THROW(kmeans_cubature(volumes, tet_weights, eigenvalues, negative), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::cubature
