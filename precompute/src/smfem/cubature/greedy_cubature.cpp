#include "smfem/cubature/greedy_cubature.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "smfem/cubature/nnls.hpp"

namespace smfem::cubature {
namespace {

using Index = Eigen::Index;

// A column whose part outside the basis is below this fraction of its norm adds no direction.
constexpr double kDependent = 1e-10;

// An orthonormal basis Q of the columns added so far, each column's coordinates in it and
// Q^T b: min ||A_S w - b|| equals min ||coordinates_S w - Q^T b|| (plus a constant).
class ColumnBasis {
 public:
  ColumnBasis(const Eigen::Ref<const Eigen::MatrixXd>& A,
              const Eigen::Ref<const Eigen::VectorXd>& b)
      : A_(A),
        b_(b),
        Q_(A.rows(), 8),
        coordinates_(Eigen::MatrixXd::Zero(8, 8)),
        b_coordinates_(8) {}

  // Adds column j of A (once); returns its slot.
  Index add(Index j) {
    const Index slot = static_cast<Index>(columns_.size());
    columns_.push_back(j);
    reserve(slot + 1);
    const auto Q = Q_.leftCols(rank_);
    Eigen::VectorXd v = A_.col(j);
    Eigen::VectorXd c = Q.transpose() * v;
    v.noalias() -= Q * c;
    const Eigen::VectorXd again = Q.transpose() * v;  // classical Gram-Schmidt twice
    v.noalias() -= Q * again;
    c += again;
    coordinates_.col(slot).head(rank_) = c;
    const double outside = v.norm();
    if (outside > kDependent * A_.col(j).norm()) {
      Q_.col(rank_) = v / outside;
      coordinates_(rank_, slot) = outside;
      b_coordinates_(rank_) = Q_.col(rank_).dot(b_);
      ++rank_;
    }
    return slot;
  }

  Index column(Index slot) const { return columns_[static_cast<std::size_t>(slot)]; }
  Eigen::MatrixXd coordinates(const std::vector<Index>& slots) const {
    return coordinates_.topRows(rank_)(Eigen::all, slots);
  }
  Eigen::VectorXd b_coordinates() const { return b_coordinates_.head(rank_); }

 private:
  void reserve(Index columns) {
    if (columns <= Q_.cols()) return;
    const Index capacity = 2 * Q_.cols();
    Q_.conservativeResize(Eigen::NoChange, capacity);
    // New rows must read as zero in the old columns: they lie in the span of the old basis.
    coordinates_.conservativeResizeLike(Eigen::MatrixXd::Zero(capacity, capacity));
    b_coordinates_.conservativeResize(capacity);
  }

  const Eigen::Ref<const Eigen::MatrixXd>& A_;
  const Eigen::Ref<const Eigen::VectorXd>& b_;
  Eigen::MatrixXd Q_;              // rows x capacity, the first rank_ columns orthonormal
  Eigen::MatrixXd coordinates_;    // capacity x capacity, column slot: coordinates of that column
  Eigen::VectorXd b_coordinates_;  // Q^T b
  std::vector<Index> columns_;     // slot -> column of A
  Index rank_ = 0;
};

}  // namespace

GreedyCubature greedy_cubature(const Eigen::Ref<const Eigen::MatrixXd>& A,
                               const Eigen::Ref<const Eigen::VectorXd>& b, int count,
                               double tolerance) {
  const auto refuse = [](const std::string& problem) {
    throw std::invalid_argument("greedy_cubature: " + problem);
  };
  if (A.cols() == 0 || A.rows() == 0) refuse("no candidates or no training rows");
  if (b.size() != A.rows()) {
    refuse("b has " + std::to_string(b.size()) + " entries for " + std::to_string(A.rows()) +
           " rows");
  }
  if (count < 1) refuse("asked for " + std::to_string(count) + " tets; at least 1");
  if (!(tolerance >= 0.0) || !std::isfinite(tolerance)) refuse("tolerance must be >= 0");
  if (!A.allFinite() || !b.allFinite()) refuse("a force is not finite");

  const Eigen::VectorXd norms = A.colwise().norm().transpose();
  const double b_norm = b.norm();
  ColumnBasis basis(A, b);
  std::vector<Index> slot_of(static_cast<std::size_t>(A.cols()), -1);
  std::vector<bool> chosen(static_cast<std::size_t>(A.cols()), false);
  std::vector<Index> slots;  // S
  Eigen::VectorXd w;
  Eigen::VectorXd r = b;
  double residual = b_norm;
  GreedyCubature out;
  // Each step adds one candidate and may drop others; the residual falls strictly, so no set
  // repeats, but a cap keeps rounding from running it long.
  const int max_iterations = 4 * count + 16;
  out.converged = true;
  while (static_cast<int>(slots.size()) < count && residual > tolerance * b_norm) {
    if (out.iterations == max_iterations) {
      out.converged = false;
      break;
    }
    const Eigen::VectorXd correlation = A.transpose() * r;
    Index best = -1;
    double best_cosine = 0.0;
    for (Index j = 0; j < A.cols(); ++j) {
      if (chosen[static_cast<std::size_t>(j)] || norms(j) == 0.0) continue;
      const double cosine = correlation(j) / (norms(j) * residual);
      if (cosine > best_cosine) {
        best_cosine = cosine;
        best = j;
      }
    }
    if (best < 0 || best_cosine <= kDependent) break;  // no candidate lowers the residual
    ++out.iterations;
    Index& slot = slot_of[static_cast<std::size_t>(best)];
    if (slot < 0) slot = basis.add(best);
    std::vector<Index> trial = slots;
    trial.push_back(slot);
    Eigen::VectorXd start = Eigen::VectorXd::Zero(static_cast<Index>(trial.size()));
    start.head(w.size()) = w;
    const NnlsResult fit = nnls(basis.coordinates(trial), basis.b_coordinates(), start);

    std::vector<Index> kept;
    std::vector<double> kept_weights;
    for (std::size_t k = 0; k < trial.size(); ++k) {
      if (fit.x(static_cast<Index>(k)) > 0.0) {
        kept.push_back(trial[k]);
        kept_weights.push_back(fit.x(static_cast<Index>(k)));
      }
    }
    Eigen::VectorXd next_r = b;
    for (std::size_t k = 0; k < kept.size(); ++k)
      next_r -= kept_weights[k] * A.col(basis.column(kept[k]));
    const double next_residual = next_r.norm();
    if (!(next_residual < residual)) break;  // only rounding was left to fit
    for (const Index s : slots) chosen[static_cast<std::size_t>(basis.column(s))] = false;
    for (const Index s : kept) chosen[static_cast<std::size_t>(basis.column(s))] = true;
    slots = std::move(kept);
    w = Eigen::Map<const Eigen::VectorXd>(kept_weights.data(),
                                          static_cast<Index>(kept_weights.size()));
    r = std::move(next_r);
    residual = next_residual;
  }

  std::vector<std::size_t> order(slots.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return basis.column(slots[x]) < basis.column(slots[y]);
  });
  out.columns.resize(static_cast<Index>(slots.size()));
  out.weights.resize(static_cast<Index>(slots.size()));
  for (std::size_t k = 0; k < order.size(); ++k) {
    out.columns(static_cast<Index>(k)) = static_cast<int>(basis.column(slots[order[k]]));
    out.weights(static_cast<Index>(k)) = w(static_cast<Index>(order[k]));
  }
  out.relative_residual = b_norm > 0.0 ? residual / b_norm : 0.0;
  return out;
}

}  // namespace smfem::cubature
