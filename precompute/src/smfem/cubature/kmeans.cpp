#include "smfem/cubature/kmeans.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "smfem/cubature/detail/parallel_chunks.hpp"
#include "smfem/cubature/detail/uniform_random.hpp"

namespace smfem::cubature {

namespace {

using Index = std::ptrdiff_t;
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr int kBlock = 8;         // centers per register block in full scans
constexpr Index kNeighbors = 32;  // nearest other centers listed per center

double distance(const double* a, const double* b, Index d) {
  double sum = 0.0;
  for (Index f = 0; f < d; ++f) {
    const double difference = a[f] - b[f];
    sum += difference * difference;
  }
  return std::sqrt(sum);
}

// Per point: its cluster, an upper bound on the distance to that cluster's center and a lower
// bound on the distance to every other center (Hamerly's two bounds).
struct Assignment {
  Eigen::VectorXi label;
  Eigen::VectorXd upper;
  Eigen::VectorXd lower;
};

class Clustering {
 public:
  Clustering(const Eigen::Ref<const FeatureMatrix>& points, const KMeansOptions& options)
      : X_(points),
        n_(points.rows()),
        d_(points.cols()),
        threads_(detail::resolve_thread_count(options.threads)) {}

  // k-means++; leaves exact distances in upper (the bounds are valid for Lloyd).
  void seed(int k, std::uint64_t seed) {
    std::mt19937_64 bits(seed);
    centers_.resize(k, d_);
    const Index first = std::min<Index>(
        n_ - 1, static_cast<Index>(detail::uniform_01(bits) * static_cast<double>(n_)));
    centers_.row(0) = X_.row(first);
    at_.label = Eigen::VectorXi::Zero(n_);
    at_.upper.resize(n_);
    at_.lower = Eigen::VectorXd::Constant(n_, kInfinity);
    std::vector<double> chunk_weight(detail::chunk_count(n_));
    detail::parallel_chunks(n_, threads_, [&](Index chunk, Index begin, Index end) {
      for (Index i = begin; i < end; ++i) at_.upper(i) = distance(point(i), center(0), d_);
      chunk_weight[chunk] = squared_sum(begin, end);
    });
    int count = 1;
    Eigen::VectorXd to_new(k);
    for (; count < k; ++count) {
      double total = 0.0;
      for (double w : chunk_weight) total += w;
      if (!(total > 0.0)) break;  // every point sits on a center: no distinct point is left
      const Index chosen = draw(detail::uniform_01(bits) * total, chunk_weight);
      centers_.row(count) = X_.row(chosen);
      for (int j = 0; j < count; ++j) to_new(j) = distance(center(j), center(count), d_);
      detail::parallel_chunks(n_, threads_, [&](Index chunk, Index begin, Index end) {
        for (Index i = begin; i < end; ++i) {
          const double own = at_.upper(i);
          const double gap = to_new(at_.label(i));
          // Triangle inequality: if the new center is at least twice as far from the point's
          // center as the point is, it cannot be nearer; gap - own still bounds it from below.
          const double to_point =
              gap >= 2.0 * own ? gap - own : distance(point(i), center(count), d_);
          if (to_point < own) {
            at_.lower(i) = std::min(at_.lower(i), own);
            at_.label(i) = count;
            at_.upper(i) = to_point;
          } else {
            at_.lower(i) = std::min(at_.lower(i), to_point);
          }
        }
        chunk_weight[chunk] = squared_sum(begin, end);
      });
    }
    centers_.conservativeResize(count, d_);
  }

  // Lloyd iterations; returns {iterations run, converged}.
  std::pair<int, bool> iterate(int max_iterations) {
    const Index k = centers_.rows();
    recompute_sums();
    std::vector<std::vector<std::pair<Index, int>>> moved(detail::chunk_count(n_));
    for (int iteration = 1; iteration <= max_iterations; ++iteration) {
      FeatureMatrix next = centers_;  // an empty cluster that finds no point stays put
      for (Index j = 0; j < k; ++j) {
        if (count_(j) > 0) next.row(j) = sums_.row(j) / static_cast<double>(count_(j));
      }
      refill_empty_clusters(next);
      Eigen::VectorXd shift(k);
      for (Index j = 0; j < k; ++j) shift(j) = distance(next.row(j).data(), center(j), d_);
      centers_ = std::move(next);
      store_centers_by_feature();
      Index farthest = 0;
      const double largest_shift = shift.maxCoeff(&farthest);
      shift(farthest) = -kInfinity;
      const double second_shift = k > 1 ? shift.maxCoeff() : 0.0;
      shift(farthest) = largest_shift;
      store_center_neighbors();

      detail::parallel_chunks(n_, threads_, [&](Index chunk, Index begin, Index end) {
        moved[chunk].clear();
        std::vector<double> to_center(centers_by_feature_.rows());
        for (Index i = begin; i < end; ++i) {
          const int own = at_.label(i);
          at_.upper(i) += shift(own);
          at_.lower(i) -= own == farthest ? second_shift : largest_shift;
          // Hamerly: no other center is nearer than half the gap to the nearest other center,
          // nor nearer than the lower bound.
          const double half_gap = k > 1 ? 0.5 * neighbor_distance_(own, 0) : kInfinity;
          const double bound = std::max(half_gap, at_.lower(i));
          if (at_.upper(i) <= bound) continue;
          at_.upper(i) = distance(point(i), center(own), d_);
          if (at_.upper(i) <= bound) continue;
          const Nearest nearest = nearest_around(point(i), own, at_.upper(i), to_center);
          at_.upper(i) = nearest.distance;
          at_.lower(i) = nearest.second_distance;
          if (nearest.cluster != own) {
            moved[chunk].emplace_back(i, own);
            at_.label(i) = nearest.cluster;
          }
        }
      });

      bool changed = false;
      for (const auto& list : moved) {
        for (const auto& [i, from] : list) {
          changed = true;
          move_point(i, from, at_.label(i));
        }
      }
      if (!changed) return {iteration, true};
    }
    return {max_iterations, max_iterations == 0};
  }

