#pragma once
// The operator Spectra iterates on to find the smallest eigenpairs of H w = gamma M w with a
// diagonal M, written as the standard symmetric problem A v = gamma v with
// A = M^-1/2 H M^-1/2 and v = M^1/2 w (so M-orthonormal w are orthonormal v):
//
//   op(x) = P (A - sigma I)^-1 P x = P M^1/2 (H - sigma M)^-1 M^1/2 P x,
//
// P = I - N N^T projects out N, a growing set of orthonormal eigenvectors of A that are already
// known: first the null vectors (one per floating component), so their huge eigenvalue
// 1/|sigma| never competes with the wanted modes, then modes found by earlier Lanczos runs, so
// that a later run sees only what is still missing. H - sigma M (sigma < 0) is factored by
// sparse Cholesky (AMD ordering) the first time Spectra sets a shift, and again only if the
// shift changes, by the multifrontal method on a nested-dissection tree of the free vertices
// (multifrontal_cholesky.hpp), which keeps the factor sparse and its arithmetic dense.
#include <optional>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "smfem/subspace/detail/multifrontal_cholesky.hpp"
#include "smfem/subspace/detail/nested_dissection.hpp"

namespace smfem::subspace::detail {

class ShiftInvertOperator {
 public:
  using Scalar = double;  // what Spectra expects

  // H: n x n free block of the Laplacian or stiffness; mass: its n positive masses; tree: the
  // elimination order; threads: for the factorization (>= 1); caller: the public function, for
  // messages. H and mass must outlive the operator.
  ShiftInvertOperator(const char* caller, const Eigen::SparseMatrix<double>& H,
                      const Eigen::VectorXd& mass, DissectionTree tree, int threads);

  Eigen::Index rows() const { return H_.rows(); }
  Eigen::Index cols() const { return H_.cols(); }

  // Factors H - sigma M; throws std::runtime_error if Cholesky fails.
  void set_shift(const double& sigma);

  // y_out = op(x_in), both of length rows().
  void perform_op(const double* x_in, double* y_out) const;

  // Adds eigenvectors of A (n x k, orthonormal) to N; they are orthonormalized against N
  // once more, so rounding in the caller's vectors does not accumulate.
  void deflate(const Eigen::Ref<const Eigen::MatrixXd>& vectors);

  // The number of columns of N.
  Eigen::Index deflated() const { return deflated_.cols(); }

  // x minus its components along N.
  void project(Eigen::Ref<Eigen::VectorXd> x) const;

 private:
  const char* caller_;
  const Eigen::SparseMatrix<double>& H_;
  const Eigen::VectorXd& mass_;
  Eigen::VectorXd sqrt_mass_;
  Eigen::MatrixXd deflated_;
  DissectionTree tree_;
  int threads_;
  std::optional<double> factored_shift_;
  MultifrontalCholesky cholesky_;
  mutable Eigen::VectorXd work_;
};

}  // namespace smfem::subspace::detail
