#include "smfem/sim/kernels/block_cholesky.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>

#include "smfem/sim/kernels/detail/cholesky_tiles.hpp"

namespace smfem::sim {
namespace {

using detail::subtract_products;

// A panel's rows below its diagonal block, or a column's updates, are shared among a pool's
// threads from this many multiply-adds on: below it waking them costs more than they save.
constexpr double kParallelWork = 1e6;

}  // namespace

void BlockCholesky::set_structure(const std::vector<int>& sizes,
                                  const std::vector<std::pair<int, int>>& couplings) {
  const std::size_t count = sizes.size();
  // Symbolic elimination: eliminating block p couples every pair of the blocks below it.
  std::vector<std::vector<char>> coupled(count, std::vector<char>(count, 0));
  for (const auto& [a, b] : couplings) {
    if (std::min(a, b) < 0 || static_cast<std::size_t>(std::max(a, b)) >= count) {
      throw std::out_of_range("BlockCholesky: a coupling of no block");
    }
    const auto low = static_cast<std::size_t>(std::min(a, b));
    const auto high = static_cast<std::size_t>(std::max(a, b));
    if (low != high) coupled[low][high] = 1;
  }
  std::vector<Column> columns(count);
  int first = 0;
  std::size_t offset = 0;
  for (std::size_t p = 0; p < count; ++p) {
    Column& column = columns[p];
    if (sizes[p] <= 0 || sizes[p] % 4 != 0) {
      throw std::invalid_argument("BlockCholesky: block sizes must be positive multiples of 4");
    }
    column.first = first;
    column.size = sizes[p];
    column.height = sizes[p];
    for (std::size_t q = p + 1; q < count; ++q) {
      if (!coupled[p][q]) continue;
      column.below.push_back(static_cast<int>(q));
      column.below_rows.push_back(column.height);
      column.height += sizes[q];
    }
    for (std::size_t a = 0; a < column.below.size(); ++a) {
      for (std::size_t b = a + 1; b < column.below.size(); ++b) {
        coupled[static_cast<std::size_t>(column.below[a])]
               [static_cast<std::size_t>(column.below[b])] = 1;
      }
    }
    column.offset = offset;
    offset += static_cast<std::size_t>(column.height) * static_cast<std::size_t>(column.size);
    first += sizes[p];
  }
  size_ = first;
  if (columns != columns_) {
    columns_ = std::move(columns);
    A_.resize(offset);
    L_.resize(offset);
    planned_threads_ = 0;
  }
}

void BlockCholesky::set_zero() { std::fill(A_.begin(), A_.end(), 0.0); }

int BlockCholesky::block_of(int unknown) const {
  const auto after = std::upper_bound(columns_.begin(), columns_.end(), unknown,
                                      [](int u, const Column& c) { return u < c.first; });
  return static_cast<int>(after - columns_.begin()) - 1;
}

int BlockCholesky::panel_row(int row_block, int column) const {
  if (row_block == column) return 0;
  const Column& c = columns_[static_cast<std::size_t>(column)];
  const auto at = std::lower_bound(c.below.begin(), c.below.end(), row_block);
  if (at == c.below.end() || *at != row_block) {
    throw std::out_of_range("BlockCholesky: block (" + std::to_string(row_block) + ", " +
                            std::to_string(column) + ") is not stored");
  }
  return c.below_rows[static_cast<std::size_t>(at - c.below.begin())];
}

BlockCholesky::BlockView BlockCholesky::block(int row, int col, int rows, int cols) {
  if (row < 0 || col < 0 || rows < 0 || cols < 0) {
    throw std::out_of_range("BlockCholesky: a view must lie in one lower block");
  }
  const int p = block_of(col);
  const int q = block_of(row);
  const Column& column = columns_[static_cast<std::size_t>(p)];
  const Column& row_block = columns_[static_cast<std::size_t>(q)];
  if (q < p || col + cols > column.first + column.size ||
      row + rows > row_block.first + row_block.size) {
    throw std::out_of_range("BlockCholesky: a view must lie in one lower block");
  }
  const std::size_t entry = column.offset +
                            static_cast<std::size_t>(col - column.first) * column.height +
                            static_cast<std::size_t>(panel_row(q, p) + row - row_block.first);
  return BlockView(A_.data() + entry, rows, cols, Eigen::OuterStride<>(column.height));
}

Eigen::VectorXd BlockCholesky::diagonal() const {
  Eigen::VectorXd values(size_);
  for (const Column& c : columns_) {
    for (int j = 0; j < c.size; ++j) {
      values(c.first + j) = A_[c.offset + static_cast<std::size_t>(j) * c.height + j];
    }
  }
  return values;
}

void BlockCholesky::add_to_diagonal(const Eigen::Ref<const Eigen::VectorXd>& values) {
  for (const Column& c : columns_) {
    for (int j = 0; j < c.size; ++j) {
      A_[c.offset + static_cast<std::size_t>(j) * c.height + j] += values(c.first + j);
    }
  }
}

bool BlockCholesky::factor(parallel::ThreadPool* pool) {
  std::copy(A_.begin(), A_.end(), L_.begin());
  side_by_side_columns_ = 0;
  if (pool != nullptr && pool->thread_count() > 1) {
    plan_subtrees(pool->thread_count());
    side_by_side_columns_ = static_cast<int>(std::count_if(
        subtree_thread_.begin(), subtree_thread_.end(), [](int t) { return t >= 0; }));
    if (side_by_side_columns_ > 0 && !factor_subtrees(*pool)) return false;
  }
  for (std::size_t p = 0; p < columns_.size(); ++p) {
    // A subtree's column is factored; its updates above the subtrees are left.
    const bool factored = side_by_side_columns_ > 0 && subtree_thread_[p] >= 0;
    if (!factored && !factor_panel(static_cast<int>(p), pool)) return false;
    update_targets(static_cast<int>(p), pool);
  }
  return true;
}

void BlockCholesky::plan_subtrees(int threads) {
  if (planned_threads_ == threads) return;
  planned_threads_ = threads;
  const std::size_t count = columns_.size();
  subtree_thread_.assign(count, -1);
  if (count == 0) return;
  // Each column's subtree's multiply-adds (its own factorization and updates, and its
  // descendants'), children before their parents, whose indices are larger.
  std::vector<double> work(count, 0.0);
  std::vector<std::vector<int>> children(count);
  std::vector<int> roots;
  for (std::size_t p = 0; p < count; ++p) {
    const Column& c = columns_[p];
    const double size = c.size;
    work[p] += 0.5 * (c.height - c.size) * size * size + size * size * size / 6.0;
    for (std::size_t t = 0; t < c.below.size(); ++t) work[p] += update_work(c, t);
    if (c.below.empty()) {
      roots.push_back(static_cast<int>(p));
    } else {
      const auto parent = static_cast<std::size_t>(c.below.front());
      work[parent] += work[p];
      children[parent].push_back(static_cast<int>(p));
    }
  }
  // The largest subtree gives way to its children while it holds more than a thread's share of
  // the subtrees' work (its own column joins the columns above them).
  for (;;) {
    double total = 0.0;
    auto largest = roots.begin();
    for (auto root = roots.begin(); root != roots.end(); ++root) {
      total += work[static_cast<std::size_t>(*root)];
      if (work[static_cast<std::size_t>(*root)] > work[static_cast<std::size_t>(*largest)]) {
        largest = root;
      }
    }
    const auto split = static_cast<std::size_t>(*largest);
    if (work[split] <= total / threads || children[split].empty()) break;
    roots.erase(largest);
    roots.insert(roots.end(), children[split].begin(), children[split].end());
  }
  // Too little work to wake the pool for (as for a panel's rows or a column's updates).
  double chosen = 0.0;
  for (const int root : roots) chosen += work[static_cast<std::size_t>(root)];
  if (chosen < kParallelWork) return;
  // The largest subtree first to the thread with the least work so far.
  std::stable_sort(roots.begin(), roots.end(), [&](int a, int b) {
    return work[static_cast<std::size_t>(a)] > work[static_cast<std::size_t>(b)];
  });
  std::vector<double> load(static_cast<std::size_t>(threads), 0.0);
  for (const int root : roots) {
    const auto thread = std::min_element(load.begin(), load.end()) - load.begin();
    load[static_cast<std::size_t>(thread)] += work[static_cast<std::size_t>(root)];
    std::vector<int> stack{root};
    while (!stack.empty()) {
      const auto p = static_cast<std::size_t>(stack.back());
      stack.pop_back();
      subtree_thread_[p] = static_cast<int>(thread);
      stack.insert(stack.end(), children[p].begin(), children[p].end());
    }
  }
  // One thread's subtrees alone are no better factored apart.
  if (std::count_if(load.begin(), load.end(), [](double w) { return w > 0.0; }) < 2) {
    subtree_thread_.assign(count, -1);
  }
}

bool BlockCholesky::factor_subtrees(parallel::ThreadPool& pool) {
  std::atomic<bool> failed{false};
  pool.parallel_for(planned_threads_, [&](int thread) {
    for (std::size_t p = 0; p < columns_.size(); ++p) {
      if (subtree_thread_[p] != thread) continue;
      if (failed.load(std::memory_order_relaxed) || !factor_panel(static_cast<int>(p), nullptr)) {
        failed.store(true, std::memory_order_relaxed);
        return;
      }
      const Column& c = columns_[p];
      for (std::size_t t = 0; t < c.below.size(); ++t) {
        if (subtree_thread_[static_cast<std::size_t>(c.below[t])] == thread) {
          update(static_cast<int>(p), t);
        }
      }
    }
  });
  return !failed.load();
}

bool BlockCholesky::factor_panel(int p, parallel::ThreadPool* pool) {
  const Column& c = columns_[static_cast<std::size_t>(p)];
  double* P = L_.data() + c.offset;
  const auto stride = static_cast<std::size_t>(c.height);
  // The rows below the diagonal block: each a triangular solve against it.
  const int below = c.height - c.size;
  const double work = 0.5 * below * c.size * c.size;
  const int threads =
      pool != nullptr && work >= kParallelWork ? std::min(pool->thread_count(), below / 4) : 1;
  if (threads <= 1) return detail::factor_tall_panel(P, stride, c.height, c.size);
  if (!detail::factor_tall_panel(P, stride, c.size, c.size)) return false;
  const int quads = below / 4;
  pool->parallel_for(threads, [&](int thread) {
    const int begin = c.size + 4 * (quads * thread / threads);
    const int end = c.size + 4 * (quads * (thread + 1) / threads);
    detail::solve_panel_rows(P, stride, c.size, begin, end);
  });
  return true;
}

void BlockCholesky::update_targets(int p, parallel::ThreadPool* pool) {
  const Column& c = columns_[static_cast<std::size_t>(p)];
  // The targets left: those within a subtree were updated by its thread.
  targets_.clear();
  for (std::size_t t = 0; t < c.below.size(); ++t) {
    if (side_by_side_columns_ == 0 || subtree_thread_[static_cast<std::size_t>(c.below[t])] < 0) {
      targets_.push_back(t);
    }
  }
  const std::size_t targets = targets_.size();
  double work = 0.0;
  for (const std::size_t t : targets_) work += update_work(c, t);
  const int threads = pool != nullptr && targets > 1 && work >= kParallelWork
                          ? std::min(pool->thread_count(), static_cast<int>(targets))
                          : 1;
  if (threads == 1) {
    for (const std::size_t t : targets_) update(p, t);
    return;
  }
  // Each target to the thread with the least work so far, in the order of the blocks below
  // (their work falls down the panel, the first target's the most rows): dealt in turn, one
  // thread got the first, third, ... and the most work.
  owner_.assign(targets, 0);
  load_.assign(static_cast<std::size_t>(threads), 0.0);
  for (std::size_t k = 0; k < targets; ++k) {
    const auto least = std::min_element(load_.begin(), load_.end()) - load_.begin();
    owner_[k] = static_cast<int>(least);
    load_[static_cast<std::size_t>(least)] += update_work(c, targets_[k]);
  }
  pool->parallel_for(threads, [&](int thread) {
    for (std::size_t k = 0; k < targets; ++k) {
      if (owner_[k] == thread) update(p, targets_[k]);
    }
  });
}

double BlockCholesky::update_work(const Column& c, std::size_t t) const {
  const int size = columns_[static_cast<std::size_t>(c.below[t])].size;
  return static_cast<double>(c.height - c.below_rows[t]) * size * c.size;
}

// Target q = below[t]: its panel's rows of each block at or below q (column p's blocks t, t + 1,
// ...) less L(that block, p) L(q, p)^T. The fill pattern puts every block below q in column p
// among q's blocks below too.
void BlockCholesky::update(int p, std::size_t t) {
  const Column& c = columns_[static_cast<std::size_t>(p)];
  const int q = c.below[t];
  const Column& target = columns_[static_cast<std::size_t>(q)];
  const auto height = static_cast<std::size_t>(c.height);
  const auto target_height = static_cast<std::size_t>(target.height);
  const double* P = L_.data() + c.offset;
  double* T = L_.data() + target.offset;
  const double* rows_q = P + c.below_rows[t];
  // The diagonal block, from row j down (the tile on the diagonal also writes above it, into the
  // triangle nothing reads).
  for (int j = 0; j < target.size; j += 4) {
    subtract_products(rows_q + j, rows_q + j, height, c.size, T + j * target_height + j,
                      target_height, target.size - j);
  }
  for (std::size_t u = t + 1; u < c.below.size(); ++u) {
    const int block = c.below[u];
    const int rows = columns_[static_cast<std::size_t>(block)].size;
    double* T_block = T + panel_row(block, q);
    for (int j = 0; j < target.size; j += 4) {
      subtract_products(P + c.below_rows[u], rows_q + j, height, c.size,
                        T_block + j * target_height, target_height, rows);
    }
  }
}

void BlockCholesky::solve_in_place(Eigen::Ref<Eigen::VectorXd> x) const {
  // L y = x, column by column.
  for (const Column& c : columns_) {
    const auto height = static_cast<std::size_t>(c.height);
    const double* P = L_.data() + c.offset;
    for (int j = 0; j < c.size; ++j) {
      const double* column_j = P + j * height;
      const double value = x(c.first + j) / column_j[j];
      x(c.first + j) = value;
      for (int i = j + 1; i < c.size; ++i) x(c.first + i) -= value * column_j[i];
      for (std::size_t u = 0; u < c.below.size(); ++u) {
        const Column& b = columns_[static_cast<std::size_t>(c.below[u])];
        const double* rows = column_j + c.below_rows[u];
        for (int i = 0; i < b.size; ++i) x(b.first + i) -= value * rows[i];
      }
    }
  }
  // L^T x = y, from the last unknown up.
  for (auto c = columns_.rbegin(); c != columns_.rend(); ++c) {
    const auto height = static_cast<std::size_t>(c->height);
    const double* P = L_.data() + c->offset;
    for (int j = c->size - 1; j >= 0; --j) {
      const double* column_j = P + j * height;
      double sum = 0.0;
      for (int i = j + 1; i < c->size; ++i) sum += column_j[i] * x(c->first + i);
      for (std::size_t u = 0; u < c->below.size(); ++u) {
        const Column& b = columns_[static_cast<std::size_t>(c->below[u])];
        const double* rows = column_j + c->below_rows[u];
        for (int i = 0; i < b.size; ++i) sum += rows[i] * x(b.first + i);
      }
      x(c->first + j) = (x(c->first + j) - sum) / column_j[j];
    }
  }
}

}  // namespace smfem::sim