  KMeansResult result() {
    // Exact means of the final labels (the running sums were updated point by point), and
    // clusters left empty by a capped run are dropped.
    recompute_sums();
    const Index k = centers_.rows();
    Eigen::VectorXi renumber = Eigen::VectorXi::Constant(k, -1);
    int kept = 0;
    for (Index j = 0; j < k; ++j) {
      if (count_(j) > 0) renumber(j) = kept++;
    }
    KMeansResult out;
    out.centroids.resize(kept, d_);
    for (Index j = 0; j < k; ++j) {
      if (renumber(j) >= 0)
        out.centroids.row(renumber(j)) = sums_.row(j) / static_cast<double>(count_(j));
    }
    out.labels.resize(n_);
    for (Index i = 0; i < n_; ++i) out.labels(i) = renumber(at_.label(i));
    return out;
  }

 private:
  const double* point(Index i) const { return X_.row(i).data(); }
  const double* center(Index j) const { return centers_.row(j).data(); }

  double squared_sum(Index begin, Index end) const {
    double sum = 0.0;
    for (Index i = begin; i < end; ++i) sum += at_.upper(i) * at_.upper(i);
    return sum;
  }

  // The first point at which the running sum of D^2 (in point order) exceeds target.
  Index draw(double target, const std::vector<double>& chunk_weight) const {
    Index last_positive = 0;
    for (Index chunk = 0; chunk < static_cast<Index>(chunk_weight.size()); ++chunk) {
      if (chunk_weight[chunk] > 0.0) last_positive = chunk;
      if (target >= chunk_weight[chunk]) {
        target -= chunk_weight[chunk];
        continue;
      }
      const Index begin = chunk * detail::kChunkSize;
      const Index end = std::min(n_, begin + detail::kChunkSize);
      double running = 0.0;
      for (Index i = begin; i < end; ++i) {
        running += at_.upper(i) * at_.upper(i);
        if (running > target) return i;
      }
    }
    // Rounding left target past the end: take the last point of positive weight.
    const Index begin = last_positive * detail::kChunkSize;
    Index i = std::min(n_, begin + detail::kChunkSize) - 1;
    while (i > begin && !(at_.upper(i) > 0.0)) --i;
    return i;
  }

  struct Nearest {
    int cluster;
    double distance;         // to that cluster's center
    double second_distance;  // to the next nearest center (infinite if there is none)
  };

  // The nearest center of x by a full scan. Squared distances are summed over a feature-major
  // copy of the centers, a block of kBlock centers at a time, so the partial sums stay in
  // registers and the inner loop runs along the centers (vectorized).
  Nearest nearest_two(const double* x, std::vector<double>& to_center) const {
    const Index padded = centers_by_feature_.rows();
    using Block = Eigen::Array<double, kBlock, 1>;
    for (Index j0 = 0; j0 < padded; j0 += kBlock) {
      Block sum = Block::Zero();
      for (Index f = 0; f < d_; ++f) {
        sum += (x[f] - Eigen::Map<const Block>(centers_by_feature_.col(f).data() + j0)).square();
      }
      Eigen::Map<Block>(to_center.data() + j0) = sum;
    }
    const int k = static_cast<int>(centers_.rows());
    int nearest = 0;
    double second = kInfinity;
    for (int j = 1; j < k; ++j) {
      if (to_center[j] < to_center[nearest]) {
        second = to_center[nearest];
        nearest = j;
      } else {
        second = std::min(second, to_center[j]);
      }
    }
    return {nearest, std::sqrt(to_center[nearest]), std::sqrt(second)};
  }

  // centers_ in the layout nearest_two reads: padded to whole blocks with copies of the first
  // center (never nearer than it, and ignored by index anyway).
  void store_centers_by_feature() {
    const Index k = centers_.rows();
    const Index padded = (k + kBlock - 1) / kBlock * kBlock;
    centers_by_feature_.resize(padded, d_);
    centers_by_feature_.topRows(k) = centers_;
    for (Index j = k; j < padded; ++j) centers_by_feature_.row(j) = centers_.row(0);
  }

