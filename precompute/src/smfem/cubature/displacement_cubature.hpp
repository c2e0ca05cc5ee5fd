#pragma once
// Optimized cubature (An, Kim and James 2008) for a displacement basis u = Phi q (linear modes,
// modal derivatives: the subspaces that paper was made for; subspace/comparison_bases.hpp),
// the counterpart of optimized_cubature.hpp's for the skinning subspace, with the same greedy
// NNLS (greedy_cubature.hpp), candidate rule, pose scaling and fit error.
//
// Tet t deforms to F_t = I + J_t q, J_t = dvec(F_t)/dq (9 x k, column-major vec(F)), and pushes
// on the coordinates with g_t(q) = J_t^T vec(P(F_t)) per unit volume, P = dpsi/dF of the
// material model through the stretch (as training_forces.hpp). The body's force is
// g(q) = sum_t V_t g_t(q). Poses, deterministic for a seed: the first training poses move one
// deforming column each (coordinate uniform in [-1, 1]; a quarter of the training poses, or as
// many as there are deforming columns if fewer), the rest every column
// uniformly in [-1, 1] times sqrt(gamma_min / gamma_i), gamma_i the column's Rayleigh quotient
// phi^T K phi / phi^T M phi (the rigid columns, quotient 0 or below 1e-10 of the largest,
// count as gamma_min), each then scaled so that the volume-weighted RMS of ||F_t - I||_F is a
// strain drawn log-uniformly in [kMinStrain, kMaxStrain]. One fit of the whole body (no
// stratification by region): An et al.'s.
#include <cstdint>

#include <Eigen/Core>

#include "smfem/cubature/optimized_cubature.hpp"
#include "smfem/mesh/types.hpp"
#include "smfem/sim/material_model.hpp"

namespace smfem::cubature {

// A view: the arrays must outlive it.
struct DisplacementBody {
  const mesh::TetMesh& mesh;
  const Eigen::MatrixXd& basis;      // Phi, 3|V| x k, row 3v + d
  const Eigen::VectorXd& quotients;  // k Rayleigh quotients, >= 0 (0 for the rigid columns)
  const Eigen::VectorXd& volumes;    // |T|
  const Eigen::VectorXd& youngs;     // |T|, Pa
  const Eigen::VectorXd& poisson;    // |T|
  sim::MaterialModel model;
};

// options.tets: |C| (0: 20 k / 12, the skinning rule for the same coordinates), capped by the
// candidates; the greedy may stop with fewer (optimized_cubature.hpp); per_region is ignored. The
// result's labels are empty (nothing draws them). Throws std::invalid_argument for sizes that do
// not fit the mesh, bad options (as optimized_cubature), or poses that strain no tet.
OptimizedCubature optimized_displacement_cubature(const DisplacementBody& body,
                                                  const OptimizedCubatureOptions& options = {});

}  // namespace smfem::cubature
