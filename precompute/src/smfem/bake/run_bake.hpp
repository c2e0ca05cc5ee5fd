#pragma once
// Stages 2 to 5 of the bake (Subspace MFEM, Trusty et al. 2023, section 5): the elastic energy
// Laplacian and lumped mass, the skinning eigenmodes (eq. 9), the basis data of eq. 10 the stepper
// needs, the cubature (clustered, eq. 11, or optimized by NNLS after An et al. 2008:
// input.cubature_method), and the render surface's weights. Deterministic: the same input
// and seed give the same result bit for bit, whatever the thread count.
#include <functional>
#include <optional>
#include <string>

#include <Eigen/Core>

#include "smfem/bake/bake_input.hpp"
#include "smfem/bake/reduced_forces.hpp"
#include "smfem/cubature/cubature.hpp"
#include "smfem/cubature/optimized_cubature.hpp"
#include "smfem/subspace/basis.hpp"
#include "smfem/subspace/skinning_eigenmodes.hpp"

namespace smfem::bake {

struct StageTimes {
  double laplacian = 0.0;   // Laplacian and lumped mass
  double eigensolve = 0.0;  // eigenmodes and the reduced mass data
  double cubature = 0.0;    // k-means or NNLS training (and fit errors), and Y_t of the tets
  double render = 0.0;      // render weights
};

// Shapes: m modes, r4 = 4m, C cubature tets, |V| / |T| of the input mesh. The conventions are
// those of subspace/basis.hpp: b_v[4i + k] = W_vi [X_v; 1]_k.
struct BakeResult {
  subspace::SkinningModes modes;     // W (|V| x m, M-orthonormal), eigenvalues ascending
  int components = 0;                // tet-connected parts of the mesh
  Eigen::VectorXd tet_volumes;       // |T|
  Eigen::VectorXd vertex_mass;       // |V|, lumped, kg
  Eigen::MatrixXd mass_block;        // r4 x r4, sum_v m_v b_v b_v^T
  Eigen::VectorXd mass_vector;       // r4, sum_v m_v b_v
  Eigen::MatrixXd first_moment;      // 3 x r4, row d: sum_v m_v X_v,d b_v
  double total_mass = 0.0;           // kg
  Eigen::Vector3d rest_centroid;     // mass-weighted
  std::vector<ReducedForce> forces;  // one per input.forces
  cubature::Cubature cubature;       // representatives, weights, labels per tet
  // The force-fit errors on sampled poses: always for NNLS, for k-means with
  // settings.cubature_fit_error.
  std::optional<cubature::ForceFit> cubature_fit;
  subspace::TetBasisGradients Y;           // (C r4) x 3, Y_c of cubature tet c
  Eigen::MatrixXd representative_weights;  // C x m, W averaged onto each representative tet
  Eigen::MatrixXd render_weights;          // |Vr| x m
  StageTimes seconds;
};

using Progress = std::function<void(const std::string& message)>;

// Throws std::invalid_argument for input the solvers refuse (too many modes for the free
// vertices, fewer modes than unpinned parts, ...) and std::runtime_error if a solver fails.
BakeResult run_bake(const BakeInput& input, const BakeSettings& settings,
                    const Progress& progress = {});

// The stepper's material model named in the scene's solver settings (the one the asset will
// run with), else the stepper's default.
sim::MaterialModel material_model(const BakeInput& input);

// The number of tet-connected parts of the mesh (vertices shared by tets join them).
int connected_components(const mesh::TetMesh& mesh);

}  // namespace smfem::bake
