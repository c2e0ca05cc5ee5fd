#pragma once
// The operator Spectra iterates on to find the smallest eigenpairs of H w = gamma M w with a
// diagonal M, written as the standard symmetric problem A v = gamma v with
// A = M^-1/2 H M^-1/2 and v = M^1/2 w (so M-orthonormal w are orthonormal v):
//
//   op(x) = P (A - sigma I)^-1 P x = P M^1/2 (H - sigma M)^-1 M^1/2 P x,
//
// P = I - N N^T projects out N, the known null vectors of A (one per floating component,
// orthonormal columns), so their huge eigenvalue 1/|sigma| never competes with the wanted
// modes and exactly repeated zeros cause no trouble. H - sigma M (sigma < 0) is factored once
// by sparse Cholesky (AMD ordering) when Spectra sets the shift.
#include <Eigen/Core>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

namespace smfem::subspace::detail {

class ShiftInvertOperator {
 public:
  using Scalar = double;  // what Spectra expects

  // H: n x n free block of the Laplacian; mass: its n positive masses; null_vectors: n x c
  // orthonormal (c may be 0). All three must outlive the operator.
  ShiftInvertOperator(const Eigen::SparseMatrix<double>& H, const Eigen::VectorXd& mass,
                      const Eigen::MatrixXd& null_vectors);

  Eigen::Index rows() const { return H_.rows(); }
  Eigen::Index cols() const { return H_.cols(); }

  // Factors H - sigma M; throws std::runtime_error if Cholesky fails.
  void set_shift(const double& sigma);

  // y_out = op(x_in), both of length rows().
  void perform_op(const double* x_in, double* y_out) const;

  // x minus its components along the null vectors.
  void project(Eigen::Ref<Eigen::VectorXd> x) const;

 private:
  const Eigen::SparseMatrix<double>& H_;
  const Eigen::VectorXd& mass_;
  const Eigen::MatrixXd& null_vectors_;
  Eigen::VectorXd sqrt_mass_;
  Eigen::SimplicialLLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::AMDOrdering<int>>
      cholesky_;
  mutable Eigen::VectorXd work_;
};

}  // namespace smfem::subspace::detail
