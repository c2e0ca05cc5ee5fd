#pragma once
// Material-aware cubature by clustering (Subspace MFEM, Trusty et al. 2023, section 5.2, eq. 11):
// tets are clustered by their skinning weights, each cluster is integrated by one tet.
//
// Features: row t = the tet-averaged weights (|T| x m) with column i scaled by gamma_i^-2,
// which favours the low-energy modes that are likely at run time. Modes with
// gamma_i <= 1e-10 max_j gamma_j are dropped: they are the constant modes of floating parts
// (skinning_eigenmodes reports them with gamma = 0 exactly) and carry no information about
// where the body bends. All features are then multiplied by the smallest kept gamma^2, which
// changes no distance ratio (k-means is scale invariant) and keeps the numbers near 1. Where
// every mode is constant (an affine body: every tet deforms alike), one tet holding the whole
// volume integrates it exactly, and that is what the one zero feature gives.
//
// Clusters come from kmeans() (k-means++ seeding with a fixed seed, Lloyd to convergence);
// each cluster's representative is its tet nearest the cluster centroid in feature space
// (lowest tet index on ties) and its weight the cluster's total rest volume, so the weights
// sum to the volume of the mesh. Clusters are numbered by ascending representative tet.
//
// Stratified by material region (stratified_kmeans_cubature, the bake's default): the paper's
// clustering ignores materials, so a region whose weights barely vary (a stiff core, a sword)
// can end up inside clusters represented by a tet of another region: its Young's modulus then
// never reaches the solver, and its volume is integrated with another material's modulus.
// Clustering each region on its own fixes both: every cluster lies in one region, so each
// region's weights sum to that region's volume, and every region holds at least
//   floor_r = min(per_region, floor(|C| / R), |T_r|)
// cubature tets (R regions present, |T_r| tets in region r). Why this allocation: the rest of
// |C| follows the paper's own clustering, so stratifying changes the result only where that
// clustering straddled regions or starved one. A k-means over the whole body with the same
// |C| gives each region a share s_r = sum over clusters c of |c in r| / |c| (the clusters it
// would own, fractions for clusters that straddle), which puts more clusters where the
// features spread, i.e. where the body bends (Trusty et al. 2023, Fig. 6). Each region starts at
// floor_r and each further cluster goes to the region furthest below its share (largest s_r - n_r,
// the lowest region on ties) among those with tets to spare: the integer allocation nearest the
// shares above the floors, summing to |C| exactly. Then each region runs k-means (same seed)
// over its own tets' features with its n_r clusters. Cost: one whole-body k-means more than the
// paper's (the regions' runs together cost about one).
#include <cstdint>

#include <Eigen/Core>

#include "smfem/cubature/kmeans.hpp"
#include "smfem/mesh/types.hpp"

