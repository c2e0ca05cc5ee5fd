#pragma once
// The elastic energy Laplacian H_w of Subspace MFEM (Trusty et al. 2023), eq. 9: the sum of the
// three coordinate blocks of the linear-elasticity Hessian at rest, the operator whose generalized
// eigenvectors (with the lumped mass) are the skinning weights.
//
// Linear elasticity per tet: psi = vol * (mu eps:eps + lambda/2 tr(eps)^2), eps = sym(grad u),
// grad u = sum_j u_j grad phi_j^T. Its Hessian between corner a, coordinate p and corner b,
// coordinate q is
//   K_(a p)(b q) = vol * (mu (g_a . g_b) delta_pq + mu g_aq g_bp + lambda g_ap g_bq),
// g_j = grad phi_j. Summing the three blocks p = q gives, per tet,
//   H_ab = vol * (4 mu + lambda) * (g_a . g_b),
// a cotangent-like Laplacian weighted by each tet's own (4 mu + lambda): stiff tets tie their
// corners' weights together far more strongly than soft ones.
//
// Sign and shape: |V| x |V|, symmetric positive semi-definite; every function constant on each
// tet-connected component is in its null space (rows sum to zero). The sparsity pattern is the
// vertex adjacency of the tets, entries that happen to be zero kept (skinning_eigenmodes reads
// the components from it). Scales as s under uniform mesh scaling by s.
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "smfem/mesh/types.hpp"

namespace smfem::subspace {

// youngs_modulus (E > 0) and poisson_ratio (-1 < nu < 1/2): |T| each.
// Throws std::invalid_argument on a size mismatch, a bad material value or a bad tet.
Eigen::SparseMatrix<double> elastic_laplacian(
    const mesh::TetMesh& mesh, const Eigen::Ref<const Eigen::VectorXd>& youngs_modulus,
    const Eigen::Ref<const Eigen::VectorXd>& poisson_ratio);

}  // namespace smfem::subspace
