#include "smfem/cubature/optimized_cubature.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "smfem/cubature/detail/material_regions.hpp"
#include "smfem/cubature/detail/parallel_chunks.hpp"
#include "smfem/cubature/detail/refuse.hpp"
#include "smfem/cubature/detail/uniform_random.hpp"
#include "smfem/cubature/greedy_cubature.hpp"
#include "smfem/subspace/basis.hpp"

namespace smfem::cubature {
namespace {

using Index = Eigen::Index;

int requested_tets(const ElasticBody& body, const OptimizedCubatureOptions& options) {
  return options.tets > 0 ? options.tets : 20 * static_cast<int>(body.weights.cols());
}

// The tets the greedy may choose from (ascending) and the poses; candidates come from the
// stream seed + 1, poses from seed (training_forces.hpp).
struct TrainingSet {
  Eigen::VectorXi candidates;
  Poses poses;
};

TrainingSet training_set(const char* caller, const ElasticBody& body,
                         const OptimizedCubatureOptions& options) {
  if (options.tets < 0)
    detail::refuse(caller, "asked for " + std::to_string(options.tets) + " tets");
  if (options.training_poses < 1 || options.held_out_poses < 1 || options.candidates < 0) {
    detail::refuse(caller, "training and held-out poses must be at least 1, candidates >= 0");
  }
  if (!(options.tolerance >= 0.0)) detail::refuse(caller, "the tolerance must be >= 0");
  const int tets = static_cast<int>(body.mesh.tets.rows());
  if (tets == 0) detail::refuse(caller, "the mesh has no tets");
  std::vector<int> all(static_cast<std::size_t>(tets));
  std::iota(all.begin(), all.end(), 0);
  const int count = std::min(
      tets, options.candidates > 0
                ? options.candidates
                : std::max(kMinCandidates, kCandidatesPerTet * requested_tets(body, options)));
  if (count < tets) {
    // The first count steps of a Fisher-Yates shuffle: a uniform sample without replacement.
    std::mt19937_64 bits(options.seed + 1);
    for (int i = 0; i < count; ++i) {
      const int j = i + std::min(tets - i - 1, static_cast<int>(detail::uniform_01(bits) *
                                                                static_cast<double>(tets - i)));
      std::swap(all[static_cast<std::size_t>(i)], all[static_cast<std::size_t>(j)]);
    }
    all.resize(static_cast<std::size_t>(count));
    std::sort(all.begin(), all.end());
  }
  TrainingSet set;
  set.candidates = Eigen::Map<const Eigen::VectorXi>(all.data(), count);
  set.poses = sample_poses(body, options.training_poses, options.held_out_poses, options.seed);
  return set;
}

// 1 / ||b_p|| per pose (0 for a pose without force), r rows per pose.
Eigen::VectorXd pose_scales(const Eigen::VectorXd& b, Index r) {
  Eigen::VectorXd scales(b.size() / r);
  for (Index p = 0; p < scales.size(); ++p) {
    const double norm = b.segment(r * p, r).norm();
    scales(p) = norm > 0.0 ? 1.0 / norm : 0.0;
  }
  return scales;
}

template <typename Matrix>
void scale_rows(Matrix& M, const Eigen::VectorXd& scales, Index r) {
  for (Index p = 0; p < scales.size(); ++p) M.middleRows(r * p, r) *= scales(p);
}

// sqrt(mean over poses with a force of ||A_p w - b_p||^2 / ||b_p||^2): ||A w - b|| / ||b|| with
// each pose's rows divided by its ||b_p||, as the greedy measures it.
double fit_error(const Eigen::MatrixXd& A, const Eigen::VectorXd& weights, const Eigen::VectorXd& b,
                 Index r) {
  const Eigen::VectorXd residual = A * weights - b;
  double sum = 0.0;
  int poses = 0;
  for (Index p = 0; p < b.size() / r; ++p) {
    const double force = b.segment(r * p, r).squaredNorm();
    if (force == 0.0) continue;
    sum += residual.segment(r * p, r).squaredNorm() / force;
    ++poses;
  }
  return poses > 0 ? std::sqrt(sum / poses) : 0.0;
}

// Each tet's nearest cubature tet in the k-means features.
Eigen::VectorXi nearest_labels(const ElasticBody& body, const Eigen::VectorXi& tets, int threads) {
  const FeatureMatrix features =
      cubature_features(subspace::tet_averaged_weights(body.mesh, body.weights), body.eigenvalues);
  const FeatureMatrix chosen = features(tets, Eigen::all);
  Eigen::VectorXi labels(features.rows());
  detail::parallel_chunks(
      features.rows(), detail::resolve_thread_count(threads), [&](Index, Index begin, Index end) {
        for (Index t = begin; t < end; ++t) {
          Index nearest = 0;
          (chosen.rowwise() - features.row(t)).rowwise().squaredNorm().minCoeff(&nearest);
          labels(t) = static_cast<int>(nearest);
        }
      });
  return labels;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Region by region, as optimized_cubature.hpp says.
OptimizedCubature stratified_optimized_cubature(const char* caller, const ElasticBody& body,
                                                const OptimizedCubatureOptions& options,
                                                const detail::MaterialRegions& regions) {
  const auto start = std::chrono::steady_clock::now();
  const TrainingSet set = training_set(caller, body, options);  // its candidates go unused
  const Index tet_count = body.mesh.tets.rows();
  const auto region_count = static_cast<Index>(regions.ids.size());
  const int requested = static_cast<int>(std::min<Index>(requested_tets(body, options), tet_count));
  if (requested < region_count) {
    detail::refuse(caller, "asked for " + std::to_string(requested) + " tets for a mesh of " +
                               std::to_string(region_count) +
                               " material regions: every region needs at least one (ask for at "
                               "least " +
                               std::to_string(region_count) + ")");
  }
  const Eigen::VectorXd shares = regions.tets.cast<double>() *
                                 (static_cast<double>(requested) / static_cast<double>(tet_count));
  const Eigen::VectorXi counts =
      region_cluster_counts(regions.tets, shares, requested, options.per_region);
  const double whole_candidates = static_cast<double>(set.candidates.size());
  const int per_tet = options.candidates > 0 ? 1 : kCandidatesPerTet;
  const Index r = 12 * body.weights.cols();

  std::vector<std::pair<int, double>> chosen;  // (tet, weight)
  OptimizedCubature out;
  out.cubature.converged = true;
  for (Index g = 0; g < region_count; ++g) {
    std::vector<int> members;
    for (Index t = 0; t < tet_count; ++t) {
      if (regions.of_tet(t) == g) members.push_back(static_cast<int>(t));
    }
    const int size = regions.tets(g);
    const int wanted = std::min<int>(
        size, std::max<int>(static_cast<int>(std::ceil(whole_candidates * size /
                                                       static_cast<double>(tet_count))),
                            per_tet * counts(g)));
    // The first `wanted` steps of a Fisher-Yates shuffle of the region's tets.
    std::mt19937_64 bits(options.seed + 1 + static_cast<std::uint64_t>(g));
    for (int i = 0; i < wanted && wanted < size; ++i) {
      const int j = i + std::min(size - i - 1, static_cast<int>(detail::uniform_01(bits) *
                                                                static_cast<double>(size - i)));
      std::swap(members[static_cast<std::size_t>(i)], members[static_cast<std::size_t>(j)]);
    }
    members.resize(static_cast<std::size_t>(wanted));
    std::sort(members.begin(), members.end());
    const Eigen::VectorXi candidates = Eigen::Map<const Eigen::VectorXi>(members.data(), wanted);
    out.fit.candidates += wanted;

    Eigen::VectorXd volumes = Eigen::VectorXd::Zero(tet_count);
    for (Index t = 0; t < tet_count; ++t) {
      if (regions.of_tet(t) == g) volumes(t) = body.volumes(t);
    }
    const ElasticBody region{body.mesh,   body.weights, body.eigenvalues, volumes,
                             body.youngs, body.poisson, body.model};
    Eigen::VectorXd b = body_forces(region, set.poses.training, options.threads);
    const Eigen::VectorXd scales = pose_scales(b, r);
    if (!(scales.array() > 0.0).any()) continue;  // no pose strains the region
    Eigen::MatrixXd A = tet_forces(body, candidates, set.poses.training, options.threads);
    scale_rows(A, scales, r);
    scale_rows(b, scales, r);
    const GreedyCubature greedy =
        greedy_cubature(A, b, std::min(counts(g), wanted), options.tolerance);
    for (Index k = 0; k < greedy.columns.size(); ++k) {
      chosen.emplace_back(candidates(greedy.columns(k)), greedy.weights(k));
    }
    out.fit.greedy_iterations += greedy.iterations;
    out.cubature.converged = out.cubature.converged && greedy.converged;
  }
  if (chosen.empty()) detail::refuse(caller, "no candidate tet fits the sampled forces");
  std::sort(chosen.begin(), chosen.end());
  Cubature& cubature = out.cubature;
  cubature.tets.resize(static_cast<Index>(chosen.size()));
  cubature.weights.resize(static_cast<Index>(chosen.size()));
  for (std::size_t c = 0; c < chosen.size(); ++c) {
    cubature.tets(static_cast<Index>(c)) = chosen[c].first;
    cubature.weights(static_cast<Index>(c)) = chosen[c].second;
  }
  cubature.iterations = out.fit.greedy_iterations;
  out.fit.training_error =
      fit_error(tet_forces(body, cubature.tets, set.poses.training, options.threads),
                cubature.weights, body_forces(body, set.poses.training, options.threads), r);
  out.fit.training_seconds = seconds_since(start);
  cubature.labels = nearest_labels(body, cubature.tets, options.threads);
  out.fit.held_out_error =
      fit_error(tet_forces(body, cubature.tets, set.poses.held_out, options.threads),
                cubature.weights, body_forces(body, set.poses.held_out, options.threads), r);
  out.fit.training_poses = options.training_poses;
  out.fit.held_out_poses = options.held_out_poses;
  return out;
}

}  // namespace

OptimizedCubature optimized_cubature(const ElasticBody& body,
                                     const OptimizedCubatureOptions& options) {
  const char* caller = "optimized_cubature";
  if (options.per_region < 0) {
    detail::refuse(caller,
                   "per_region is " + std::to_string(options.per_region) + ", must be at least 0");
  }
  if (options.per_region > 0 && body.mesh.regions.size() == body.mesh.tets.rows()) {
    const detail::MaterialRegions regions = detail::material_regions(body.mesh.regions);
    if (regions.ids.size() > 1)
      return stratified_optimized_cubature(caller, body, options, regions);
  }
  const auto start = std::chrono::steady_clock::now();
  const TrainingSet set = training_set(caller, body, options);
  const Index r = 12 * body.weights.cols();
  Eigen::VectorXd b = body_forces(body, set.poses.training, options.threads);
  Eigen::MatrixXd A = tet_forces(body, set.candidates, set.poses.training, options.threads);
  const Eigen::VectorXd scales = pose_scales(b, r);
  if (!(scales.array() > 0.0).any()) {
    detail::refuse(caller, "the sampled poses strain no tet of the body (is every vertex pinned?)");
  }
  scale_rows(A, scales, r);
  scale_rows(b, scales, r);
  const GreedyCubature greedy = greedy_cubature(
      A, b, std::min(requested_tets(body, options), static_cast<int>(set.candidates.size())),
      options.tolerance);
  // The stepper needs at least one tet; only candidates that all push against the body's force
  // would leave none.
  if (greedy.columns.size() == 0)
    detail::refuse(caller, "no candidate tet fits the sampled forces");
  const double training_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  OptimizedCubature out;
  Cubature& cubature = out.cubature;
  cubature.tets = set.candidates(greedy.columns);
  cubature.weights = greedy.weights;
  cubature.labels = nearest_labels(body, cubature.tets, options.threads);
  cubature.iterations = greedy.iterations;
  cubature.converged = greedy.converged;

  ForceFit& fit = out.fit;
  fit.training_error = greedy.relative_residual;
  fit.held_out_error =
      fit_error(tet_forces(body, cubature.tets, set.poses.held_out, options.threads),
                cubature.weights, body_forces(body, set.poses.held_out, options.threads), r);
  fit.training_poses = options.training_poses;
  fit.held_out_poses = options.held_out_poses;
  fit.candidates = static_cast<int>(set.candidates.size());
  fit.greedy_iterations = greedy.iterations;
  fit.training_seconds = training_seconds;
  return out;
}

ForceFit force_fit(const ElasticBody& body, const Cubature& cubature,
                   const OptimizedCubatureOptions& options) {
  const char* caller = "force_fit";
  if (cubature.tets.size() == 0 || cubature.tets.size() != cubature.weights.size()) {
    detail::refuse(caller, "the cubature has " + std::to_string(cubature.tets.size()) +
                               " tets and " + std::to_string(cubature.weights.size()) + " weights");
  }
  const TrainingSet set = training_set(caller, body, options);
  const Index r = 12 * body.weights.cols();
  ForceFit fit;
  fit.training_error =
      fit_error(tet_forces(body, cubature.tets, set.poses.training, options.threads),
                cubature.weights, body_forces(body, set.poses.training, options.threads), r);
  fit.held_out_error =
      fit_error(tet_forces(body, cubature.tets, set.poses.held_out, options.threads),
                cubature.weights, body_forces(body, set.poses.held_out, options.threads), r);
  fit.training_poses = options.training_poses;
  fit.held_out_poses = options.held_out_poses;
  return fit;
}

}  // namespace smfem::cubature
