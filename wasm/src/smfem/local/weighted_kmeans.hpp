#pragma once
// k-means of weighted points in space, deterministic and independent of any random source: the
// first seed is the heaviest point (the first of equals), each next the point farthest from the
// seeds in weight x squared distance, then Lloyd's iterations on weighted centres. Used to group
// a loaded surface into patches (patch_grouping.hpp, by area) and to sample the tets a patch set
// reaches (patch_set.hpp, by their share of the fields' strain).
#include <vector>

#include <Eigen/Core>

namespace smfem::local {

// points: n x 3; weights: n, positive. At most k clusters (fewer where fewer points are distinct);
// returns each point's cluster, 0..k'-1, every cluster non-empty, numbered by first point.
std::vector<int> weighted_kmeans(const Eigen::Matrix<double, Eigen::Dynamic, 3>& points,
                                 const Eigen::VectorXd& weights, int k);

}  // namespace smfem::local
