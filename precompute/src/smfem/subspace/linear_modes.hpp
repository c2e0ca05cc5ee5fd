#pragma once
// Linear modal analysis: the m lowest vibration modes of the linear elastic stiffness at rest,
// the m smallest generalized eigenpairs of
//
//   K phi = lambda M phi,
//
// K the 3|V| x 3|V| stiffness (elastic_stiffness.hpp), M the lumped mass (lumped_mass.hpp) on
// each of a vertex's 3 coordinates. Each phi is a displacement field (unknown 3v + d is
// coordinate d of vertex v) and lambda = omega^2, in 1/s^2. The comparison subspaces of
// Subspace MFEM (Trusty et al. 2023), Fig. 5 are built on them (modal_derivatives.hpp).
//
// Pinned vertices are Dirichlet conditions: their rows are exactly zero and they are left out
// of the problem. A tet-connected part that holds no pinned vertex (a free body) has six rigid
// modes with lambda = 0: the three translations and the three infinitesimal rotations
// w x (X - c) about its centre of mass c, along the principal axes of its inertia. They are
// kept, as linear modal analysis of a free body does, and put in by hand (exact, and the
// iteration runs on their M-orthogonal complement, as skinning_eigenmodes.hpp does with its
// constant modes): they come first, six per free part in the order of each part's smallest
// vertex (translations x, y, z, then rotations by ascending principal moment), eigenvalue
// reported as exactly 0. The rest come from the shift-inverted Lanczos of
// detail/smallest_eigenpairs.hpp, with K - sigma M factored on the mesh's nested dissection
// (each vertex's three unknowns together).
//
// Output conventions: Phi is 3|V| x m, Phi^T M Phi = I, eigenvalues ascending, each column's
// largest-magnitude entry positive (the first one on ties).
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "smfem/mesh/types.hpp"
#include "smfem/subspace/eigenmode_options.hpp"

namespace smfem::subspace {

struct LinearModes {
  Eigen::MatrixXd vectors;      // 3|V| x m, column-major, M-orthonormal; pinned rows 0
  Eigen::VectorXd eigenvalues;  // m, ascending, 1/s^2; exactly 0 for the rigid modes
  int rigid_modes = 0;          // the leading columns: 6 per free part
  double shift = 0.0;           // sigma, the (negative) shift that was used
};

// K: 3|V| x 3|V| symmetric positive semi-definite (elastic_stiffness); mass: |V| lumped
// masses, positive at every free vertex; positions: |V| x 3 rest positions (the rigid modes,
// and the factorization's order); modes: m; pinned_vertices: 0-based indices (repeats allowed).
// Throws std::invalid_argument when: the mesh is empty, sizes disagree, a position is not
// finite, a pinned index is out of range, a free vertex has non-positive or non-finite mass,
// m < 1, m >= the number of free unknowns, or m < 6 times the number of free parts. Throws
// std::runtime_error if the factorization or the iteration fails.
LinearModes linear_modes(const Eigen::SparseMatrix<double>& K,
                         const Eigen::Ref<const Eigen::VectorXd>& mass,
                         const Eigen::Ref<const mesh::Vertices>& positions, int modes,
                         const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices,
                         const EigenmodeOptions& options = {});

}  // namespace smfem::subspace