  // For each center, its nearest other centers (up to kNeighbors), ascending by distance.
  void store_center_neighbors() {
    const Index k = centers_.rows();
    const Index listed = std::min<Index>(k - 1, kNeighbors);
    neighbors_.resize(k, listed);
    neighbor_distance_.resize(k, listed);
    detail::parallel_chunks(k, threads_, [&](Index, Index begin, Index end) {
      std::vector<std::pair<double, int>> others;
      for (Index a = begin; a < end; ++a) {
        others.clear();
        for (Index j = 0; j < k; ++j) {
          if (j != a) others.emplace_back(distance(center(a), center(j), d_), static_cast<int>(j));
        }
        std::partial_sort(others.begin(), others.begin() + listed, others.end());
        for (Index l = 0; l < listed; ++l) {
          neighbor_distance_(a, l) = others[l].first;
          neighbors_(a, l) = others[l].second;
        }
      }
    });
  }

  // The nearest and second-nearest centers of x, given its own center and the exact distance to
  // it. Centers are tried in order of distance from the own one: a center j is at least
  // |c_own - c_j| - own_distance from x, so once that reaches the second-nearest distance so
  // far, no further center can change either result. Falls back to a full scan if the
  // neighbor list runs out first.
  Nearest nearest_around(const double* x, int own, double own_distance,
                         std::vector<double>& to_center) const {
    Nearest out{own, own_distance, kInfinity};
    for (Index l = 0; l < neighbors_.cols(); ++l) {
      if (neighbor_distance_(own, l) - own_distance >= out.second_distance) return out;
      const int j = neighbors_(own, l);
      const double to_j = distance(x, center(j), d_);
      if (to_j < out.distance || (to_j == out.distance && j < out.cluster)) {
        out.second_distance = out.distance;
        out.cluster = j;
        out.distance = to_j;
      } else {
        out.second_distance = std::min(out.second_distance, to_j);
      }
    }
    if (neighbors_.cols() == centers_.rows() - 1) return out;
    return nearest_two(x, to_center);
  }

  void recompute_sums() {
    const Index k = centers_.rows();
    sums_ = FeatureMatrix::Zero(k, d_);
    count_ = Eigen::VectorXi::Zero(k);
    for (Index i = 0; i < n_; ++i) {
      sums_.row(at_.label(i)) += X_.row(i);
      ++count_(at_.label(i));
    }
  }

  void move_point(Index i, int from, int to) {
    sums_.row(from) -= X_.row(i);
    --count_(from);
    sums_.row(to) += X_.row(i);
    ++count_(to);
  }

  // An empty cluster takes the point farthest from its (new) center among clusters that keep
  // at least one point; the point's bounds are reset so that it is checked in full.
  void refill_empty_clusters(FeatureMatrix& next) {
    for (Index j = 0; j < next.rows(); ++j) {
      if (count_(j) > 0) continue;
      Index farthest = -1;
      double largest = -1.0;
      for (Index i = 0; i < n_; ++i) {
        const int own = at_.label(i);
        if (count_(own) < 2) continue;
        const double to_own = distance(point(i), next.row(own).data(), d_);
        if (to_own > largest) {
          largest = to_own;
          farthest = i;
        }
      }
      if (farthest < 0) continue;  // no cluster has a point to spare
      const int donor = at_.label(farthest);
      move_point(farthest, donor, static_cast<int>(j));
      at_.label(farthest) = static_cast<int>(j);
      at_.upper(farthest) = kInfinity;
      at_.lower(farthest) = -kInfinity;
      next.row(j) = X_.row(farthest);
      next.row(donor) = sums_.row(donor) / static_cast<double>(count_(donor));
    }
  }

  const Eigen::Ref<const FeatureMatrix>& X_;
  Index n_;
  Index d_;
  int threads_;
  FeatureMatrix centers_;
  Eigen::Matrix<int, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> neighbors_;
  FeatureMatrix neighbor_distance_;     // k x listed, row-major like neighbors_
  Eigen::MatrixXd centers_by_feature_;  // k' x d column-major (k' = k padded to kBlock)
  Assignment at_;
  FeatureMatrix sums_;
  Eigen::VectorXi count_;
};

}  // namespace

KMeansResult kmeans(const Eigen::Ref<const FeatureMatrix>& points, const KMeansOptions& options) {
  const auto refuse = [](const std::string& problem) {
    throw std::invalid_argument("kmeans: " + problem);
  };
  if (points.rows() == 0 || points.cols() == 0) {
    refuse("no points or no features (" + std::to_string(points.rows()) + " x " +
           std::to_string(points.cols()) + ")");
  }
  if (!points.allFinite()) refuse("a point has a non-finite coordinate");
  if (options.clusters < 1 || options.clusters > points.rows()) {
    refuse("asked for " + std::to_string(options.clusters) + " clusters of " +
           std::to_string(points.rows()) + " points");
  }
  if (options.max_iterations < 0) refuse("max_iterations is negative");

  Clustering clustering(points, options);
  clustering.seed(options.clusters, options.seed);
  const auto [iterations, converged] = clustering.iterate(options.max_iterations);
  KMeansResult out = clustering.result();
  out.iterations = iterations;
  out.converged = converged;
  return out;
}

}  // namespace smfem::cubature
