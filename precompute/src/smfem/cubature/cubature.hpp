#pragma once
// Material-aware cubature by clustering (paper 000, section 5.2, eq. 11): tets are clustered by
// their skinning weights, each cluster is integrated by one tet.
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
#include <cstdint>

#include <Eigen/Core>

#include "smfem/cubature/kmeans.hpp"

namespace smfem::cubature {

struct CubatureOptions {
  int clusters = 0;  // |C|; 0 means 20 m (m = number of modes), capped by |T|
  std::uint64_t seed = kDefaultSeed;
  int max_iterations = 300;
  int threads = 0;  // 0: one per hardware thread
};

struct Cubature {
  Eigen::VectorXi tets;     // |C| representative tets, ascending; tets(c) integrates cluster c
  Eigen::VectorXd weights;  // |C| total rest volume of each cluster
  Eigen::VectorXi labels;   // |T| cluster of each tet
  int iterations = 0;       // Lloyd iterations run
  bool converged = false;   // k-means stopped because no label changed
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

}  // namespace smfem::cubature
