#pragma once
// The smallest eigenpairs of A w = gamma M w, A sparse symmetric positive semi-definite and M
// diagonal positive, on the M-orthogonal complement of null vectors known in advance: the
// solver behind skinning_eigenmodes.hpp (A the elastic Laplacian, one unknown per vertex) and
// linear_modes.hpp (A the linear elastic stiffness, three per vertex).
//
// Spectra's Lanczos (SymEigsShiftSolver) on the shift-inverted standard problem
// (shift_invert_operator.hpp), A - sigma M factored by the multifrontal Cholesky on a nested
// dissection. Exactly repeated eigenvalues (symmetric meshes) can hide from a single-vector
// Lanczos, so after the main run further one-mode runs on the complement of everything found
// must find nothing below the wanted-th eigenvalue (relative margin 1e-6); a mode they do find
// is kept and the check repeats. Start vectors are fixed pseudo-random vectors, so results are
// deterministic.
#include <vector>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "smfem/subspace/detail/nested_dissection.hpp"
#include "smfem/subspace/eigenmode_options.hpp"

namespace smfem::subspace::detail {

// The rows and columns of H whose free_index is >= 0, renumbered by it (free_count of them).
Eigen::SparseMatrix<double> free_block(const Eigen::SparseMatrix<double>& H,
                                       const std::vector<int>& free_index, int free_count);

// sigma = -max(1e-6 gamma_lo, 1e-12 gamma_hi), gamma_lo / gamma_hi the smallest / largest ratio
// A_ii / M_ii (a stand-in for the local frequency of the softest / stiffest place): small
// enough to sit below the wanted eigenvalues, large enough that A - sigma M stays safely
// positive definite in double precision (1e-12 is thousands of times machine epsilon, relative
// to the stiffest scale).
double shift_below_spectrum(const Eigen::SparseMatrix<double>& A, const Eigen::VectorXd& mass);

struct Eigenpairs {
  Eigen::MatrixXd vectors;      // n x wanted, M-orthonormal, in the order of the eigenvalues
  Eigen::VectorXd eigenvalues;  // wanted, ascending: Rayleigh quotients
};

// A: n x n; mass: its n diagonal masses; tree: the elimination order of A's unknowns;
// null_vectors: n x c orthonormal null vectors of M^-1/2 A M^-1/2 (the symmetric form
// v = M^1/2 w), left out of the search; shift from shift_below_spectrum. caller names the
// public function in messages. Throws std::runtime_error if the factorization or the
// iteration fails.
Eigenpairs smallest_eigenpairs(const char* caller, const Eigen::SparseMatrix<double>& A,
                               const Eigen::VectorXd& mass, DissectionTree tree,
                               const Eigen::Ref<const Eigen::MatrixXd>& null_vectors, int wanted,
                               double shift, const EigenmodeOptions& options);

// The sign convention of both: flips w so that its largest-magnitude entry (the first one on
// ties) is positive.
void fix_sign(Eigen::Ref<Eigen::VectorXd> w);

}  // namespace smfem::subspace::detail
