#include "smfem/sim/kernels/sparse_cholesky.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <Eigen/OrderingMethods>

// The symbolic half of SparseCholesky: the order, the supernodes and their fronts, and the plan
// that shares them among threads (the numeric half is sparse_cholesky.cpp).
namespace smfem::sim {
namespace {

int round_up_to_4(int n) { return (n + 3) / 4 * 4; }

// Relaxed amalgamation (CHOLMOD's default rule): a supernode merges into its parent when the
// two together have at most 4 columns, or at most 16 and under 80 % zeros, or at most 48 and
// under 10 %, or any width and under 5 %.
bool worth_merging(int columns, double zero_fraction) {
  return columns <= 4 || (columns <= 16 && zero_fraction < 0.8) ||
         (columns <= 48 && zero_fraction < 0.1) || zero_fraction < 0.05;
}

// Entries of a dense lower trapezoid: `columns` columns over `columns + rows` rows.
double trapezoid(int columns, int rows) {
  return 0.5 * columns * (columns + 1.0) + static_cast<double>(columns) * rows;
}

// A column list of each unknown's neighbours before it (row r: the c < r with A(r, c) != 0)
// and after it, in the numbering `index` gives (old -> new).
struct Neighbours {
  std::vector<std::vector<int>> before, after;
};

Neighbours neighbours(const Eigen::SparseMatrix<double>& lower, const std::vector<int>& index) {
  const auto n = static_cast<std::size_t>(lower.rows());
  Neighbours result{std::vector<std::vector<int>>(n), std::vector<std::vector<int>>(n)};
  for (int j = 0; j < lower.outerSize(); ++j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(lower, j); it; ++it) {
      const int a = index[static_cast<std::size_t>(it.row())];
      const int b = index[static_cast<std::size_t>(j)];
      if (a == b) continue;
      result.before[static_cast<std::size_t>(std::max(a, b))].push_back(std::min(a, b));
      result.after[static_cast<std::size_t>(std::min(a, b))].push_back(std::max(a, b));
    }
  }
  return result;
}

// The elimination tree (Liu's algorithm with path compression): parent of each column, -1 at
// a root.
std::vector<int> elimination_tree(const std::vector<std::vector<int>>& before) {
  const std::size_t n = before.size();
  std::vector<int> parent(n, -1), ancestor(n, -1);
  for (std::size_t k = 0; k < n; ++k) {
    for (int i : before[k]) {
      while (i != -1 && i < static_cast<int>(k)) {
        const int next = ancestor[static_cast<std::size_t>(i)];
        ancestor[static_cast<std::size_t>(i)] = static_cast<int>(k);
        if (next == -1) parent[static_cast<std::size_t>(i)] = static_cast<int>(k);
        i = next;
      }
    }
  }
  return parent;
}

// The columns in postorder (children in ascending order, each subtree contiguous).
std::vector<int> postorder(const std::vector<int>& parent) {
  const std::size_t n = parent.size();
  std::vector<std::vector<int>> children(n);
  std::vector<int> roots;
  for (std::size_t k = 0; k < n; ++k) {
    (parent[k] < 0 ? roots : children[static_cast<std::size_t>(parent[k])])
        .push_back(static_cast<int>(k));
  }
  std::vector<int> order;
  order.reserve(n);
  std::vector<std::pair<int, std::size_t>> stack;  // node, next child to visit
  for (const int root : roots) {
    stack.emplace_back(root, 0);
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      const std::vector<int>& below = children[static_cast<std::size_t>(node)];
      if (next < below.size()) {
        const int child = below[next++];
        stack.emplace_back(child, 0);
      } else {
        order.push_back(node);
        stack.pop_back();
      }
    }
  }
  return order;
}

}  // namespace

