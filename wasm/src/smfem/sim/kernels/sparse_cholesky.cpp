#include "smfem/sim/kernels/sparse_cholesky.hpp"

#include <algorithm>
#include <stdexcept>

#include "smfem/sim/kernels/detail/cholesky_tiles.hpp"
#include "smfem/sim/kernels/detail/four_lanes.hpp"

// The numeric half of SparseCholesky: the factorization and the solves (the symbolic half is
// sparse_cholesky_analysis.cpp).
namespace smfem::sim {
namespace {

using detail::kCholeskyPanel;

// A front's update is shared among a pool's threads from this many multiply-adds per panel on:
// below it waking them costs more than they save.
constexpr double kParallelPanelWork = 2e5;

}  // namespace

bool SparseCholesky::factor(const Eigen::SparseMatrix<double>& lower, parallel::ThreadPool* pool) {
  if (static_cast<std::size_t>(lower.nonZeros()) != entry_offsets_.size() ||
      static_cast<std::size_t>(lower.rows()) != new_index_.size()) {
    throw std::invalid_argument("SparseCholesky: the matrix has another pattern than analyze()'s");
  }
  const int threads = pool != nullptr ? pool->thread_count() : 1;
  plan_for(threads);
  std::fill(factor_.begin(), factor_.end(), 0.0);
  std::size_t k = 0;
  for (int j = 0; j < lower.outerSize(); ++j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(lower, j); it; ++it) {
      factor_[entry_offsets_[k++]] += it.value();
    }
  }
  // The subtrees, a thread each (their fronts' updates not shared: the pool is busy), then the
  // top.
  std::vector<char> factored(static_cast<std::size_t>(threads), 1);
  if (threads > 1) {
    pool->parallel_for(threads, [&](int t) {
      Stack stack{plan_.stack_base[static_cast<std::size_t>(t)], {}};
      for (const int root : plan_.subtrees[static_cast<std::size_t>(t)]) {
        for (int s = subtree_first_[static_cast<std::size_t>(root)]; s <= root; ++s) {
          if (!factor_supernode(s, stack, nullptr)) {
            factored[static_cast<std::size_t>(t)] = 0;
            return;
          }
        }
      }
    });
  }
  if (std::find(factored.begin(), factored.end(), 0) != factored.end()) return false;
  Stack stack{plan_.stack_base.back(), {}};
  for (const int s : plan_.top) {
    if (!factor_supernode(s, stack, pool)) return false;
  }
  return true;
}

bool SparseCholesky::factor_supernode(int s, Stack& stack, parallel::ThreadPool* pool) {
  const Supernode& node = supernodes_[static_cast<std::size_t>(s)];
  double* panel = factor_.data() + node.offset;
  const auto height = static_cast<std::size_t>(node.height);
  const int pivots = node.pivots();
  const auto width = static_cast<std::size_t>(node.updates());
  double* update = update_stack_.data() + stack.top;
  std::fill(update, update + width * width, 0.0);
  for (int k = 0; k < node.padding; ++k) panel[static_cast<std::size_t>(k) * (height + 1)] = 1.0;
  // The children's update matrices (their lower triangles), last child first: those factored on
  // this stack are its top.
  const int region = plan_.region[static_cast<std::size_t>(s)];
  std::size_t base = stack.top;
  for (auto c = node.children.rbegin(); c != node.children.rend(); ++c) {
    const auto child_index = static_cast<std::size_t>(*c);
    const Supernode& child = supernodes_[child_index];
    if (plan_.region[child_index] == region) {
      base = stack.pushed.back();
      stack.pushed.pop_back();
    }
    const auto child_width = static_cast<std::size_t>(child.updates());
    const double* child_update = update_stack_.data() + update_at_[child_index];
    const auto rows = child.in_parent.size();
    for (std::size_t j = 0; j < rows; ++j) {
      const double* column = child_update + j * (child_width + 1);
      // A column of the parent's pivots (in its panel, rows as in the front) or of its update
      // matrix (rows from its first pivot on).
      const int at = child.in_parent[j];
      const int first_row = at < pivots ? 0 : pivots;
      double* target = at < pivots ? panel + static_cast<std::size_t>(at) * height
                                   : update + static_cast<std::size_t>(at - pivots) * width;
      for (std::size_t i = 0; i < rows - j; ++i) {
        target[child.in_parent[j + i] - first_row] += column[i];
      }
    }
  }
  // The pivots, 32 columns at a time, each panel then updating every later column, of the
  // pivots or of the update matrix, by tiles of four.
  for (int first = 0; first < pivots; first += kCholeskyPanel) {
    const int last = std::min(pivots, first + kCholeskyPanel);
    if (!detail::factor_columns(panel, height, node.height, first, last)) return false;
    const int tiles = (node.height - last) / 4;
    const double work = 0.5 * (node.height - last) * (node.height - last) * (last - first);
    const int threads = pool != nullptr && work >= kParallelPanelWork ? pool->thread_count() : 1;
    const double* source = panel + static_cast<std::size_t>(first) * height;
    // Tile columns alternate between the threads: the triangle's columns shorten to the right.
    const auto run = [&](int thread) {
      for (int tile = thread; tile < tiles; tile += threads) {
        const int j = last + 4 * tile;
        if (j < pivots) {
          detail::subtract_panel_tile(panel, height, node.height, first, last, j);
        } else {
          const auto u = static_cast<std::size_t>(j - pivots);
          detail::subtract_products(source + j, source + j, height, last - first,
                                    update + u * (width + 1), width, node.height - j);
        }
      }
    };
    if (threads > 1) {
      pool->parallel_for(threads, run);
    } else {
      run(0);
    }
  }
  // This update matrix replaces its children's on the stack.
  if (base != stack.top) std::copy(update, update + width * width, update_stack_.data() + base);
  update_at_[static_cast<std::size_t>(s)] = base;
  stack.pushed.push_back(base);
  stack.top = base + width * width;
  return true;
}

