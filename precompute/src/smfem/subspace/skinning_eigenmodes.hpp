#pragma once
// Skinning eigenmodes (Subspace MFEM, Trusty et al. 2023, eq. 9): the m smallest eigenpairs of
// H_w w = gamma M_w w, H_w the elastic energy Laplacian, M_w the lumped mass (diagonal). Each
// weight column is a skinning weight field; mode i carries a 3x4 affine matrix A_i at run time
// (see basis.hpp).
//
// Pinned vertices are removed from the problem: their weights are exactly zero, so they never
// move. A part of the body that holds no pinned vertex (a "floating component", connected
// through tets) has its constant function as an exact eigenvector with gamma = 0; those modes
// are put in by hand (w = 1 / sqrt(mass of the part) on it, 0 elsewhere, eigenvalue reported as
// exactly 0), come first, in the order of each part's smallest vertex index, and the
// iteration runs on their M-orthogonal complement. So several bodies in one mesh are handled:
// each gets its own constant mode, and m must be at least their number.
//
// Solver: Spectra's Lanczos (SymEigsShiftSolver) on the shift-inverted standard problem, see
// detail/shift_invert_operator.hpp, with H - sigma M factored by a multifrontal sparse Cholesky
// on a geometric nested dissection of the mesh (detail/multifrontal_cholesky.hpp). The shift is
// sigma = -max(1e-6 gamma_lo, 1e-12 gamma_hi), gamma_lo / gamma_hi the smallest / largest ratio
// H_vv / M_vv over free vertices (a stand-in for the local frequency of the softest / stiffest
// place): small enough to sit below the wanted eigenvalues, large enough that H - sigma M stays
// safely positive definite in double precision (1e-12 is thousands of times machine epsilon,
// relative to the stiffest scale). Exactly repeated eigenvalues (symmetric meshes) can hide from a
// single-vector Lanczos, so after the main run further one-mode runs on the complement of
// everything found must find nothing below the m-th eigenvalue (relative margin 1e-6); a mode they
// do find is kept and the check repeats. Start vectors are fixed pseudo-random vectors, so results
// are deterministic.
//
// Output conventions: W is |V| x m, column i = mode i, eigenvalues ascending, W^T M W = I.
// Each column's sign makes its largest-magnitude entry positive (the first one on ties).
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "smfem/mesh/types.hpp"
#include "smfem/subspace/eigenmode_options.hpp"

namespace smfem::subspace {

struct SkinningModes {
  Eigen::MatrixXd weights;      // |V| x m, column-major, M-orthonormal
  Eigen::VectorXd eigenvalues;  // m, ascending; exactly 0 for the constant modes
  int constant_modes = 0;       // the leading columns that are floating components' constants
  double shift = 0.0;           // sigma, the (negative) shift that was used
};

// H: |V| x |V| symmetric positive semi-definite (elastic_laplacian); mass: |V| lumped masses,
// positive at every free vertex; positions: |V| x 3 rest positions, used only to order the
// sparse factorization (any positions give the same eigenpairs up to rounding, good ones keep
// it fast); modes: m; pinned_vertices: 0-based indices (repeats allowed).
// Throws std::invalid_argument when: the mesh is empty, sizes disagree, a position is not
// finite, a pinned index is out of range, a free vertex has non-positive or non-finite mass (a
// vertex used by no tet has mass 0), m < 1, m >= the number of free vertices, or m < the number
// of floating components. Throws std::runtime_error if the factorization or the iteration
// fails.
SkinningModes skinning_eigenmodes(const Eigen::SparseMatrix<double>& H,
                                  const Eigen::Ref<const Eigen::VectorXd>& mass,
                                  const Eigen::Ref<const mesh::Vertices>& positions, int modes,
                                  const Eigen::Ref<const Eigen::VectorXi>& pinned_vertices,
                                  const EigenmodeOptions& options = {});

}  // namespace smfem::subspace