template <typename Real>
void SparseCholesky<Real>::analyze(const Eigen::SparseMatrix<double>& lower) {
  if (lower.rows() != lower.cols()) {
    throw std::invalid_argument("SparseCholesky: the matrix is " + std::to_string(lower.rows()) +
                                " x " + std::to_string(lower.cols()) + ", not square");
  }
  const auto n = static_cast<std::size_t>(lower.rows());
  for (int j = 0; j < lower.outerSize(); ++j) {
    bool diagonal = false;
    for (Eigen::SparseMatrix<double>::InnerIterator it(lower, j); it; ++it) {
      if (it.row() < j) {
        throw std::invalid_argument("SparseCholesky: an entry above the diagonal, (" +
                                    std::to_string(it.row()) + ", " + std::to_string(j) +
                                    "): give the lower triangle only");
      }
      diagonal = diagonal || it.row() == j;
    }
    if (!diagonal) {
      throw std::invalid_argument("SparseCholesky: no diagonal entry in column " +
                                  std::to_string(j));
    }
  }

  // The order: approximate minimum degree on the symmetric pattern, then the elimination tree's
  // postorder.
  Eigen::SparseMatrix<double> full = lower.selfadjointView<Eigen::Lower>();
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> amd;  // new -> old
  Eigen::AMDOrdering<int>()(full, amd);
  std::vector<int> index(n);
  for (std::size_t k = 0; k < n; ++k)
    index[static_cast<std::size_t>(amd.indices()(k))] = static_cast<int>(k);
  Neighbours graph = neighbours(lower, index);
  std::vector<int> parent = elimination_tree(graph.before);
  // Renumbered in postorder. A postorder keeps descendants before ancestors, and an entry of A
  // couples a column to one of its ancestors, so "after" stays after and the tree is the same
  // tree: both are relabelled, not computed again.
  {
    const std::vector<int> order = postorder(parent);
    std::vector<int> position(n);
    for (std::size_t k = 0; k < n; ++k)
      position[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
    const auto relabel = [&](int i) { return i < 0 ? i : position[static_cast<std::size_t>(i)]; };
    for (int& i : index) i = relabel(i);
    std::vector<int> relabelled_parent(n);
    std::vector<std::vector<int>> relabelled_after(n);
    for (std::size_t k = 0; k < n; ++k) {
      const auto to = static_cast<std::size_t>(position[k]);
      relabelled_parent[to] = relabel(parent[k]);
      relabelled_after[to] = std::move(graph.after[k]);
      for (int& r : relabelled_after[to]) r = relabel(r);
    }
    parent = std::move(relabelled_parent);
    graph.after = std::move(relabelled_after);
  }
  new_index_ = index;

  // Each column's rows below the diagonal: its own entries and its children's rows (less
  // itself). Children come before their parent in a postorder.
  std::vector<std::vector<int>> structure(n);
  {
    std::vector<std::vector<int>> children(n);
    for (std::size_t k = 0; k < n; ++k) {
      if (parent[k] >= 0)
        children[static_cast<std::size_t>(parent[k])].push_back(static_cast<int>(k));
    }
    std::vector<int> mark(n, -1);
    for (std::size_t k = 0; k < n; ++k) {
      std::vector<int>& rows = structure[k];
      const auto add = [&](int r) {
        if (r > static_cast<int>(k) && mark[static_cast<std::size_t>(r)] != static_cast<int>(k)) {
          mark[static_cast<std::size_t>(r)] = static_cast<int>(k);
          rows.push_back(r);
        }
      };
      for (const int r : graph.after[k]) add(r);
      for (const int c : children[k]) {
        for (const int r : structure[static_cast<std::size_t>(c)]) add(r);
      }
      std::sort(rows.begin(), rows.end());
    }
  }

  // Supernodes: column k joins k - 1's when it is k - 1's parent and has the same rows less
  // itself; then small ones merge into their parent (worth_merging()).
  struct Group {
    int first, last;  // columns
    double zeros;     // stored zeros (merges)
    int merged_into = -1;
  };
  std::vector<Group> groups;
  std::vector<int> group_of(n);
  for (std::size_t k = 0; k < n; ++k) {
    const bool joins = k > 0 && parent[k - 1] == static_cast<int>(k) &&
                       structure[k - 1].size() == structure[k].size() + 1;
    if (!joins) groups.push_back({static_cast<int>(k), static_cast<int>(k), 0.0});
    groups.back().last = static_cast<int>(k);
    group_of[k] = static_cast<int>(groups.size()) - 1;
  }
  // A group's rows are its last column's; a merge keeps the parent's.
  const auto rows_of = [&](const Group& g) {
    return static_cast<int>(structure[static_cast<std::size_t>(g.last)].size());
  };
  for (std::size_t s = 0; s < groups.size(); ++s) {
    Group& child = groups[s];
    const int up = parent[static_cast<std::size_t>(child.last)];
    if (up < 0 || up != child.last + 1) continue;  // only the last child is contiguous with it
    Group& into = groups[static_cast<std::size_t>(group_of[static_cast<std::size_t>(up)])];
    if (into.first != up) continue;
    const int child_columns = child.last - child.first + 1;
    const int into_columns = into.last - into.first + 1;
    const int columns = child_columns + into_columns;
    const double merged = trapezoid(columns, rows_of(into));
    const double zeros = merged - trapezoid(child_columns, rows_of(child)) -
                         trapezoid(into_columns, rows_of(into)) + child.zeros + into.zeros;
    if (!worth_merging(columns, zeros / merged)) continue;
    into.first = child.first;
    into.zeros = zeros;
    child.merged_into = static_cast<int>(&into - groups.data());
  }

  // The supernodes, their fronts and where A's entries and each child's update land.
  supernodes_.clear();
  std::vector<int> supernode_of(n);
  for (const Group& g : groups) {
    if (g.merged_into >= 0) continue;
    Supernode node;
    node.first = g.first;
    node.count = g.last - g.first + 1;
    node.padding = round_up_to_4(node.count) - node.count;
    node.rows = std::move(structure[static_cast<std::size_t>(g.last)]);
    node.height = node.pivots() + round_up_to_4(static_cast<int>(node.rows.size()));
    for (int k = g.first; k <= g.last; ++k) {
      supernode_of[static_cast<std::size_t>(k)] = static_cast<int>(supernodes_.size());
    }
    supernodes_.push_back(std::move(node));
  }
  // Where unknown r (new numbering) sits in supernode s's front.
  const auto front_row = [&](const Supernode& s, int r) {
    if (r < s.first + s.count) return s.padding + (r - s.first);
    const auto at = std::lower_bound(s.rows.begin(), s.rows.end(), r);
    return s.pivots() + static_cast<int>(at - s.rows.begin());
  };
  // Each front's pivot columns (L's panel, kept for the solves) in factor_; the supernodes'
  // tree, and the work of each subtree (plan_for() shares them among threads).
  std::size_t offset = 0;
  subtree_first_.assign(supernodes_.size(), 0);
  subtree_work_.assign(supernodes_.size(), 0.0);
  for (std::size_t s = 0; s < supernodes_.size(); ++s) {
    Supernode& node = supernodes_[s];
    node.offset = offset;
    offset += static_cast<std::size_t>(node.height) * static_cast<std::size_t>(node.pivots());
    for (int k = 0; k < node.pivots(); ++k) {
      subtree_work_[s] += 0.5 * (node.height - k) * (node.height - k - 1.0);
    }
    subtree_first_[s] = static_cast<int>(s);
    for (const int c : node.children) {
      subtree_work_[s] += subtree_work_[static_cast<std::size_t>(c)];
      subtree_first_[s] = std::min(subtree_first_[s], subtree_first_[static_cast<std::size_t>(c)]);
    }
    const int last = node.first + node.count - 1;
    if (parent[static_cast<std::size_t>(last)] < 0) continue;
    const int up = supernode_of[static_cast<std::size_t>(parent[static_cast<std::size_t>(last)])];
    node.parent = up;
    supernodes_[static_cast<std::size_t>(up)].children.push_back(static_cast<int>(s));
    node.in_parent.clear();
    for (const int r : node.rows) {
      node.in_parent.push_back(front_row(supernodes_[static_cast<std::size_t>(up)], r));
    }
  }
  factor_.assign(offset, 0.0);

  entry_offsets_.clear();
  entry_offsets_.reserve(static_cast<std::size_t>(lower.nonZeros()));
  for (int j = 0; j < lower.outerSize(); ++j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(lower, j); it; ++it) {
      const int a = index[static_cast<std::size_t>(it.row())];
      const int b = index[static_cast<std::size_t>(j)];
      const int row = std::max(a, b), column = std::min(a, b);
      const Supernode& node =
          supernodes_[static_cast<std::size_t>(supernode_of[static_cast<std::size_t>(column)])];
      entry_offsets_.push_back(node.offset +
                               static_cast<std::size_t>(front_row(node, column)) *
                                   static_cast<std::size_t>(node.height) +
                               static_cast<std::size_t>(front_row(node, row)));
    }
  }
  update_at_.assign(supernodes_.size(), 0);
  most_rows_ = 0;  // padded (solve_in_place())
  for (const Supernode& node : supernodes_) {
    most_rows_ = std::max(most_rows_, static_cast<std::size_t>(node.updates()));
  }
  gathered_.resize(static_cast<Eigen::Index>(most_rows_));
  plan_ = Plan{};
  work_.resize(static_cast<Eigen::Index>(n));
}

