#include "smfem/sim/kernels/sparse_cholesky.hpp"

#include <algorithm>
#include <atomic>
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

template <typename Real>
bool SparseCholesky<Real>::factor(const Eigen::SparseMatrix<double>& lower,
                                  parallel::ThreadPool* pool) {
  if (static_cast<std::size_t>(lower.nonZeros()) != entry_offsets_.size() ||
      static_cast<std::size_t>(lower.rows()) != new_index_.size()) {
    throw std::invalid_argument("SparseCholesky: the matrix has another pattern than analyze()'s");
  }
  const int threads = pool != nullptr ? pool->thread_count() : 1;
  plan_for(threads);
  if (threads == 1) {
    std::fill(factor_.begin(), factor_.end(), Real(0));
    for (std::size_t k = 0; k < entry_offsets_.size(); ++k) {
      factor_[entry_offsets_[k]] += static_cast<Real>(lower.valuePtr()[k]);
    }
    Stack stack{0, {}};
    for (const int root : plan_.pieces) {
      for (int s = subtree_first_[static_cast<std::size_t>(root)]; s <= root; ++s) {
        if (!factor_supernode(s, &stack, nullptr)) return false;
      }
    }
    return true;
  }
  scatter(lower, *pool);
  if (!factor_pieces(*pool) || !factor_top_tasks(*pool)) return false;
  for (std::size_t k = plan_.shared; k < plan_.top.size(); ++k) {
    if (!factor_supernode(plan_.top[k], nullptr, pool)) return false;
  }
  return true;
}

template <typename Real>
void SparseCholesky<Real>::scatter(const Eigen::SparseMatrix<double>& lower,
                                   parallel::ThreadPool& pool) {
  // Each thread zeroes its share of the panels and adds A's entries that land there.
  pool.parallel_for(plan_.threads, [&](int t) {
    const std::size_t size = factor_.size();
    const auto threads = static_cast<std::size_t>(plan_.threads);
    const auto thread = static_cast<std::size_t>(t);
    std::fill(factor_.data() + size * thread / threads,
              factor_.data() + size * (thread + 1) / threads, Real(0));
    for (const std::size_t k : plan_.entries[thread])
      factor_[entry_offsets_[k]] += static_cast<Real>(lower.valuePtr()[k]);
  });
}

template <typename Real>
bool SparseCholesky<Real>::factor_pieces(parallel::ThreadPool& pool) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  const std::size_t places = update_stack_.size() - plan_.stack_size * plan_.threads;
  const auto run = [&](int t) {
    Stack stack{places + plan_.stack_size * static_cast<std::size_t>(t), {}};
    for (std::size_t k = next++; k < plan_.pieces.size() && !failed; k = next++) {
      const int root = plan_.pieces[k];
      for (int s = subtree_first_[static_cast<std::size_t>(root)]; s <= root; ++s) {
        if (!factor_supernode(s, &stack, nullptr)) {
          failed = true;
          return;
        }
      }
    }
  };
  // One piece (a chain, say): on this thread, without waking the others.
  if (plan_.pieces.size() == 1) {
    run(0);
  } else {
    pool.parallel_for(plan_.threads, run);
  }
  return !failed;
}

template <typename Real>
bool SparseCholesky<Real>::factor_top_tasks(parallel::ThreadPool& pool) {
  // done[k]: task k is factored (or gave up); a task waits only for tasks taken before it, so the
  // wait ends.
  std::vector<std::atomic<char>> done(plan_.tasks.size());
  for (std::atomic<char>& flag : done) flag = 0;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  const auto run = [&](int) {
    for (std::size_t k = next++; k < plan_.tasks.size(); k = next++) {
      const auto& task = plan_.tasks[k];
      for (const int other : task.waits) {
        while (!done[static_cast<std::size_t>(other)].load(std::memory_order_acquire)) {
        }
      }
      for (const int s : task.supernodes) {
        if (failed || !factor_supernode(s, nullptr, nullptr)) failed = true;
      }
      done[k].store(1, std::memory_order_release);
    }
  };
  if (plan_.tasks.size() == 1) {
    run(0);
  } else if (!plan_.tasks.empty()) {
    pool.parallel_for(plan_.threads, run);
  }
  return !failed;
}

