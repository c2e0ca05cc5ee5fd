// The cubature chooses the same tets in every build: natively (AVX-512, FMA) and in the bake's
// WebAssembly module (128-bit SIMD, no FMA). The inputs are exact doubles made from integers (no
// libm, no arithmetic the builds could round apart); fingerprints of the choices were computed
// natively and are checked in both builds (tests/native/CMakeLists.txt builds this file into the
// threaded wasm build's tests too). So where the two bakes of one mesh differ in their cubature,
// it is their modes that differ (the eigensolve's rounding), not the cubature's algorithm.
#include <gtest/gtest.h>

#include <cstdint>

#include <Eigen/Core>

#include "smfem/cubature/cubature.hpp"
#include "smfem/cubature/kmeans.hpp"
#include "subspace/box_mesh.hpp"

namespace smfem::cubature {
namespace {

// A value in [0, 1) from two integers, exactly the same double in every build.
double exact_value(std::int64_t a, std::int64_t b) {
  constexpr std::int64_t kPrime = 1000003;
  return static_cast<double>((a * 7919 + b * 104729) % kPrime) / static_cast<double>(kPrime);
}

template <typename Vector>
std::uint64_t fingerprint(const Vector& values) {
  std::uint64_t hash = 1469598103934665603ULL;  // FNV-1a
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    hash ^= static_cast<std::uint64_t>(values(i));
    hash *= 1099511628211ULL;
  }
  return hash;
}

TEST(CubatureAcrossBuilds, KMeansMakesTheSameClusters) {
  // 4,000 points in 10 dimensions about 37 centres, noise as large as their spacing.
  FeatureMatrix points(4000, 10);
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    for (Eigen::Index f = 0; f < points.cols(); ++f) {
      points(i, f) = exact_value(i, f) + (f == i % 10 ? 0.25 * static_cast<double>(i % 37) : 0.0);
    }
  }
  KMeansOptions options;
  options.clusters = 120;
  options.threads = 2;
  const KMeansResult result = kmeans(points, options);
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(result.iterations, 22);
  EXPECT_EQ(fingerprint(result.labels), 18264144502350698085ULL);
}

TEST(CubatureAcrossBuilds, StratifiedCubatureChoosesTheSameTets) {
  // A 4 x 1 x 1 box of 3,000 tets in two regions, 8 "modes" of exact values.
  const mesh::TetMesh box = test::box_mesh({20, 5, 5}, {4, 1, 1});
  const Eigen::Index tets = box.tets.rows();
  Eigen::VectorXd volumes(tets);
  Eigen::MatrixXd weights(tets, 8);
  Eigen::VectorXi regions(tets);
  for (Eigen::Index t = 0; t < tets; ++t) {
    volumes(t) = 1.0 + 0.125 * static_cast<double>(t % 7);
    regions(t) = t < tets / 3 ? 1 : 0;
    for (Eigen::Index i = 0; i < 8; ++i) {
      weights(t, i) = exact_value(t, i) + 0.5 * static_cast<double>((t / 150 + i) % 4);
    }
  }
  Eigen::VectorXd eigenvalues(8);
  eigenvalues << 0, 1, 2.5, 4, 7, 11, 16, 22;
  CubatureOptions options;
  options.clusters = 160;
  options.threads = 2;
  const Cubature cubature =
      stratified_kmeans_cubature(volumes, weights, eigenvalues, regions, box.tets, options);
  EXPECT_EQ(cubature.tets.size(), 160);
  EXPECT_EQ(fingerprint(cubature.tets), 11447923194511831253ULL);
  EXPECT_EQ(fingerprint(cubature.labels), 497233057273419673ULL);
}

}  // namespace
}  // namespace smfem::cubature