namespace smfem::cubature {

struct CubatureOptions {
  int clusters = 0;  // |C|; 0 means 20 m (m = number of modes), capped by |T|
  std::uint64_t seed = kDefaultSeed;
  int max_iterations = 300;
  int threads = 0;  // 0: one per hardware thread
};

// How a stratified cubature split the body (all zero for the plain clustering).
struct Strata {
  int regions = 0;            // R material regions
  int components = 0;         // connected components of the regions (0: not counted)
  bool by_component = false;  // clustered per component; false: per region
  int minimum = 0;            // min(per_region, floor(|C| / strata)); a stratum with fewer
                              // tets gives them all
};

struct Cubature {
  Eigen::VectorXi tets;     // |C| representative tets, ascending; tets(c) integrates cluster c
  Eigen::VectorXd weights;  // |C| total rest volume of each cluster
  Eigen::VectorXi labels;   // |T| cluster of each tet
  int iterations = 0;       // Lloyd iterations run
  bool converged = false;   // k-means stopped because no label changed
  Strata strata;            // stratified_kmeans_cubature only
};

// The clustering features described above: |T| x (modes kept).
FeatureMatrix cubature_features(const Eigen::Ref<const Eigen::MatrixXd>& tet_weights,
                                const Eigen::Ref<const Eigen::VectorXd>& eigenvalues);

// tet_volumes: |T| positive; tet_weights: |T| x m (tet_averaged_weights); eigenvalues: m.
// |C| can come out below the request only if the features have fewer distinct rows.
// Throws std::invalid_argument on size mismatches, non-positive volumes, non-finite or
// negative eigenvalues, or clusters < 0.
Cubature kmeans_cubature(const Eigen::Ref<const Eigen::VectorXd>& tet_volumes,
                         const Eigen::Ref<const Eigen::MatrixXd>& tet_weights,
                         const Eigen::Ref<const Eigen::VectorXd>& eigenvalues,
                         const CubatureOptions& options = {});

// The bake's default minimum of cubature tets per material region (smfem-bake
// --cubature-per-region): three, so that a region is sampled at more than one point of its
// weight field (one tet would see a single strain of the region) while costing at most 3 R of
// |C| (R: the regions; the default |C| is 20 m).
inline constexpr int kDefaultTetsPerRegion = 3;

// The clusters of each region, as described above. region_tets: R counts >= 1; shares: R
// values >= 0 (s_r); total: |C| with R <= total <= sum of region_tets; per_region >= 1.
// Returns R counts n_r with floor_r <= n_r <= region_tets(r) and sum n_r = total. Throws
// std::invalid_argument otherwise, naming the problem.
Eigen::VectorXi region_cluster_counts(const Eigen::Ref<const Eigen::VectorXi>& region_tets,
                                      const Eigen::Ref<const Eigen::VectorXd>& shares, int total,
                                      int per_region);

// kmeans_cubature stratified by tet_regions (|T|, any integer per tet: the material region).
// |C| (options.clusters, 0: 20 m) is capped by |T| as above; it comes out below that only if a
// region's features have fewer distinct rows than its n_r. Clusters are numbered by ascending
// representative tet; iterations is the largest of the regions' runs, converged whether all
// converged. Throws std::invalid_argument for what kmeans_cubature refuses, tet_regions of
// the wrong size, per_region < 1, or fewer cubature tets than regions (the message says how
// many regions there are).
Cubature stratified_kmeans_cubature(const Eigen::Ref<const Eigen::VectorXd>& tet_volumes,
                                    const Eigen::Ref<const Eigen::MatrixXd>& tet_weights,
                                    const Eigen::Ref<const Eigen::VectorXd>& eigenvalues,
                                    const Eigen::Ref<const Eigen::VectorXi>& tet_regions,
                                    const CubatureOptions& options = {},
                                    int per_region = kDefaultTetsPerRegion);

// Stratified by connected component of each region (the bake's default): as above with each
// component of each region (tets of one region sharing a vertex; detail/region_components.hpp
// says why vertices, not faces) in place of the region. One region can be several pieces of
// body that its weights do not tell apart (the crab's ten knees are one "joints" region): per
// region, k-means put 0 of 342 cubature tets in one knee and 189 in another, so nothing saw
// that knee's strain and its leg stretched freely. Per component every piece gets
//   min(per_region, floor(|C| / K), |T_k|)   (K components, |T_k| tets in component k)
// and the rest follows the shares as above, so every region still gets at least its minimum
// while |C| >= per_region K, and each component's weights sum to its volume. With
// R <= |C| < K this falls back to the clustering by region (strata.by_component false) rather
// than refuse. tets: |T| x 4 vertex indices (mesh.tets). Throws as above, or if tets has
// the wrong number of rows.
Cubature stratified_kmeans_cubature(const Eigen::Ref<const Eigen::VectorXd>& tet_volumes,
                                    const Eigen::Ref<const Eigen::MatrixXd>& tet_weights,
                                    const Eigen::Ref<const Eigen::VectorXd>& eigenvalues,
                                    const Eigen::Ref<const Eigen::VectorXi>& tet_regions,
                                    const Eigen::Ref<const mesh::Tets>& tets,
                                    const CubatureOptions& options = {},
                                    int per_region = kDefaultTetsPerRegion);

}  // namespace smfem::cubature
