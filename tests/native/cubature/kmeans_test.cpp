#include "smfem/cubature/kmeans.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <stdexcept>

namespace smfem::cubature {
namespace {

// count points around each of the given centers, within radius (uniform in a cube).
FeatureMatrix blobs(const FeatureMatrix& centers, int count, double radius, unsigned seed) {
  std::mt19937 bits(seed);
  std::uniform_real_distribution<double> offset(-radius, radius);
  FeatureMatrix points(centers.rows() * count, centers.cols());
  for (Eigen::Index c = 0; c < centers.rows(); ++c) {
    for (int p = 0; p < count; ++p) {
      for (Eigen::Index f = 0; f < centers.cols(); ++f) {
        points(c * count + p, f) = centers(c, f) + offset(bits);
      }
    }
  }
  return points;
}

FeatureMatrix random_points(Eigen::Index n, Eigen::Index d, unsigned seed) {
  std::mt19937 bits(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  FeatureMatrix points(n, d);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index f = 0; f < d; ++f)
      points(i, f) = normal(bits) * (1.0 + static_cast<double>(f));
  }
  return points;
}

// A converged k-means result is a fixed point: each centroid is its points' mean and each
// point is at least as near its own centroid as to any other.
void expect_fixed_point(const FeatureMatrix& points, const KMeansResult& result) {
  const Eigen::Index k = result.centroids.rows();
  FeatureMatrix sums = FeatureMatrix::Zero(k, points.cols());
  Eigen::VectorXi counts = Eigen::VectorXi::Zero(k);
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    sums.row(result.labels(i)) += points.row(i);
    ++counts(result.labels(i));
  }
  for (Eigen::Index j = 0; j < k; ++j) {
    ASSERT_GT(counts(j), 0) << "empty cluster " << j;
    EXPECT_LT((sums.row(j) / counts(j) - result.centroids.row(j)).norm(), 1e-12);
  }
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    const double own = (points.row(i) - result.centroids.row(result.labels(i))).squaredNorm();
    for (Eigen::Index j = 0; j < k; ++j) {
      EXPECT_LE(own, (points.row(i) - result.centroids.row(j)).squaredNorm() * (1 + 1e-12));
    }
  }
}

TEST(KMeans, SeparatesWellSeparatedBlobs) {
  FeatureMatrix centers(4, 3);
  centers << 0, 0, 0,  //
      10, 0, 0,        //
      0, 10, 0,        //
      0, 0, 10;
  const FeatureMatrix points = blobs(centers, 50, 1.0, 1);
  KMeansOptions options;
  options.clusters = 4;
  const KMeansResult result = kmeans(points, options);
  ASSERT_TRUE(result.converged);
  expect_fixed_point(points, result);
  for (int blob = 0; blob < 4; ++blob) {
    std::set<int> labels;
    for (int p = 0; p < 50; ++p) labels.insert(result.labels(blob * 50 + p));
    EXPECT_EQ(labels.size(), 1u) << "blob " << blob << " was split";
  }
}

TEST(KMeans, ConvergesToAFixedPointOnUnstructuredData) {
  const FeatureMatrix points = random_points(5000, 6, 2);
  KMeansOptions options;
  options.clusters = 40;
  const KMeansResult result = kmeans(points, options);
  ASSERT_TRUE(result.converged) << result.iterations << " iterations";
  EXPECT_EQ(result.centroids.rows(), 40);
  expect_fixed_point(points, result);
}

TEST(KMeans, IsBitIdenticalAcrossRunsAndThreadCounts) {
  const FeatureMatrix points = random_points(9000, 5, 3);  // several chunks
  KMeansOptions options;
  options.clusters = 64;
  options.threads = 1;
  const KMeansResult one = kmeans(points, options);
  const KMeansResult again = kmeans(points, options);
  options.threads = 3;
  const KMeansResult three = kmeans(points, options);
  EXPECT_TRUE(one.labels == again.labels && one.centroids == again.centroids);
  EXPECT_TRUE(one.labels == three.labels && one.centroids == three.centroids);
  EXPECT_EQ(one.iterations, three.iterations);
  options.seed = 99;
  const KMeansResult other_seed = kmeans(points, options);
  EXPECT_FALSE(one.labels == other_seed.labels) << "the seed has no effect";
}

TEST(KMeans, FewerDistinctPointsThanClustersGiveFewerNonEmptyClusters) {
  FeatureMatrix points(12, 2);
  for (int i = 0; i < 12; ++i) points.row(i) << i % 3, 0.5 * (i % 3);  // 3 distinct points
  KMeansOptions options;
  options.clusters = 5;
  const KMeansResult result = kmeans(points, options);
  EXPECT_EQ(result.centroids.rows(), 3);
  expect_fixed_point(points, result);
}

TEST(KMeans, OneClusterIsTheMean) {
  const FeatureMatrix points = random_points(100, 3, 4);
  KMeansOptions options;
  options.clusters = 1;
  const KMeansResult result = kmeans(points, options);
  EXPECT_TRUE(result.converged);
  EXPECT_LT((result.centroids.row(0) - points.colwise().mean()).norm(), 1e-12);
  EXPECT_EQ(result.labels.maxCoeff(), 0);
}

TEST(KMeans, AsManyClustersAsPointsPutsEachPointAlone) {
  const FeatureMatrix points = random_points(30, 2, 5);
  KMeansOptions options;
  options.clusters = 30;
  const KMeansResult result = kmeans(points, options);
  EXPECT_EQ(std::set<int>(result.labels.begin(), result.labels.end()).size(), 30u);
  expect_fixed_point(points, result);
}

TEST(KMeans, RefusesBadInput) {
  const FeatureMatrix points = random_points(10, 2, 6);
  KMeansOptions options;
  options.clusters = 0;
  EXPECT_THROW(kmeans(points, options), std::invalid_argument);
  options.clusters = 11;
  EXPECT_THROW(kmeans(points, options), std::invalid_argument);
  options.clusters = 2;
  EXPECT_THROW(kmeans(FeatureMatrix(0, 2), options), std::invalid_argument);
  EXPECT_THROW(kmeans(FeatureMatrix(10, 0), options), std::invalid_argument);
  FeatureMatrix bad = points;
  bad(3, 1) = std::nan("");
  EXPECT_THROW(kmeans(bad, options), std::invalid_argument);
  options.max_iterations = -1;
  EXPECT_THROW(kmeans(points, options), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::cubature
