#pragma once
// The linear elastic stiffness K of a tet mesh at rest: the Hessian of
//
//   sum_t vol_t (mu_t eps:eps + lambda_t / 2 tr(eps)^2),   eps = sym(grad u),
//
// over the vertex displacements u, numbered vertex-major: unknown 3v + d is coordinate d of
// vertex v. Between corner a, coordinate p and corner b, coordinate q of a tet (g_j = grad phi_j)
//
//   K_(a p)(b q) = vol (mu (g_a . g_b) delta_pq + mu g_aq g_bp + lambda g_ap g_bq),
//
// whose three diagonal coordinate blocks sum to the elastic energy Laplacian
// (elastic_laplacian.hpp). It is the rest Hessian of the fixed-corotational and stable
// neo-Hookean materials (energies/), which both linearize to linear elasticity with the same
// (mu, lambda).
//
// Sign and shape: 3|V| x 3|V|, symmetric positive semi-definite; its null space holds every
// field rigid on each tet-connected part (translations and infinitesimal rotations w x X). The
// pattern is the full 3 x 3 block of every pair of vertices sharing a tet, entries that happen to
// be zero kept (linear_modes reads the parts from it). Scales as s under uniform mesh scaling
// by s.
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "smfem/mesh/types.hpp"

namespace smfem::subspace {

// youngs_modulus (E > 0) and poisson_ratio (-1 < nu < 1/2): |T| each.
// Throws std::invalid_argument on a size mismatch, a bad material value or a bad tet.
Eigen::SparseMatrix<double> elastic_stiffness(
    const mesh::TetMesh& mesh, const Eigen::Ref<const Eigen::VectorXd>& youngs_modulus,
    const Eigen::Ref<const Eigen::VectorXd>& poisson_ratio);

}  // namespace smfem::subspace
