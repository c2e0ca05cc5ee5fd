#pragma once
// Training data of optimized cubature (An et al. 2008): poses sampled in the skinning subspace
// and the reduced elastic forces they produce, per tet and over the whole mesh.
//
// A pose is U (4m x 3, column d is u_d; subspace/basis.hpp). Tet t deforms to F_t = I + U^T Y_t
// and pushes on the reduced coordinates with
//   g_t(U) = Y_t P(F_t)^T   (4m x 3, per unit rest volume),
// P = dpsi/dF of the scene's material model, evaluated through the stretch as the FEM step
// does: dpsi/dvec(F) = (ds/dvec(F))^T dpsi/ds (sim/step/fem_step.cpp). g_t is stored column-major,
// a 12m-vector in u's order [u_0; u_1; u_2]. The body's reduced elastic force is
// g(U) = sum_t V_t g_t(U); a cubature approximates it by sum_c w_c g_c(U).
//
// Poses, deterministic for a seed (std::mt19937_64 through detail::uniform_01):
//   - the first training poses deform one mode each (mode i's 3 x 4 block uniform in [-1, 1],
//     the rest zero), the non-constant modes in order, up to a quarter of the training poses;
//   - every other pose fills mode i's block uniformly in [-1, 1] times sqrt(gamma_min /
//     gamma_i) (the same expected energy per mode; constant modes count as gamma_min), so the
//     low modes that dominate at run time dominate here too;
//   - each pose is then scaled so that the volume-weighted RMS of ||F_t - I||_F over the mesh is
//     a strain drawn log-uniformly in [kMinStrain, kMaxStrain]: from the nearly linear strains
//     of a body sagging under gravity (about 1e-3: without them the beam scene's NNLS cubature
//     sagged 31 % less than exact integration at |C| = 80, with them 23 %) to moderate ones,
//     where the materials are nonlinear but nothing is near inversion.
// Held-out poses are drawn after the training poses from the same stream, all random.
#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "smfem/mesh/types.hpp"
#include "smfem/sim/material_model.hpp"

namespace smfem::cubature {

inline constexpr double kMinStrain = 1e-3;
inline constexpr double kMaxStrain = 0.3;

// What the forces depend on. A view: the arrays must outlive it.
struct ElasticBody {
  const mesh::TetMesh& mesh;
  const Eigen::MatrixXd& weights;      // W, |V| x m
  const Eigen::VectorXd& eigenvalues;  // m, >= 0 (0 for constant modes)
  const Eigen::VectorXd& volumes;      // |T| rest volumes
  const Eigen::VectorXd& youngs;       // |T|, Pa
  const Eigen::VectorXd& poisson;      // |T|
  sim::MaterialModel model;
};

using Pose = Eigen::Matrix<double, Eigen::Dynamic, 3>;  // U, 4m x 3

struct Poses {
  std::vector<Pose> training;
  std::vector<Pose> held_out;
};

// The pose sampling's scale per mode (above; displacement_cubature.hpp samples the same way):
// the deforming modes, those with gamma_i above 1e-10 of the largest, ascending, and
// sqrt(gamma_min / gamma_i) for each of them (1 for the others).
struct PoseAmplitudes {
  std::vector<Eigen::Index> deforming;
  Eigen::VectorXd amplitude;
};
PoseAmplitudes pose_amplitudes(const Eigen::Ref<const Eigen::VectorXd>& eigenvalues);

// Throws std::invalid_argument for negative counts, a mesh without tets or sizes that disagree.
Poses sample_poses(const ElasticBody& body, int training, int held_out, std::uint64_t seed);

// (12m poses) x tets.size(): column c holds g_t(U_p) of tet t = tets(c) for each pose p in
// turn (rows [12m p, 12m (p + 1))). Per unit volume: no V_t.
Eigen::MatrixXd tet_forces(const ElasticBody& body, const Eigen::Ref<const Eigen::VectorXi>& tets,
                           const std::vector<Pose>& poses, int threads);

// 12m poses: g(U_p) = sum over all tets of V_t g_t(U_p), stacked by pose. The tets go in fixed
// chunks (memory does not grow with |T|), summed in order: the same bits for any thread count.
Eigen::VectorXd body_forces(const ElasticBody& body, const std::vector<Pose>& poses, int threads);

}  // namespace smfem::cubature
