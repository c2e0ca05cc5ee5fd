#include "smfem/local/weighted_kmeans.hpp"

#include <limits>

namespace smfem::local {
namespace {

constexpr int kMaxLloydIterations = 50;

}  // namespace

std::vector<int> weighted_kmeans(const Eigen::Matrix<double, Eigen::Dynamic, 3>& points,
                                 const Eigen::VectorXd& weights, int k) {
  const auto n = static_cast<std::size_t>(points.rows());
  std::vector<int> assigned(n, -1);
  if (n == 0) return assigned;
  Eigen::Index heaviest = 0;
  weights.maxCoeff(&heaviest);
  std::vector<Eigen::Vector3d> centres{points.row(heaviest).transpose()};
  std::vector<double> nearest(n, std::numeric_limits<double>::infinity());
  while (static_cast<int>(centres.size()) < k) {
    std::size_t farthest = 0;
    double score = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const auto row = static_cast<Eigen::Index>(i);
      nearest[i] =
          std::min(nearest[i], (points.row(row).transpose() - centres.back()).squaredNorm());
      if (weights(row) * nearest[i] > score) {
        score = weights(row) * nearest[i];
        farthest = i;
      }
    }
    if (!(score > 0.0)) break;  // fewer distinct points than k
    centres.push_back(points.row(static_cast<Eigen::Index>(farthest)).transpose());
  }
  for (int iteration = 0; iteration < kMaxLloydIterations; ++iteration) {
    bool changed = false;
    for (std::size_t i = 0; i < n; ++i) {
      const Eigen::Vector3d x = points.row(static_cast<Eigen::Index>(i)).transpose();
      int best = 0;
      for (int c = 1; c < static_cast<int>(centres.size()); ++c) {
        if ((x - centres[static_cast<std::size_t>(c)]).squaredNorm() <
            (x - centres[static_cast<std::size_t>(best)]).squaredNorm()) {
          best = c;
        }
      }
      changed = changed || assigned[i] != best;
      assigned[i] = best;
    }
    if (!changed) break;
    std::vector<Eigen::Vector3d> sums(centres.size(), Eigen::Vector3d::Zero());
    std::vector<double> mass(centres.size(), 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      const auto row = static_cast<Eigen::Index>(i);
      sums[static_cast<std::size_t>(assigned[i])] += weights(row) * points.row(row).transpose();
      mass[static_cast<std::size_t>(assigned[i])] += weights(row);
    }
    for (std::size_t c = 0; c < centres.size(); ++c) {
      if (mass[c] > 0.0) centres[c] = sums[c] / mass[c];
    }
  }
  // Renumber the non-empty clusters by their first point.
  std::vector<int> number(centres.size(), -1);
  int next = 0;
  for (int& label : assigned) {
    int& renamed = number[static_cast<std::size_t>(label)];
    if (renamed < 0) renamed = next++;
    label = renamed;
  }
  return assigned;
}

}  // namespace smfem::local