template <typename Real>
void SparseCholesky<Real>::plan_for(int threads) {
  if (plan_.threads == threads) return;
  Plan plan;
  plan.threads = threads;
  const auto work = [&](int s) { return subtree_work_[static_cast<std::size_t>(s)]; };
  const auto own_work = [&](int s) {
    double own = work(s);
    for (const int c : supernodes_[static_cast<std::size_t>(s)].children) own -= work(c);
    return own;
  };
  // Split the forest into pieces no heavier than half a thread's share, each split node going
  // to the top.
  for (std::size_t s = 0; s < supernodes_.size(); ++s) {
    if (supernodes_[s].parent < 0) plan.pieces.push_back(static_cast<int>(s));
  }
  std::vector<char> in_top(supernodes_.size(), 0);
  while (threads > 1) {
    double total = 0.0;
    for (const int s : plan.pieces) total += work(s);
    const auto heaviest = std::max_element(plan.pieces.begin(), plan.pieces.end(),
                                           [&](int a, int b) { return work(a) < work(b); });
    const Supernode& node = supernodes_[static_cast<std::size_t>(*heaviest)];
    if (work(*heaviest) <= total / (2.0 * threads) || node.children.empty()) break;
    in_top[static_cast<std::size_t>(*heaviest)] = 1;
    plan.pieces.erase(heaviest);
    plan.pieces.insert(plan.pieces.end(), node.children.begin(), node.children.end());
  }
  std::sort(plan.pieces.begin(), plan.pieces.end(),
            [&](int a, int b) { return work(a) > work(b) || (work(a) == work(b) && a < b); });
  plan.kind.assign(supernodes_.size(), kInPiece);
  for (const int root : plan.pieces) plan.kind[static_cast<std::size_t>(root)] = kPieceRoot;
  // The top: its heavy fronts and their ancestors are shared (a parent comes after its children
  // in the postorder, so one pass marks the ancestors), the others are tasks, before them.
  double top_work = 0.0;
  std::vector<int> tasks, shared;
  std::vector<char> is_shared(supernodes_.size(), 0);
  for (std::size_t s = 0; s < supernodes_.size(); ++s) {
    if (in_top[s]) top_work += own_work(static_cast<int>(s));
  }
  for (std::size_t s = 0; s < supernodes_.size(); ++s) {
    if (!in_top[s]) continue;
    plan.kind[s] = kTop;
    is_shared[s] = is_shared[s] || own_work(static_cast<int>(s)) > top_work / (2.0 * threads);
    const int parent = supernodes_[s].parent;
    if (is_shared[s] && parent >= 0) is_shared[static_cast<std::size_t>(parent)] = 1;
    (is_shared[s] ? shared : tasks).push_back(static_cast<int>(s));
  }
  plan.top = tasks;
  plan.shared = tasks.size();
  std::vector<int> task_of(supernodes_.size(), -1);
  for (const int s : tasks) {
    std::vector<int> waits;
    for (const int c : supernodes_[static_cast<std::size_t>(s)].children) {
      if (task_of[static_cast<std::size_t>(c)] >= 0)
        waits.push_back(task_of[static_cast<std::size_t>(c)]);
    }
    if (waits.size() == 1) {
      plan.tasks[static_cast<std::size_t>(waits.front())].supernodes.push_back(s);
      task_of[static_cast<std::size_t>(s)] = waits.front();
      continue;
    }
    task_of[static_cast<std::size_t>(s)] = static_cast<int>(plan.tasks.size());
    plan.tasks.push_back({{s}, std::move(waits)});
  }
  plan.top.insert(plan.top.end(), shared.begin(), shared.end());
  // The top's update matrices first, each in a place of its own; then a stack per thread, as
  // large as it can grow whichever pieces its thread takes: every piece root's update matrix
  // stays on it until the top takes it, and the piece being factored needs its peak above them.
  std::size_t place = 0;
  for (const int s : plan.top) {
    update_at_[static_cast<std::size_t>(s)] = place;
    const auto width = static_cast<std::size_t>(supernodes_[static_cast<std::size_t>(s)].updates());
    place += width * width;
  }
  std::size_t roots = 0, largest_rise = 0;
  for (const int root : plan.pieces) {
    std::size_t top = 0, peak = 0;
    std::vector<std::size_t> pushed;
    for (int s = subtree_first_[static_cast<std::size_t>(root)]; s <= root; ++s) {
      const Supernode& node = supernodes_[static_cast<std::size_t>(s)];
      const auto updates =
          static_cast<std::size_t>(node.updates()) * static_cast<std::size_t>(node.updates());
      peak = std::max(peak, top + updates);
      std::size_t start = top;
      for (std::size_t k = 0; k < node.children.size(); ++k) {
        start = pushed.back();
        pushed.pop_back();
      }
      pushed.push_back(start);
      top = start + updates;
    }
    roots += top;
    largest_rise = std::max(largest_rise, peak - top);
  }
  plan.stack_size = roots + largest_rise;
  // The shares: thread t's is [size t / threads, size (t + 1) / threads) (scatter()).
  plan.entries.resize(static_cast<std::size_t>(threads));
  const auto share_end = [&](std::size_t t) {
    return factor_.size() * (t + 1) / static_cast<std::size_t>(threads);
  };
  for (std::size_t k = 0; k < entry_offsets_.size(); ++k) {
    std::size_t t = 0;
    while (entry_offsets_[k] >= share_end(t)) ++t;
    plan.entries[t].push_back(k);
  }
  update_stack_.assign(place + plan.stack_size * static_cast<std::size_t>(threads), 0.0);
  // The parallel solve's places (solve_on_pool()).
  top_column_.assign(new_index_.size(), 0);
  for (const int s : plan.top) {
    const Supernode& node = supernodes_[static_cast<std::size_t>(s)];
    std::fill_n(top_column_.begin() + node.first, node.count, 1);
  }
  stash_at_.assign(supernodes_.size(), 0);
  std::size_t stashed = 0;
  for (std::size_t s = 0; s < supernodes_.size(); ++s) {
    if (plan.kind[s] == kTop) continue;
    stash_at_[s] = stashed;
    for (const int row : supernodes_[s].rows) stashed += top_column_[static_cast<std::size_t>(row)];
  }
  stash_.assign(stashed, 0.0);
  gathered_.resize(static_cast<Eigen::Index>(most_rows_ * static_cast<std::size_t>(threads)));
  plan_ = std::move(plan);
}

// Member by member (the numeric half's are in its file): a unity build puts both in one unit.
template void SparseCholesky<float>::analyze(const Eigen::SparseMatrix<double>&);
template void SparseCholesky<double>::analyze(const Eigen::SparseMatrix<double>&);
template void SparseCholesky<float>::plan_for(int);
template void SparseCholesky<double>::plan_for(int);

}  // namespace smfem::sim
