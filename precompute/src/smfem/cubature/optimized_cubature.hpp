#pragma once
// Optimized cubature (An, Kim and James 2008), next to the k-means cubature of cubature.hpp:
// tets and non-negative weights fitted to the reduced elastic forces of poses sampled in the
// skinning subspace (training_forces.hpp), chosen greedily (greedy_cubature.hpp).
//
// Candidates: every tet, or when |T| is larger a uniform sample (seeded; without replacement) of
// max(2048, 8 |C|) tets: the training matrix is (12m training poses) x candidates doubles (100 MB
// for m = 16 and 2048 candidates) and each greedy step reads all of it. The target b is always
// the force of the whole mesh, so a sample cannot fit it exactly: the NNLS optimum over the
// candidates uses a limited number of tets (about 200 of 2048 on the beam scene), and asking
// for more gives that many. 8 candidates per requested tet leave the greedy room to choose. Each
// pose's rows are divided by ||b_p||, so the fit error
//   ||A_C w - b|| / ||b|| = sqrt(mean over poses of ||g_C(U_p) - g(U_p)||^2 / ||g(U_p)||^2)
// is the RMS relative force error over the poses (poses with no force left out).
//
// Stratified by material region (per_region >= 1, the bake's default, when the mesh has more
// than one region in mesh.regions): fitted to the whole body's force, the greedy can leave a
// region (a stiff core that barely strains) without a tet, and even one it samples is only
// right at the baked moduli, since other regions' tets may stand in for it. Instead each
// region r's own force b_r = sum over its tets of V_t g_t(U) is fitted by its own tets, so the
// cubature of each region scales with that region's modulus like the region does. Each region
// gets n_r of the |C| tets by region_cluster_counts (cubature.hpp) with shares |C| |T_r| / |T|
// (what a uniform candidate sample gives each region) and at least
// min(per_region, floor(|C| / R), |T_r|); its candidates are a seeded uniform sample of its
// own tets (stream seed + 1 + r, r the region's rank by id), max(count |T_r| / |T|, 8 n_r)
// of them (count: the whole body's candidate count above), capped by |T_r|. Every region
// whose sampled poses strain it keeps at least one tet (its greedy stops early only at the
// tolerance or when no candidate helps); a region no pose strains (every vertex pinned) has
// no force to fit and gets none. The fit errors reported are the whole body's, as above.
//
// The result is the Cubature of cubature.hpp, so the asset does not change: tets ascending,
// weights the NNLS weights (m^3; they need not sum to the volume), and labels for display: each
// tet's cubature tet is the one nearest it in the k-means features (cubature_features; lowest
// index on ties), so the page's cluster colours mean the same for both methods.
#include <cstdint>

#include <Eigen/Core>

#include "smfem/cubature/cubature.hpp"
#include "smfem/cubature/training_forces.hpp"

namespace smfem::cubature {

// The candidate rule above: max(kMinCandidates, kCandidatesPerTet |C|) tets, capped by |T|.
inline constexpr int kMinCandidates = 2048;
inline constexpr int kCandidatesPerTet = 8;

struct OptimizedCubatureOptions {
  int tets = 0;  // |C|; 0 means 20 m, capped by the candidates
  int training_poses = 32;
  int held_out_poses = 8;
  int candidates = 0;       // 0: max(2048, 8 |C|); capped by |T|
  double tolerance = 1e-6;  // stop early once the training fit error is this small
  // At least this many tets per material region, each region fitted on its own (above); 0:
  // one fit of the whole body, as An et al. (a region may then get no tet).
  int per_region = kDefaultTetsPerRegion;
  std::uint64_t seed = kDefaultSeed;
  int threads = 0;  // 0: one per hardware thread
};

// How well a cubature reproduces the body's reduced elastic force on the sampled poses.
struct ForceFit {
  double training_error = 0.0;  // the fit error above, over the training poses
  double held_out_error = 0.0;  // the same over the held-out poses
  int training_poses = 0;
  int held_out_poses = 0;
  int candidates = 0;             // tets the optimization chose from (0: not optimized)
  int greedy_iterations = 0;      // candidates added (0: not optimized)
  double training_seconds = 0.0;  // poses, their forces and the greedy fit (0: not optimized)
};

struct OptimizedCubature {
  Cubature cubature;  // iterations, converged: the greedy's steps, and whether it reached |C|
                      // or the tolerance
  ForceFit fit;
};

// Throws std::invalid_argument for options.tets < 0, non-positive pose or candidate counts, a
// negative tolerance, per_region < 0, fewer tets than material regions (stratified), or a body
// whose arrays do not fit its mesh (training_forces.hpp).
OptimizedCubature optimized_cubature(const ElasticBody& body,
                                     const OptimizedCubatureOptions& options = {});

// The fit of any cubature (k-means's, say) on the poses optimized_cubature trains and tests on
// with the same options: the two methods compared on the same data.
ForceFit force_fit(const ElasticBody& body, const Cubature& cubature,
                   const OptimizedCubatureOptions& options = {});

}  // namespace smfem::cubature
