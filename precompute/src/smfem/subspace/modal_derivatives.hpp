#pragma once
// Modal derivatives (Barbic and James 2005): the second-order terms of the static response to
// loads in the directions of the linear modes (linear_modes.hpp),
//
//   Psi_ij = -K^-1 (dK/dphi_i) phi_j,   i <= j (Psi_ij = Psi_ji),
//
// dK/dphi_i = d/de K(e phi_i) at e = 0 the derivative of the tangent stiffness of the nonlinear
// material along mode i. Loaded by f = K Phi q, the static displacement is
// u(q) = Phi q + 1/2 sum_ij q_i q_j Psi_ij + O(|q|^3); the subspace [Phi, Psi] follows the
// first bends of large deformation that the modes alone miss.
//
// dK/dphi_i by central differences of the material's own tangent stiffness, per tet:
//
//   dQ_t = (d2psi/dF2(I + e H_t) - d2psi/dF2(I - e H_t)) / (2 e),   H_t = grad phi_i on tet t,
//
// with e chosen so that the largest entry of e H_t over the tets is `relative_step`. Why
// differences rather than B&J's closed form: theirs is for St. Venant-Kirchhoff, while the
// subspaces are compared under the materials the stepper runs (fixed corotational, stable
// neo-Hookean), whose third derivatives the energies do not provide. The central difference
// carries an error of relative size about e^2 (1e-8 at the default step), against rounding of
// about 1e-16 / e = 1e-12. ARAP is refused: it has no volume term, so its rest
// Hessian is not the K the modes come from (the formula needs the K of the same material).
//
// Free parts: K is singular along their rigid modes R (the leading columns of the modes), and
// the right-hand side has components along them (dK along a mode exerts a net torque at
// second order), so the system is solved as inertia relief: the load is balanced by the rigid
// inertia, f - M R R^T f, and Psi is taken M-orthogonal to R (the rigid part of the static
// response belongs to the rigid modes already in the basis). Derivatives along the rigid modes
// themselves are skipped: dK along a translation is 0, and along an infinitesimal rotation it
// only turns the stiffness with the body, a change of frame that no fixed displacement basis
// can follow (the rigid frame of Terzopoulos and Witkin 1988 that Subspace MFEM
// (Trusty et al. 2023), section 5.1, cites is the usual remedy). The solve factors K - sigma M once
// (multifrontal Cholesky), sigma = 0 when every part is pinned and a small negative shift
// otherwise, solves for all pairs at once (one pass over the factor per solve) and refines
// iteratively until the shift's effect is below 1e-10 or rounding, then checks the residual.
#include <array>
#include <vector>

#include <Eigen/Core>

#include "smfem/mesh/types.hpp"
#include "smfem/sim/material_model.hpp"
#include "smfem/subspace/linear_modes.hpp"

namespace smfem::subspace {

struct ModalDerivativeOptions {
  // The central differences' step, as the largest change of any entry of any tet's F.
  double relative_step = 1e-4;
  // Threads of the sparse factorization; 0: one per hardware thread.
  int threads = 0;
};

struct ModalDerivatives {
  // 3|V| x P, column c = Psi of pairs[c], unknown 3v + d as in the modes; pinned rows 0. Not
  // normalized: Psi has the units of phi^2 / length.
  Eigen::MatrixXd vectors;
  // (i, j), i <= j, indices of the modes' non-rigid columns, i-major: (r, r), (r, r + 1), ...
  std::vector<std::array<int, 2>> pairs;
};

// mesh, youngs_modulus, poisson_ratio: as elastic_stiffness (|T| each); material: the
// nonlinear material (fixed_corotational or stable_neo_hookean); mass and pinned_vertices as
// given to linear_modes, and modes its result (every non-rigid column is differentiated:
// m' (m' + 1) / 2 columns for m' of them). Throws std::invalid_argument on ARAP, sizes that
// disagree, modes without a non-rigid column, a step that is not positive and finite, or bad
// mesh and material input; std::runtime_error if K is singular beyond the free parts' rigid
// modes (pins on one line leave a rotation free): the factorization fails, or a residual stays
// above 1e-6 of its load.
ModalDerivatives modal_derivatives(const mesh::TetMesh& mesh,
                                   const Eigen::Ref<const Eigen::VectorXd>& youngs_modulus,
                                   const Eigen::Ref<const Eigen::VectorXd>& poisson_ratio,
                                   sim::MaterialModel material,
                                   const Eigen::Ref<const Eigen::VectorXd>& mass,
                                   const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices,
                                   const LinearModes& modes,
                                   const ModalDerivativeOptions& options = {});

}  // namespace smfem::subspace