void SparseCholesky::solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const {
  using detail::lanes;
  using detail::Vec4;
  Eigen::VectorXd& y = work_;
  for (std::size_t i = 0; i < new_index_.size(); ++i) {
    y(new_index_[i]) = x(static_cast<Eigen::Index>(i));
  }
  // Each supernode's rows below its pivots, gathered, so that the products with them run over
  // contiguous memory four lanes at a time: a panel's rows below the pivots are padded with zeros
  // to a multiple of 4 (updates()), and so is the gathered copy. (One sum per column in a scalar
  // loop was a chain of dependent additions: the backward solve took half again the forward's.)
  double* below_rows = gathered_.data();
  // L y = b, supernode by supernode: its pivots by its diagonal block, then the rows below less
  // the pivots' columns times their values.
  for (const Supernode& node : supernodes_) {
    const double* panel = factor_.data() + node.offset;
    const auto height = static_cast<std::size_t>(node.height);
    const auto rows = node.rows.size();
    const auto padded = static_cast<std::size_t>(node.updates());
    double* pivots = y.data() + node.first;
    std::fill(below_rows, below_rows + padded, 0.0);
    for (int k = 0; k < node.count; ++k) {
      const double* column = panel + static_cast<std::size_t>(node.padding + k) * height;
      const double value = pivots[k] / column[node.padding + k];
      pivots[k] = value;
      for (int i = k + 1; i < node.count; ++i) pivots[i] -= value * column[node.padding + i];
      const double* below = column + node.pivots();
      const Vec4 splat = {value, value, value, value};
      for (std::size_t r = 0; r < padded; r += 4) lanes(below_rows + r) += splat * lanes(below + r);
    }
    for (std::size_t r = 0; r < rows; ++r) y(node.rows[r]) -= below_rows[r];
  }
  // L^T x = y, backwards.
  for (auto s = supernodes_.rbegin(); s != supernodes_.rend(); ++s) {
    const Supernode& node = *s;
    const double* panel = factor_.data() + node.offset;
    const auto height = static_cast<std::size_t>(node.height);
    const auto rows = node.rows.size();
    const auto padded = static_cast<std::size_t>(node.updates());
    double* pivots = y.data() + node.first;
    for (std::size_t r = 0; r < rows; ++r) below_rows[r] = y(node.rows[r]);
    std::fill(below_rows + rows, below_rows + padded, 0.0);
    for (int k = node.count - 1; k >= 0; --k) {
      const double* column = panel + static_cast<std::size_t>(node.padding + k) * height;
      const double* below = column + node.pivots();
      Vec4 sums = {0.0, 0.0, 0.0, 0.0};
      for (std::size_t r = 0; r < padded; r += 4) sums += lanes(below + r) * lanes(below_rows + r);
      double sum = detail::lane_sum(sums);
      for (int i = k + 1; i < node.count; ++i) sum += column[node.padding + i] * pivots[i];
      pivots[k] = (pivots[k] - sum) / column[node.padding + k];
    }
  }
  for (std::size_t i = 0; i < new_index_.size(); ++i) {
    x(static_cast<Eigen::Index>(i)) = y(new_index_[i]);
  }
}

}  // namespace smfem::sim