template <typename Real>
bool SparseCholesky<Real>::factor_supernode(int s, Stack* stack, parallel::ThreadPool* pool) {
  const Supernode& node = supernodes_[static_cast<std::size_t>(s)];
  Real* panel = factor_.data() + node.offset;
  const auto height = static_cast<std::size_t>(node.height);
  const int pivots = node.pivots();
  const auto width = static_cast<std::size_t>(node.updates());
  const bool on_stack = stack != nullptr;
  Real* update =
      update_stack_.data() + (on_stack ? stack->top : update_at_[static_cast<std::size_t>(s)]);
  std::fill(update, update + width * width, Real(0));
  for (int k = 0; k < node.padding; ++k) panel[static_cast<std::size_t>(k) * (height + 1)] = 1;
  // The children's update matrices (their lower triangles), last child first: those of its
  // piece are the top of its stack.
  std::size_t base = on_stack ? stack->top : 0;
  for (auto c = node.children.rbegin(); c != node.children.rend(); ++c) {
    const auto child_index = static_cast<std::size_t>(*c);
    const Supernode& child = supernodes_[child_index];
    if (plan_.kind[child_index] == kInPiece) {
      base = stack->pushed.back();
      stack->pushed.pop_back();
    }
    const auto child_width = static_cast<std::size_t>(child.updates());
    const Real* child_update = update_stack_.data() + update_at_[child_index];
    const auto rows = child.in_parent.size();
    for (std::size_t j = 0; j < rows; ++j) {
      const Real* column = child_update + j * (child_width + 1);
      // A column of the parent's pivots (in its panel, rows as in the front) or of its update
      // matrix (rows from its first pivot on).
      const int at = child.in_parent[j];
      const int first_row = at < pivots ? 0 : pivots;
      Real* target = at < pivots ? panel + static_cast<std::size_t>(at) * height
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
    const Real* source = panel + static_cast<std::size_t>(first) * height;
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
  if (!on_stack) return true;
  if (base != stack->top) std::copy(update, update + width * width, update_stack_.data() + base);
  update_at_[static_cast<std::size_t>(s)] = base;
  stack->pushed.push_back(base);
  stack->top = base + width * width;
  return true;
}

// L y = b at supernode s: its pivots by its diagonal block, then the rows below them less the
// pivots' columns times their values, gathered in below_rows first (products over contiguous
// memory four lanes at a time: a panel's rows below the pivots are padded with zeros to a
// multiple of 4, updates(), and so is the gathered copy).
template <typename Real>
void SparseCholesky<Real>::forward(int s, double* y, double* below_rows) const {
  using detail::Vec4;
  const Supernode& node = supernodes_[static_cast<std::size_t>(s)];
  const Real* panel = factor_.data() + node.offset;
  const auto height = static_cast<std::size_t>(node.height);
  const auto padded = static_cast<std::size_t>(node.updates());
  double* pivots = y + node.first;
  std::fill(below_rows, below_rows + padded, 0.0);
  for (int k = 0; k < node.count; ++k) {
    const Real* column = panel + static_cast<std::size_t>(node.padding + k) * height;
    const double value = pivots[k] / column[node.padding + k];
    pivots[k] = value;
    for (int i = k + 1; i < node.count; ++i) pivots[i] -= value * column[node.padding + i];
    const Real* below = column + node.pivots();
    const Vec4 splat = {value, value, value, value};
    for (std::size_t r = 0; r < padded; r += 4) {
      Vec4 sum, entries;
      detail::load_lanes(sum, below_rows + r);
      detail::load_as_doubles(entries, below + r);
      detail::store_lanes(below_rows + r, sum + splat * entries);
    }
  }
}

// L^T x = y at supernode s, its rows below already solved: the pivots, last first. (One sum per
// column in a scalar loop was a chain of dependent additions: the backward solve took half again
// the forward's; the rows are gathered into below_rows as in forward().)
template <typename Real>
void SparseCholesky<Real>::backward(int s, double* y, double* below_rows) const {
  using detail::Vec4;
  const Supernode& node = supernodes_[static_cast<std::size_t>(s)];
  const Real* panel = factor_.data() + node.offset;
  const auto height = static_cast<std::size_t>(node.height);
  const auto rows = node.rows.size();
  const auto padded = static_cast<std::size_t>(node.updates());
  double* pivots = y + node.first;
  for (std::size_t r = 0; r < rows; ++r) below_rows[r] = y[node.rows[r]];
  std::fill(below_rows + rows, below_rows + padded, 0.0);
  for (int k = node.count - 1; k >= 0; --k) {
    const Real* column = panel + static_cast<std::size_t>(node.padding + k) * height;
    const Real* below = column + node.pivots();
    Vec4 sums = {0.0, 0.0, 0.0, 0.0};
    for (std::size_t r = 0; r < padded; r += 4) {
      Vec4 entries, values;
      detail::load_as_doubles(entries, below + r);
      detail::load_lanes(values, below_rows + r);
      sums += entries * values;
    }
    double sum = detail::lane_sum(sums);
    for (int i = k + 1; i < node.count; ++i) sum += column[node.padding + i] * pivots[i];
    pivots[k] = (pivots[k] - sum) / column[node.padding + k];
  }
}

template <typename Real>
void SparseCholesky<Real>::solve_in_place(Eigen::Ref<Eigen::VectorXd> x,
                                          parallel::ThreadPool* pool) const {
  Eigen::VectorXd& y = work_;
  for (std::size_t i = 0; i < new_index_.size(); ++i) {
    y(new_index_[i]) = x(static_cast<Eigen::Index>(i));
  }
  const int count = static_cast<int>(supernodes_.size());
  if (pool != nullptr && plan_.threads > 1 && pool->thread_count() == plan_.threads) {
    solve_on_pool(*pool);
  } else {
    double* below_rows = gathered_.data();
    for (int s = 0; s < count; ++s) {
      forward(s, y.data(), below_rows);
      const Supernode& node = supernodes_[static_cast<std::size_t>(s)];
      for (std::size_t r = 0; r < node.rows.size(); ++r) y(node.rows[r]) -= below_rows[r];
    }
    for (int s = count - 1; s >= 0; --s) backward(s, y.data(), below_rows);
  }
  for (std::size_t i = 0; i < new_index_.size(); ++i) {
    x(static_cast<Eigen::Index>(i)) = y(new_index_[i]);
  }
}

template <typename Real>
void SparseCholesky<Real>::solve_on_pool(parallel::ThreadPool& pool) const {
  double* y = work_.data();
  const auto rows_of = [&](int s) -> const std::vector<int>& {
    return supernodes_[static_cast<std::size_t>(s)].rows;
  };
  // Forward: the pieces side by side, each thread with a gathered copy of its own. A piece's
  // supernode subtracts from the rows of its own piece at once (no other piece reaches them) and
  // leaves what it subtracts from the top's rows in its place of stash_; then, in the order of
  // the one-thread solve (the postorder), the top's supernodes are solved and the pieces' stashed
  // values subtracted, so that every row takes the same subtractions in the same order as on one
  // thread: the solution is the same to the bit.
  std::atomic<std::size_t> next{0};
  pool.parallel_for(plan_.threads, [&](int t) {
    double* below_rows = gathered_.data() + most_rows_ * static_cast<std::size_t>(t);
    for (std::size_t k = next++; k < plan_.pieces.size(); k = next++) {
      const int root = plan_.pieces[k];
      for (int s = subtree_first_[static_cast<std::size_t>(root)]; s <= root; ++s) {
        forward(s, y, below_rows);
        double* stash = stash_.data() + stash_at_[static_cast<std::size_t>(s)];
        const std::vector<int>& rows = rows_of(s);
        for (std::size_t r = 0; r < rows.size(); ++r) {
          if (top_column_[static_cast<std::size_t>(rows[r])]) {
            *stash++ = below_rows[r];
          } else {
            y[rows[r]] -= below_rows[r];
          }
        }
      }
    }
  });
  double* below_rows = gathered_.data();
  const int count = static_cast<int>(supernodes_.size());
  for (int s = 0; s < count; ++s) {
    const std::vector<int>& rows = rows_of(s);
    if (plan_.kind[static_cast<std::size_t>(s)] == kTop) {
      forward(s, y, below_rows);
      for (std::size_t r = 0; r < rows.size(); ++r) y[rows[r]] -= below_rows[r];
      continue;
    }
    const double* stash = stash_.data() + stash_at_[static_cast<std::size_t>(s)];
    for (const int row : rows) {
      if (top_column_[static_cast<std::size_t>(row)]) y[row] -= *stash++;
    }
  }
  // Backward: the top first (it reads only its own rows, all in the top), then the pieces side by
  // side (each reads the top's solved rows and its own piece's).
  for (auto s = plan_.top.rbegin(); s != plan_.top.rend(); ++s) backward(*s, y, below_rows);
  next = 0;
  pool.parallel_for(plan_.threads, [&](int t) {
    double* own_rows = gathered_.data() + most_rows_ * static_cast<std::size_t>(t);
    for (std::size_t k = next++; k < plan_.pieces.size(); k = next++) {
      const int root = plan_.pieces[k];
      for (int s = root; s >= subtree_first_[static_cast<std::size_t>(root)]; --s) {
        backward(s, y, own_rows);
      }
    }
  });
}

// Member by member (the analysis's are in its file): a unity build puts both files in one unit.
template bool SparseCholesky<float>::factor(const Eigen::SparseMatrix<double>&,
                                            parallel::ThreadPool*);
template bool SparseCholesky<double>::factor(const Eigen::SparseMatrix<double>&,
                                             parallel::ThreadPool*);
template void SparseCholesky<float>::solve_in_place(Eigen::Ref<Eigen::VectorXd>,
                                                    parallel::ThreadPool*) const;
template void SparseCholesky<double>::solve_in_place(Eigen::Ref<Eigen::VectorXd>,
                                                     parallel::ThreadPool*) const;

}  // namespace smfem::sim
