#pragma once
// Non-negative least squares: min ||A x - b|| subject to x >= 0, by the active-set method of
// Lawson and Hanson (Solving Least Squares Problems, 1974, ch. 23). Debian's Eigen 3.4 has no
// NNLS module and Debian packages no maintained C or C++ one, hence this.
//
// The passive set P (the variables free to move) grows by the variable of largest gradient
// component w = A^T (b - A x) among those held at zero; the least-squares solution z on P
// replaces x when it is positive, else x moves towards z until a variable reaches zero and
// leaves P. Optimal when x >= 0 and every variable at zero has w <= tolerance (the KKT
// conditions; w = 0 on P holds by construction).
//
// As in Lawson and Hanson, A_P = Q R is updated, not refactored: a variable enters by
// Gram-Schmidt against Q (applied twice), leaves by Givens rotations, so each change costs
// O(rows |P|) and each solve for z a back substitution. A column (numerically) in the span of
// P's cannot enter: its w is rounding, and it would make R singular.
#include <vector>

#include <Eigen/Core>

namespace smfem::cubature {

struct NnlsOptions {
  int max_iterations = 0;  // entries into P tried per solve; 0: 3 n (n = A's columns)
  // w_j <= tolerance counts as zero. < 0: 10 eps ||A||_F ||b||, about the rounding floor of
  // A^T r. Looser floors (scipy's has a factor max(rows, n)) stop ill-conditioned problems (a
  // mesh's force columns reach condition numbers of 1e7) at residuals near 1e-6 of ||b||.
  double tolerance = -1.0;
};

struct NnlsResult {
  Eigen::VectorXd x;      // n, >= 0 (exact zeros off the passive set)
  double residual = 0.0;  // ||A x - b||
  int iterations = 0;     // entries into P tried (a dependent column is refused)
  // The KKT conditions hold (but for a variable whose w exceeded the tolerance by rounding
  // only, which could not enter or left P at once); false: max_iterations ran out.
  bool converged = false;
};

// A: rows x n (rows < n and rank-deficient A allowed); b: rows. Throws std::invalid_argument
// for n = 0, b of another length, non-finite entries, or (warm start) x0 of another length,
// negative or non-finite. A warm start x0 starts with P = support(x0) (columns dependent on
// earlier ones of the support start at zero instead).
NnlsResult nnls(const Eigen::Ref<const Eigen::MatrixXd>& A,
                const Eigen::Ref<const Eigen::VectorXd>& b, const NnlsOptions& options = {});
NnlsResult nnls(const Eigen::Ref<const Eigen::MatrixXd>& A,
                const Eigen::Ref<const Eigen::VectorXd>& b,
                const Eigen::Ref<const Eigen::VectorXd>& x0, const NnlsOptions& options = {});

// The same method over a growing problem, for the greedy cubature: only variables allowed by
// the caller may enter P, and x and the factorization persist between solves, so adding one
// candidate and solving again costs a few updates, not a new factorization. nnls() is this
// with every variable allowed.
class ActiveSetNnls {
 public:
  // Throws as nnls() does. A is not copied (the greedy's is hundreds of MB): it must be a
  // matrix or block that outlives this, not an expression. b is copied.
  ActiveSetNnls(const Eigen::Ref<const Eigen::MatrixXd>& A,
                const Eigen::Ref<const Eigen::VectorXd>& b, const NnlsOptions& options = {});

  // Variable j may enter P from now on.
  void allow(Eigen::Index j);
  // Every variable at zero is no longer allowed (the greedy drops them); the caller may allow
  // one again.
  void forbid_zeros();
  // P = support(x0), x = x0 (see nnls()); the next solve starts there.
  void start_from(const Eigen::Ref<const Eigen::VectorXd>& x0);
  // Lawson and Hanson from the current x over the allowed variables; returns converged as in
  // NnlsResult (false: max_iterations entries ran out).
  bool solve();

  const Eigen::VectorXd& x() const { return x_; }
  const Eigen::VectorXd& residual() const { return r_; }  // b - A x
  int iterations() const { return iterations_; }          // entries tried, all solves

 private:
  bool enter(Eigen::Index j);         // Gram-Schmidt; false if j's column is dependent
  void leave(Eigen::Index position);  // Givens; x_j keeps its value (callers zero it)
  void make_feasible();               // the inner loop
  void update_residual();

  Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>> A_;
  Eigen::VectorXd b_;
  double tolerance_;
  int max_iterations_;
  Eigen::MatrixXd Q_;    // rows x capacity, the first |P| columns orthonormal
  Eigen::MatrixXd R_;    // capacity x capacity, the leading |P| x |P| upper triangular
  Eigen::VectorXd qtb_;  // Q^T b
  std::vector<Eigen::Index> passive_;  // P, in the order of Q's columns
  std::vector<bool> allowed_;
  std::vector<bool> is_passive_;
  Eigen::VectorXd x_;
  Eigen::VectorXd r_;
  int iterations_ = 0;
};

}  // namespace smfem::cubature
