#pragma once
// The fine model's vibration modes at rest, the truth EigenFit fits the coarse model to
// (Chen et al. 2019, §3.1): the smallest generalized eigenpairs of
//
//   K phi = lambda M phi,
//
// K the rest Hessian of the stepper's material model over the fine tet mesh (3D displacement
// modes: linear elasticity with each tet's mu and lambda for the fixed corotational and stable
// neo-Hookean models, which linearize to it; ARAP's has no volume term, lambda = 0), M the
// lumped mass, pinned vertices Dirichlet; by subspace/linear_modes.hpp (Spectra's shift-invert
// Lanczos on the multifrontal Cholesky). The rigid modes of free parts are left out.
#include <vector>

#include <Eigen/Core>

#include "smfem/mesh/types.hpp"
#include "smfem/sim/material_model.hpp"

namespace smfem::eigenfit {

struct FineSpectrum {
  Eigen::MatrixXd vectors;      // 3n x count, vertex-major, M-orthonormal
  Eigen::VectorXd eigenvalues;  // count, ascending, 1/s^2
  Eigen::VectorXd vertex_mass;  // n, kg
  int rigid_modes = 0;          // left out: 6 per tet-connected part without a pin
};

// youngs, poisson, density: per tet. Throws what linear_modes throws (std::invalid_argument
// for too many modes, std::runtime_error if the solver fails).
FineSpectrum fine_spectrum(const mesh::TetMesh& mesh, const Eigen::VectorXd& youngs,
                           const Eigen::VectorXd& poisson, const Eigen::VectorXd& density,
                           const std::vector<int>& pinned, sim::MaterialModel material, int count,
                           int threads);

// The tet-connected parts that hold no pinned vertex.
int free_parts(const mesh::TetMesh& mesh, const std::vector<int>& pinned);

}  // namespace smfem::eigenfit
