#include "smfem/cubature/cubature.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "smfem/cubature/detail/material_regions.hpp"
#include "smfem/cubature/detail/region_components.hpp"

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

namespace {

void check_clustering_input(const char* caller,
                            const Eigen::Ref<const Eigen::VectorXd>& tet_volumes,
                            const Eigen::Ref<const Eigen::MatrixXd>& tet_weights,
                            const CubatureOptions& options) {
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
}

// |C| asked: options.clusters, or 20 m, capped by |T|.
int requested_clusters(const CubatureOptions& options, Eigen::Index tet_count, Eigen::Index m) {
  const Eigen::Index requested = options.clusters > 0 ? options.clusters : 20 * m;
  return static_cast<int>(std::min(requested, tet_count));
}

KMeansResult run_kmeans(const Eigen::Ref<const FeatureMatrix>& features, int clusters,
                        const CubatureOptions& options) {
  KMeansOptions kmeans_options;
  kmeans_options.clusters = clusters;
  kmeans_options.seed = options.seed;
  kmeans_options.max_iterations = options.max_iterations;
  kmeans_options.threads = options.threads;
  return kmeans(features, kmeans_options);
}

// The cubature of a clustering of every tet: labels |T| in 0..k-1 (every cluster non-empty),
// centroids k x features. Representative: the member nearest the centroid; weight: the
// members' total volume; clusters renumbered by ascending representative.
Cubature cubature_of_clusters(const FeatureMatrix& features,
                              const Eigen::Ref<const Eigen::VectorXd>& tet_volumes,
                              const Eigen::VectorXi& labels, const FeatureMatrix& centroids) {
  const Eigen::Index tet_count = tet_volumes.size();
  const Eigen::Index cluster_count = centroids.rows();
  Eigen::VectorXi representative = Eigen::VectorXi::Constant(cluster_count, -1);
  Eigen::VectorXd nearest =
      Eigen::VectorXd::Constant(cluster_count, std::numeric_limits<double>::infinity());
  Eigen::VectorXd volume = Eigen::VectorXd::Zero(cluster_count);
  for (Eigen::Index t = 0; t < tet_count; ++t) {
    const int c = labels(t);
    const double to_centroid = (features.row(t) - centroids.row(c)).squaredNorm();
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
  for (Eigen::Index t = 0; t < tet_count; ++t) out.labels(t) = renumber(labels(t));
  return out;
}

}  // namespace

Cubature kmeans_cubature(const Eigen::Ref<const Eigen::VectorXd>& tet_volumes,
                         const Eigen::Ref<const Eigen::MatrixXd>& tet_weights,
                         const Eigen::Ref<const Eigen::VectorXd>& eigenvalues,
                         const CubatureOptions& options) {
  check_clustering_input("kmeans_cubature", tet_volumes, tet_weights, options);
  const FeatureMatrix features = cubature_features(tet_weights, eigenvalues);
  const KMeansResult clusters = run_kmeans(
      features, requested_clusters(options, tet_volumes.size(), tet_weights.cols()), options);
  Cubature out = cubature_of_clusters(features, tet_volumes, clusters.labels, clusters.centroids);
  out.iterations = clusters.iterations;
  out.converged = clusters.converged;
  return out;
}

Eigen::VectorXi region_cluster_counts(const Eigen::Ref<const Eigen::VectorXi>& region_tets,
                                      const Eigen::Ref<const Eigen::VectorXd>& shares, int total,
                                      int per_region) {
  const char* caller = "region_cluster_counts";
  const Eigen::Index regions = region_tets.size();
  if (regions == 0) refuse(caller, "no regions");
  if (shares.size() != regions) {
    refuse(caller,
           std::to_string(shares.size()) + " shares for " + std::to_string(regions) + " regions");
  }
  if ((region_tets.array() < 1).any()) refuse(caller, "a region has no tets");
  if (!shares.allFinite() || (shares.array() < 0.0).any()) {
    refuse(caller, "shares must be finite and non-negative");
  }
  if (per_region < 1) {
    refuse(caller, "per_region is " + std::to_string(per_region) + ", must be at least 1");
  }
  if (total < regions) {
    refuse(caller, "asked for " + std::to_string(total) + " cubature tets for " +
                       std::to_string(regions) +
                       " material regions: every region needs at least one");
  }
  if (total > region_tets.cast<long long>().sum()) {
    refuse(caller, "asked for " + std::to_string(total) + " cubature tets of " +
                       std::to_string(region_tets.cast<long long>().sum()) + " tets");
  }
  const int minimum = std::min<int>(per_region, total / static_cast<int>(regions));
  Eigen::VectorXi counts = region_tets.cwiseMin(minimum);
  for (int left = total - counts.sum(); left > 0; --left) {
    Eigen::Index below = -1;  // the region furthest below its share, with a tet to spare
    for (Eigen::Index r = 0; r < regions; ++r) {
      if (counts(r) == region_tets(r)) continue;
      if (below < 0 || shares(r) - counts(r) > shares(below) - counts(below)) below = r;
    }
    ++counts(below);  // some region has a tet to spare: total <= sum of region_tets
  }
  return counts;
}

namespace {

// The checks both stratified clusterings share; returns |C| asked (capped by |T|).
int check_stratified_input(const char* caller, const Eigen::Ref<const Eigen::VectorXd>& tet_volumes,
                           const Eigen::Ref<const Eigen::MatrixXd>& tet_weights,
                           const Eigen::Ref<const Eigen::VectorXi>& tet_regions,
                           const CubatureOptions& options, int per_region,
                           const detail::MaterialRegions& material) {
  check_clustering_input(caller, tet_volumes, tet_weights, options);
  const Eigen::Index tet_count = tet_volumes.size();
  if (tet_regions.size() != tet_count) {
    refuse(caller, "tet_regions has " + std::to_string(tet_regions.size()) + " entries for " +
                       std::to_string(tet_count) + " tets");
  }
  if (per_region < 1) {
    refuse(caller, "at least one cubature tet per region is needed, asked for " +
                       std::to_string(per_region));
  }
  const auto regions = static_cast<Eigen::Index>(material.ids.size());
  const int total = requested_clusters(options, tet_count, tet_weights.cols());
  if (total < regions) {
    refuse(caller, "asked for " + std::to_string(total) + " cubature tets for a mesh of " +
                       std::to_string(regions) +
                       " material regions: every region needs at least one (ask for at "
                       "least " +
                       std::to_string(regions) + ")");
  }
  return total;
}

// k-means within each stratum (stratum_of: |T| in 0..S-1; stratum_tets: S counts >= 1), the
// clusters allocated by region_cluster_counts from each stratum's share of the whole-body
// clustering; total: |C| with S <= total <= |T|.
Cubature stratified_clustering(const FeatureMatrix& features,
                               const Eigen::Ref<const Eigen::VectorXd>& tet_volumes,
                               const Eigen::VectorXi& stratum_of,
                               const Eigen::VectorXi& stratum_tets, int total, int per_region,
                               const CubatureOptions& options) {
  const Eigen::Index tet_count = tet_volumes.size();
  const Eigen::Index strata = stratum_tets.size();

  // Each stratum's share of the whole-body clustering.
  // (With a cluster per tet there is nothing to share: every tet is its own.)
  Eigen::VectorXd shares = stratum_tets.cast<double>();
  if (strata > 1 && total < tet_count) {
    shares.setZero();
    const KMeansResult whole = run_kmeans(features, total, options);
    Eigen::VectorXi members = Eigen::VectorXi::Zero(whole.centroids.rows());
    for (Eigen::Index t = 0; t < tet_count; ++t) ++members(whole.labels(t));
    for (Eigen::Index t = 0; t < tet_count; ++t) {
      shares(stratum_of(t)) += 1.0 / members(whole.labels(t));
    }
  }
  const Eigen::VectorXi counts = region_cluster_counts(stratum_tets, shares, total, per_region);

  // k-means within each stratum; clusters numbered stratum after stratum.
  std::vector<std::vector<Eigen::Index>> members(static_cast<std::size_t>(strata));
  for (Eigen::Index t = 0; t < tet_count; ++t) members[stratum_of(t)].push_back(t);
  Eigen::VectorXi labels(tet_count);
  std::vector<FeatureMatrix> stratum_centroids;
  Cubature out;
  out.converged = true;
  Eigen::Index clusters_so_far = 0;
  for (Eigen::Index r = 0; r < strata; ++r) {
    const std::vector<Eigen::Index>& in_r = members[static_cast<std::size_t>(r)];
    const FeatureMatrix stratum_features = features(in_r, Eigen::all);
    const KMeansResult clusters = run_kmeans(stratum_features, counts(r), options);
    for (std::size_t i = 0; i < in_r.size(); ++i) {
      labels(in_r[i]) =
          static_cast<int>(clusters_so_far + clusters.labels(static_cast<Eigen::Index>(i)));
    }
    clusters_so_far += clusters.centroids.rows();
    stratum_centroids.push_back(clusters.centroids);
    out.iterations = std::max(out.iterations, clusters.iterations);
    out.converged = out.converged && clusters.converged;
  }
  FeatureMatrix centroids(clusters_so_far, features.cols());
  Eigen::Index row = 0;
  for (const FeatureMatrix& block : stratum_centroids) {
    centroids.middleRows(row, block.rows()) = block;
    row += block.rows();
  }
  const int iterations = out.iterations;
  const bool converged = out.converged;
  out = cubature_of_clusters(features, tet_volumes, labels, centroids);
  out.iterations = iterations;
  out.converged = converged;
  out.strata.minimum = static_cast<int>(std::min<Eigen::Index>(per_region, total / strata));
  return out;
}

}  // namespace

Cubature stratified_kmeans_cubature(const Eigen::Ref<const Eigen::VectorXd>& tet_volumes,
                                    const Eigen::Ref<const Eigen::MatrixXd>& tet_weights,
                                    const Eigen::Ref<const Eigen::VectorXd>& eigenvalues,
                                    const Eigen::Ref<const Eigen::VectorXi>& tet_regions,
                                    const CubatureOptions& options, int per_region) {
  const char* caller = "stratified_kmeans_cubature";
  const detail::MaterialRegions material = detail::material_regions(tet_regions);
  const int total = check_stratified_input(caller, tet_volumes, tet_weights, tet_regions, options,
                                           per_region, material);
  const FeatureMatrix features = cubature_features(tet_weights, eigenvalues);
  Cubature out = stratified_clustering(features, tet_volumes, material.of_tet, material.tets, total,
                                       per_region, options);
  out.strata.regions = static_cast<int>(material.ids.size());
  return out;
}

Cubature stratified_kmeans_cubature(const Eigen::Ref<const Eigen::VectorXd>& tet_volumes,
                                    const Eigen::Ref<const Eigen::MatrixXd>& tet_weights,
                                    const Eigen::Ref<const Eigen::VectorXd>& eigenvalues,
                                    const Eigen::Ref<const Eigen::VectorXi>& tet_regions,
                                    const Eigen::Ref<const mesh::Tets>& tets,
                                    const CubatureOptions& options, int per_region) {
  const char* caller = "stratified_kmeans_cubature";
  const detail::MaterialRegions material = detail::material_regions(tet_regions);
  const int total = check_stratified_input(caller, tet_volumes, tet_weights, tet_regions, options,
                                           per_region, material);
  if (tets.rows() != tet_volumes.size()) {
    refuse(caller, "tets has " + std::to_string(tets.rows()) + " rows for " +
                       std::to_string(tet_volumes.size()) + " tets");
  }
  const detail::RegionComponents components = detail::region_components(tets, material.of_tet);
  const auto component_count = static_cast<int>(components.tets.size());
  const FeatureMatrix features = cubature_features(tet_weights, eigenvalues);
  // Fewer cubature tets than components: no clustering can give each one a tet, so cluster by
  // region as the other overload does (every region still gets its minimum) rather than refuse
  // a |C| that was valid before components were counted. strata.by_component says which.
  const bool by_component = total >= component_count;
  Cubature out = by_component ? stratified_clustering(features, tet_volumes, components.of_tet,
                                                      components.tets, total, per_region, options)
                              : stratified_clustering(features, tet_volumes, material.of_tet,
                                                      material.tets, total, per_region, options);
  out.strata.regions = static_cast<int>(material.ids.size());
  out.strata.components = component_count;
  out.strata.by_component = by_component;
  return out;
}

}  // namespace smfem::cubature
