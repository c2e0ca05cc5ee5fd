#include "smfem/cubature/nnls.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/QR>

namespace smfem::cubature {
namespace {

using Index = Eigen::Index;

[[noreturn]] void refuse(const std::string& problem) {
  throw std::invalid_argument("nnls: " + problem);
}

// The least-squares solution on the passive columns, zero elsewhere.
Eigen::VectorXd solve_on(const Eigen::Ref<const Eigen::MatrixXd>& A,
                         const Eigen::Ref<const Eigen::VectorXd>& b,
                         const std::vector<bool>& passive) {
  std::vector<Index> columns;
  for (Index j = 0; j < A.cols(); ++j) {
    if (passive[static_cast<std::size_t>(j)]) columns.push_back(j);
  }
  Eigen::VectorXd z = Eigen::VectorXd::Zero(A.cols());
  if (columns.empty()) return z;
  const Eigen::MatrixXd A_passive = A(Eigen::all, columns);
  const Eigen::VectorXd z_passive = A_passive.colPivHouseholderQr().solve(b);
  for (std::size_t k = 0; k < columns.size(); ++k) z(columns[k]) = z_passive(static_cast<Index>(k));
  return z;
}

// Lawson and Hanson's inner loop: from a feasible x, replaces x by the least-squares solution
// on P once that is positive, moving only as far towards it as keeps x >= 0 and dropping the
// variables that reach zero. P loses a variable on every pass, so this ends.
void make_feasible(const Eigen::Ref<const Eigen::MatrixXd>& A,
                   const Eigen::Ref<const Eigen::VectorXd>& b, std::vector<bool>& passive,
                   Eigen::VectorXd& x) {
  for (;;) {
    const Eigen::VectorXd z = solve_on(A, b, passive);
    double alpha = 1.0;
    Index leaving = -1;
    for (Index i = 0; i < x.size(); ++i) {
      if (!passive[static_cast<std::size_t>(i)] || z(i) > 0.0) continue;
      const double step = x(i) / (x(i) - z(i));
      if (leaving < 0 || step < alpha) {
        alpha = step;
        leaving = i;
      }
    }
    if (leaving < 0) {
      x = z;
      return;
    }
    x += alpha * (z - x);
    // The variable that set alpha leaves even if rounding left it a hair above zero.
    for (Index i = 0; i < x.size(); ++i) {
      if (passive[static_cast<std::size_t>(i)] && (i == leaving || x(i) <= 0.0)) {
        passive[static_cast<std::size_t>(i)] = false;
        x(i) = 0.0;
      }
    }
  }
}

}  // namespace

NnlsResult nnls(const Eigen::Ref<const Eigen::MatrixXd>& A,
                const Eigen::Ref<const Eigen::VectorXd>& b, const NnlsOptions& options) {
  return nnls(A, b, Eigen::VectorXd::Zero(A.cols()), options);
}

NnlsResult nnls(const Eigen::Ref<const Eigen::MatrixXd>& A,
                const Eigen::Ref<const Eigen::VectorXd>& b,
                const Eigen::Ref<const Eigen::VectorXd>& x0, const NnlsOptions& options) {
  const Index n = A.cols();
  if (n == 0) refuse("A has no columns");
  if (b.size() != A.rows()) {
    refuse("b has " + std::to_string(b.size()) + " entries for " + std::to_string(A.rows()) +
           " rows of A");
  }
  if (x0.size() != n) {
    refuse("the start has " + std::to_string(x0.size()) + " entries for " + std::to_string(n) +
           " columns");
  }
  if (!A.allFinite() || !b.allFinite()) refuse("A or b has a non-finite entry");
  if (!x0.allFinite() || (x0.array() < 0.0).any()) refuse("the start must be finite and >= 0");

  const double tolerance =
      options.tolerance >= 0.0
          ? options.tolerance
          : 10.0 * std::numeric_limits<double>::epsilon() * A.norm() * b.norm();
  const int max_iterations =
      options.max_iterations > 0 ? options.max_iterations : static_cast<int>(3 * n);

  NnlsResult out;
  out.x = x0;
  std::vector<bool> passive(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) passive[static_cast<std::size_t>(i)] = x0(i) > 0.0;
  make_feasible(A, b, passive, out.x);

  // A variable that enters and leaves at once (its w was positive only by rounding) is not
  // offered again until x changes: otherwise the same step would repeat forever.
  std::vector<bool> blocked(static_cast<std::size_t>(n), false);
  for (;;) {
    const Eigen::VectorXd w = A.transpose() * (b - A * out.x);
    Index entering = -1;
    for (Index j = 0; j < n; ++j) {
      const auto s = static_cast<std::size_t>(j);
      if (passive[s] || blocked[s] || !(w(j) > tolerance)) continue;
      if (entering < 0 || w(j) > w(entering)) entering = j;
    }
    if (entering < 0) {
      out.converged = true;
      break;
    }
    if (out.iterations == max_iterations) break;
    ++out.iterations;
    passive[static_cast<std::size_t>(entering)] = true;
    const Eigen::VectorXd before = out.x;
    make_feasible(A, b, passive, out.x);
    if (out.x == before) {
      blocked[static_cast<std::size_t>(entering)] = true;
    } else {
      std::fill(blocked.begin(), blocked.end(), false);
    }
  }
  out.residual = (A * out.x - b).norm();
  return out;
}

}  // namespace smfem::cubature
