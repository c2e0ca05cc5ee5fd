#pragma once
// Non-negative least squares: min ||A x - b|| subject to x >= 0, by the active-set method of
// Lawson and Hanson (Solving Least Squares Problems, 1974, ch. 23). Debian's Eigen 3.4 has no
// NNLS module and Debian packages no maintained C or C++ one, hence this.
//
// The passive set P (the variables free to move) grows by the variable of largest gradient
// component w = A^T (b - A x) among those held at zero; the least-squares solution z on P
// (column-pivoted QR, so nearly dependent columns give a basic solution rather than a blow-up)
// replaces x when it is positive, else x moves towards z until a variable reaches zero and
// leaves P. Optimal when x >= 0 and every variable at zero has w <= tolerance (the KKT
// conditions; w = 0 on P holds by construction).
//
// A warm start x0 >= 0 (the previous solution of a problem that gained a column, as in the
// greedy cubature) starts with P = support(x0) and usually ends in one or two solves.
#include <Eigen/Core>

namespace smfem::cubature {

struct NnlsOptions {
  int max_iterations = 0;  // additions to P; 0: 3 n (n = A's columns)
  // w_j <= tolerance counts as zero. < 0: 10 eps ||A||_F ||b||, about the rounding floor of
  // A^T r. Looser floors (scipy's has a factor max(rows, n)) stop ill-conditioned problems (a
  // mesh's force columns reach condition numbers of 1e7) at residuals near 1e-6 of ||b||.
  double tolerance = -1.0;
};

struct NnlsResult {
  Eigen::VectorXd x;      // n, >= 0 (exact zeros off the passive set)
  double residual = 0.0;  // ||A x - b||
  int iterations = 0;     // additions to P
  // The KKT conditions hold (but for a variable whose w exceeded the tolerance by rounding
  // only: admitted, it left P at once and changed nothing); false: max_iterations ran out.
  bool converged = false;
};

// A: rows x n (rows < n and rank-deficient A allowed); b: rows. Throws std::invalid_argument
// for n = 0, b of another length, non-finite entries, or (warm start) x0 of another length,
// negative or non-finite.
NnlsResult nnls(const Eigen::Ref<const Eigen::MatrixXd>& A,
                const Eigen::Ref<const Eigen::VectorXd>& b, const NnlsOptions& options = {});
NnlsResult nnls(const Eigen::Ref<const Eigen::MatrixXd>& A,
                const Eigen::Ref<const Eigen::VectorXd>& b,
                const Eigen::Ref<const Eigen::VectorXd>& x0, const NnlsOptions& options = {});

}  // namespace smfem::cubature
