#pragma once
// The three subspaces of Subspace MFEM (Trusty et al. 2023), Fig. 5 on one body, as displacement
// bases (displacement_basis.hpp), each with the wall-clock time it took to build from the mesh and
// its materials (its "training time"; the lumped mass, shared, is not counted):
//
//   skinning           the skinning eigenmodes (skinning_eigenmodes.hpp) of m weights through
//                      the skinning map: 12m coordinates; the elastic Laplacian, the eigensolve
//                      and the basis;
//   linear             k linear modes (linear_modes.hpp); the stiffness and the eigensolve;
//   modal_derivatives  k' non-rigid linear modes (plus the free parts' rigid ones) and their
//                      modal derivatives (modal_derivatives.hpp), mass-orthonormalized with
//                      near-dependent columns dropped; the stiffness, its own eigensolve, the
//                      derivatives and the orthonormalization.
//
// By default the three have about the same number of coordinates: k = 12m, and k' the largest
// with rigid + k' + k'(k' + 1) / 2 <= 12m.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "smfem/mesh/types.hpp"
#include "smfem/sim/material_model.hpp"

namespace smfem::subspace {

struct BasisSizes {
  int skinning_modes = 0;    // m >= 1
  int linear_modes = 0;      // k; 0: 12m
  int derivative_modes = 0;  // k' (non-rigid); 0: the largest that fits 12m coordinates
  // The nonlinear material the derivatives differentiate (fixed_corotational or
  // stable_neo_hookean).
  sim::MaterialModel material = sim::MaterialModel::fixed_corotational;
  int threads = 0;  // of the sparse factorizations; 0: one per hardware thread
};

struct ComparisonBasis {
  std::string name;       // "skinning", "linear" or "modal_derivatives"
  Eigen::MatrixXd basis;  // 3|V| x k, unknown 3v + d; pinned rows 0
  double seconds = 0.0;   // to build it
  int modes = 0;          // skinning weights, linear modes, or non-rigid modes differentiated
  int rigid_modes = 0;    // the free parts' constant (skinning) or rigid (linear) modes among them
  int dropped = 0;        // modal_derivatives: near-dependent columns dropped
};

// The comparison bases a bake can write as a displacement basis (smfem-bake --comparison-basis;
// wasm/src/smfem/displacement/displacement_model.hpp), by the names ComparisonBasis carries.
inline constexpr std::array<std::string_view, 2> kDisplacementBasisNames = {"linear",
                                                                            "modal_derivatives"};

// For messages: "\"linear\" or \"modal_derivatives\"".
std::string displacement_basis_choices();

// mesh, youngs_modulus, poisson_ratio, density: the body (|T| each); pinned_vertices as in
// skinning_eigenmodes. Throws what the builders throw for bad input.
std::vector<ComparisonBasis> comparison_bases(
    const mesh::TetMesh& mesh, const Eigen::Ref<const Eigen::VectorXd>& youngs_modulus,
    const Eigen::Ref<const Eigen::VectorXd>& poisson_ratio,
    const Eigen::Ref<const Eigen::VectorXd>& density,
    const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices, const BasisSizes& sizes);

// One of them by name (kDisplacementBasisNames), as comparison_bases builds it with the same
// sizes: its coordinates match 12 sizes.skinning_modes unless sizes says otherwise. Throws
// std::invalid_argument for another name (naming the choices), and what the builders throw.
ComparisonBasis displacement_basis(std::string_view name, const mesh::TetMesh& mesh,
                                   const Eigen::Ref<const Eigen::VectorXd>& youngs_modulus,
                                   const Eigen::Ref<const Eigen::VectorXd>& poisson_ratio,
                                   const Eigen::Ref<const Eigen::VectorXd>& density,
                                   const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices,
                                   const BasisSizes& sizes);

// The largest k' >= 1 with rigid + k' + k'(k' + 1) / 2 <= coordinates (1 if none fits).
int fitting_derivative_modes(int coordinates, int rigid);

}  // namespace smfem::subspace
