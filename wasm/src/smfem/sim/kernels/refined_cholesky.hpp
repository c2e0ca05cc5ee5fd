#pragma once
// A sparse symmetric positive definite solve, A x = b, factored in float and refined in double
// (iterative refinement: x += L^-T L^-1 (b - A x)), the full-space step's (full/full_system.hpp).
// A float factor costs about two thirds of a double one in wasm (its SIMD vectors hold four floats,
// two doubles, and it streams half the bytes) and each correction shrinks the residual by about
// A's condition number times float's rounding: 1e-3 on the benchmark cloths, so one or two
// corrections reach the target. Where float's rounding breaks a pivot, or the corrections do not
// reach the target, A is factored in double and solved by that factor alone.
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "smfem/parallel/thread_pool.hpp"
#include "smfem/sim/kernels/sparse_cholesky.hpp"

namespace smfem::sim {

class RefinedCholesky {
 public:
  // A solve's residual |b - A x| is brought below this fraction of |b|, by at most kCorrections
  // corrections.
  static constexpr double kTargetResidual = 1e-6;
  static constexpr int kCorrections = 3;

  // The pattern of A's lower triangle (SparseCholesky::analyze).
  void analyze(const Eigen::SparseMatrix<double>& lower);
  // Factors A (its lower triangle, analyze()'s pattern), which must stay unchanged and alive
  // until the last solve() of this factor. False if A is not positive definite in double either.
  bool factor(const Eigen::SparseMatrix<double>& lower, parallel::ThreadPool* pool = nullptr);
  // x = A^-1 b with the last successful factor().
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x);

  // Whether the last factor()'s solves are double's (float's rounding broke a pivot, or a
  // solve's corrections fell short of the target).
  bool in_double() const { return in_double_; }

 private:
  bool factor_in_double();

  SparseCholesky<float> float_;
  SparseCholesky<double> double_;  // analysed when first needed
  bool double_analyzed_ = false;
  bool in_double_ = false;
  const Eigen::SparseMatrix<double>* lower_ = nullptr;  // the last factor()'s A
  parallel::ThreadPool* pool_ = nullptr;                // and its pool
  Eigen::VectorXd residual_;
};

}  // namespace smfem::sim
