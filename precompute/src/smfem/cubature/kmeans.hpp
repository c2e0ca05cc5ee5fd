#pragma once
// k-means clustering of points in R^d (squared Euclidean distance), reproducible bit for bit:
// same points and options => same output, on any machine and any thread count.
//
// Seeding: k-means++ (Arthur and Vassilvitskii 2007). The first center is a uniformly drawn
// point; each next one is drawn with probability proportional to D^2, the squared distance to
// the nearest chosen center. Draws come from std::mt19937_64(seed) through detail::uniform_01
// (53 random bits per draw) and are mapped to a point by a cumulative sum in point order.
// If fewer than k distinct points exist, seeding stops early and fewer clusters come out.
//
// Lloyd iterations with Hamerly's bounds (Hamerly 2010): per point an upper bound on the
// distance to its center and a lower bound on the distance to every other one skip most
// distance computations once clusters settle. A point that fails the test looks for its
// nearest center among its own center's nearest neighbors first, in order, stopping as soon as
// the triangle inequality rules out the rest (the idea of Newling and Fleuret's Exponion,
// 2016), so it rarely scans all k centers. A cluster that becomes empty takes the point
// farthest from its center (among clusters of two or more points). Iterations stop when no
// label changes (converged) or after max_iterations. Ties go to the lowest cluster index.
//
// Threads split the points into chunks of a fixed size; sums that decide results run in point
// order on one thread, so the thread count changes speed only.
#include <cstdint>

#include <Eigen/Core>

namespace smfem::cubature {

// n x d, one point per row, row-major so that a point is contiguous.
using FeatureMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

inline constexpr std::uint64_t kDefaultSeed = 20230725;

struct KMeansOptions {
  int clusters = 1;  // k, 1 <= k <= n
  std::uint64_t seed = kDefaultSeed;
  int max_iterations = 300;  // Lloyd iterations after seeding, >= 0
  int threads = 0;           // 0: one per hardware thread
};

struct KMeansResult {
  FeatureMatrix centroids;  // k' x d, each the mean of its points (k' < k only as said above)
  Eigen::VectorXi labels;   // n, the cluster of each point, in 0..k'-1, every cluster non-empty
  int iterations = 0;       // Lloyd iterations run
  bool converged = false;   // the last iteration changed no label
};

// Throws std::invalid_argument for n = 0, d = 0, non-finite points, k outside 1..n or a
// negative max_iterations.
KMeansResult kmeans(const Eigen::Ref<const FeatureMatrix>& points, const KMeansOptions& options);

}  // namespace smfem::cubature
