#include "smfem/cubature/nnls.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include <Eigen/Jacobi>

#include "smfem/cubature/detail/refuse.hpp"

namespace smfem::cubature {
namespace {

using Index = Eigen::Index;

// A column whose part outside span(A_P) is below this fraction of its norm is dependent.
constexpr double kDependentColumn = 1e-10;

}  // namespace

ActiveSetNnls::ActiveSetNnls(const Eigen::Ref<const Eigen::MatrixXd>& A,
                             const Eigen::Ref<const Eigen::VectorXd>& b, const NnlsOptions& options)
    : A_(A.data(), A.rows(), A.cols(), Eigen::OuterStride<>(A.outerStride())), b_(b) {
  if (A.cols() == 0) detail::refuse("nnls", "A has no columns");
  if (b.size() != A.rows()) {
    detail::refuse("nnls", "b has " + std::to_string(b.size()) + " entries for " +
                               std::to_string(A.rows()) + " rows of A");
  }
  if (!A.allFinite() || !b.allFinite()) detail::refuse("nnls", "A or b has a non-finite entry");
  tolerance_ = options.tolerance >= 0.0
                   ? options.tolerance
                   : 10.0 * std::numeric_limits<double>::epsilon() * A.norm() * b.norm();
  max_iterations_ =
      options.max_iterations > 0 ? options.max_iterations : static_cast<int>(3 * A.cols());
  const Index capacity = std::min<Index>(16, std::min(A.rows(), A.cols()));
  Q_.resize(A.rows(), capacity);
  R_ = Eigen::MatrixXd::Zero(capacity, capacity);
  qtb_.resize(capacity);
  allowed_.assign(static_cast<std::size_t>(A.cols()), false);
  is_passive_.assign(static_cast<std::size_t>(A.cols()), false);
  x_ = Eigen::VectorXd::Zero(A.cols());
  r_ = b_;
}

void ActiveSetNnls::allow(Index j) { allowed_[static_cast<std::size_t>(j)] = true; }

void ActiveSetNnls::forbid_zeros() {
  for (Index j = 0; j < x_.size(); ++j) {
    if (x_(j) == 0.0) allowed_[static_cast<std::size_t>(j)] = false;
  }
}

void ActiveSetNnls::start_from(const Eigen::Ref<const Eigen::VectorXd>& x0) {
  if (x0.size() != x_.size()) {
    detail::refuse("nnls", "the start has " + std::to_string(x0.size()) + " entries for " +
                               std::to_string(x_.size()) + " columns");
  }
  if (!x0.allFinite() || (x0.array() < 0.0).any()) {
    detail::refuse("nnls", "the start must be finite and >= 0");
  }
  while (!passive_.empty()) leave(static_cast<Index>(passive_.size()) - 1);
  x_.setZero();
  for (Index j = 0; j < x0.size(); ++j) {
    if (x0(j) > 0.0 && enter(j)) x_(j) = x0(j);
  }
  update_residual();
}

bool ActiveSetNnls::solve() {
  make_feasible();
  // A variable that cannot enter, or enters and leaves at once (its w was positive only by
  // rounding), is not offered again until x changes: otherwise the same step would repeat.
  std::vector<bool> blocked(allowed_.size(), false);
  for (int added = 0;; ++added) {
    update_residual();
    Index entering = -1;
    double largest = tolerance_;
    for (Index j = 0; j < x_.size(); ++j) {
      const auto s = static_cast<std::size_t>(j);
      if (!allowed_[s] || blocked[s] || is_passive_[s]) continue;
      const double w = A_.col(j).dot(r_);
      if (w > largest) {
        largest = w;
        entering = j;
      }
    }
    if (entering < 0) return true;
    if (added == max_iterations_) return false;
    ++iterations_;
    if (!enter(entering)) {
      blocked[static_cast<std::size_t>(entering)] = true;
      continue;
    }
    const Eigen::VectorXd before = x_;
    make_feasible();
    if (x_ == before) {
      blocked[static_cast<std::size_t>(entering)] = true;
    } else {
      std::fill(blocked.begin(), blocked.end(), false);
    }
  }
}

bool ActiveSetNnls::enter(Index j) {
  const auto k = static_cast<Index>(passive_.size());
  const auto Q = Q_.leftCols(k);
  Eigen::VectorXd v = A_.col(j);
  Eigen::VectorXd c = Q.transpose() * v;
  v.noalias() -= Q * c;
  const Eigen::VectorXd again = Q.transpose() * v;  // classical Gram-Schmidt twice
  v.noalias() -= Q * again;
  c += again;
  const double outside = v.norm();
  if (!(outside > kDependentColumn * A_.col(j).norm())) return false;
  if (k == Q_.cols()) {
    const Index capacity = std::max<Index>(1, 2 * k);
    Q_.conservativeResize(Eigen::NoChange, capacity);
    R_.conservativeResizeLike(Eigen::MatrixXd::Zero(capacity, capacity));
    qtb_.conservativeResize(capacity);
  }
  Q_.col(k) = v / outside;
  R_.col(k).head(k) = c;
  R_(k, k) = outside;
  qtb_(k) = Q_.col(k).dot(b_);
  passive_.push_back(j);
  is_passive_[static_cast<std::size_t>(j)] = true;
  return true;
}

void ActiveSetNnls::leave(Index position) {
  const auto k = static_cast<Index>(passive_.size());
  // Without its column R is upper Hessenberg from there on; rotations on rows (c, c + 1)
  // restore the triangle, and the same rotations of Q's columns and of Q^T b keep A_P = Q R.
  for (Index c = position; c + 1 < k; ++c) R_.col(c).head(k) = R_.col(c + 1).head(k);
  for (Index c = position; c + 1 < k; ++c) {
    Eigen::JacobiRotation<double> G;
    G.makeGivens(R_(c, c), R_(c + 1, c));
    R_.block(c, c, 2, k - 1 - c).applyOnTheLeft(0, 1, G.adjoint());
    qtb_.applyOnTheLeft(c, c + 1, G.adjoint());
    Q_.applyOnTheRight(c, c + 1, G);
  }
  is_passive_[static_cast<std::size_t>(passive_[static_cast<std::size_t>(position)])] = false;
  passive_.erase(passive_.begin() + position);
}

void ActiveSetNnls::make_feasible() {
  for (;;) {
    const auto k = static_cast<Index>(passive_.size());
    const Eigen::VectorXd z =
        R_.topLeftCorner(k, k).triangularView<Eigen::Upper>().solve(qtb_.head(k));
    double alpha = 1.0;
    Index leaving = -1;
    for (Index p = 0; p < k; ++p) {
      if (z(p) > 0.0) continue;
      const double x = x_(passive_[static_cast<std::size_t>(p)]);
      const double step = x > 0.0 ? x / (x - z(p)) : 0.0;
      if (leaving < 0 || step < alpha) {
        alpha = step;
        leaving = p;
      }
    }
    if (leaving < 0) {
      for (Index p = 0; p < k; ++p) x_(passive_[static_cast<std::size_t>(p)]) = z(p);
      return;
    }
    for (Index p = 0; p < k; ++p) {
      double& x = x_(passive_[static_cast<std::size_t>(p)]);
      x += alpha * (z(p) - x);
    }
    // The variable that set alpha leaves even if rounding left it a hair above zero. From the
    // last position down, so that the positions still to visit do not move.
    for (Index p = k - 1; p >= 0; --p) {
      double& x = x_(passive_[static_cast<std::size_t>(p)]);
      if (p == leaving || x <= 0.0) {
        x = 0.0;
        leave(p);
      }
    }
  }
}

void ActiveSetNnls::update_residual() {
  r_ = b_;
  for (const Index j : passive_) r_.noalias() -= x_(j) * A_.col(j);
}

NnlsResult nnls(const Eigen::Ref<const Eigen::MatrixXd>& A,
                const Eigen::Ref<const Eigen::VectorXd>& b, const NnlsOptions& options) {
  return nnls(A, b, Eigen::VectorXd::Zero(A.cols()), options);
}

NnlsResult nnls(const Eigen::Ref<const Eigen::MatrixXd>& A,
                const Eigen::Ref<const Eigen::VectorXd>& b,
                const Eigen::Ref<const Eigen::VectorXd>& x0, const NnlsOptions& options) {
  ActiveSetNnls solver(A, b, options);
  for (Index j = 0; j < A.cols(); ++j) solver.allow(j);
  solver.start_from(x0);
  NnlsResult out;
  out.converged = solver.solve();
  out.x = solver.x();
  out.residual = solver.residual().norm();
  out.iterations = solver.iterations();
  return out;
}

}  // namespace smfem::cubature
