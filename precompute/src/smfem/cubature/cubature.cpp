#include "smfem/cubature/cubature.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace smfem::cubature {

namespace {

[[noreturn]] void refuse(const char* caller, const std::string& problem) {
  throw std::invalid_argument(std::string(caller) + ": " + problem);
}

}  // namespace

FeatureMatrix cubature_features(const Eigen::Ref<const Eigen::MatrixXd>& tet_weights,
                                const Eigen::Ref<const Eigen::VectorXd>& eigenvalues) {
  const char* caller = "cubature_features";
  if (eigenvalues.size() != tet_weights.cols()) {
    refuse(caller, std::to_string(eigenvalues.size()) + " eigenvalues for " +
                       std::to_string(tet_weights.cols()) + " weight columns");
  }
  if (!eigenvalues.allFinite() || (eigenvalues.array() < 0.0).any()) {
    refuse(caller, "eigenvalues must be finite and non-negative");
  }
  const double largest = eigenvalues.size() > 0 ? eigenvalues.maxCoeff() : 0.0;
  std::vector<Eigen::Index> kept;
  for (Eigen::Index i = 0; i < eigenvalues.size(); ++i) {
    if (eigenvalues(i) > 1e-10 * largest) kept.push_back(i);
  }
  // Only constant modes (an affine body): every tet deforms alike, any tet represents any
  // other, and every tet has the same (zero) feature.
  if (kept.empty()) return FeatureMatrix::Zero(tet_weights.rows(), 1);
  double smallest_kept = std::numeric_limits<double>::infinity();
  for (Eigen::Index i : kept) smallest_kept = std::min(smallest_kept, eigenvalues(i));
  FeatureMatrix features(tet_weights.rows(), static_cast<Eigen::Index>(kept.size()));
  for (Eigen::Index f = 0; f < features.cols(); ++f) {
    const double scale =
        (smallest_kept / eigenvalues(kept[f])) * (smallest_kept / eigenvalues(kept[f]));
    features.col(f) = scale * tet_weights.col(kept[f]);
  }
  return features;
}

Cubature kmeans_cubature(const Eigen::Ref<const Eigen::VectorXd>& tet_volumes,
                         const Eigen::Ref<const Eigen::MatrixXd>& tet_weights,
                         const Eigen::Ref<const Eigen::VectorXd>& eigenvalues,
                         const CubatureOptions& options) {
  const char* caller = "kmeans_cubature";
  const Eigen::Index tet_count = tet_volumes.size();
  if (tet_count == 0) refuse(caller, "the mesh has no tets");
  if (tet_weights.rows() != tet_count) {
    refuse(caller, "tet_weights has " + std::to_string(tet_weights.rows()) + " rows for " +
                       std::to_string(tet_count) + " tets");
  }
  if (!tet_volumes.allFinite() || (tet_volumes.array() <= 0.0).any()) {
    refuse(caller, "tet volumes must be positive and finite");
  }
  if (options.clusters < 0) refuse(caller, "clusters is negative");
  const FeatureMatrix features = cubature_features(tet_weights, eigenvalues);

  KMeansOptions kmeans_options;
  const Eigen::Index requested = options.clusters > 0 ? options.clusters : 20 * tet_weights.cols();
  kmeans_options.clusters = static_cast<int>(std::min(requested, tet_count));
  kmeans_options.seed = options.seed;
  kmeans_options.max_iterations = options.max_iterations;
  kmeans_options.threads = options.threads;
  const KMeansResult clusters = kmeans(features, kmeans_options);
  const Eigen::Index cluster_count = clusters.centroids.rows();

  // Representative: the member nearest the centroid; weight: the members' total volume.
  Eigen::VectorXi representative = Eigen::VectorXi::Constant(cluster_count, -1);
  Eigen::VectorXd nearest =
      Eigen::VectorXd::Constant(cluster_count, std::numeric_limits<double>::infinity());
  Eigen::VectorXd volume = Eigen::VectorXd::Zero(cluster_count);
  for (Eigen::Index t = 0; t < tet_count; ++t) {
    const int c = clusters.labels(t);
    const double to_centroid = (features.row(t) - clusters.centroids.row(c)).squaredNorm();
    if (to_centroid < nearest(c)) {
      nearest(c) = to_centroid;
      representative(c) = static_cast<int>(t);
    }
    volume(c) += tet_volumes(t);
  }

  std::vector<int> order(cluster_count);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return representative(a) < representative(b); });
  Eigen::VectorXi renumber(cluster_count);
  Cubature out;
  out.tets.resize(cluster_count);
  out.weights.resize(cluster_count);
  for (Eigen::Index c = 0; c < cluster_count; ++c) {
    renumber(order[c]) = static_cast<int>(c);
    out.tets(c) = representative(order[c]);
    out.weights(c) = volume(order[c]);
  }
  out.labels.resize(tet_count);
  for (Eigen::Index t = 0; t < tet_count; ++t) out.labels(t) = renumber(clusters.labels(t));
  out.iterations = clusters.iterations;
  out.converged = clusters.converged;
  return out;
}

}  // namespace smfem::cubature
