#include "smfem/subspace/detail/multifrontal_cholesky.hpp"

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <thread>
#include <utility>

#include <Eigen/Cholesky>

namespace smfem::subspace::detail {

namespace {

// Position of each of indices (ascending, all present in front) within front = pivots [begin,
// end) followed by boundary.
std::vector<int> local_positions(const std::vector<int>& indices, int begin, int end,
                                 const std::vector<int>& boundary) {
  std::vector<int> local(indices.size());
  auto search_from = boundary.begin();
  for (std::size_t q = 0; q < indices.size(); ++q) {
    const int i = indices[q];
    if (i < end) {
      local[q] = i - begin;
    } else {
      search_from = std::lower_bound(search_from, boundary.end(), i);
      local[q] = (end - begin) + static_cast<int>(search_from - boundary.begin());
    }
  }
  return local;
}

}  // namespace

void MultifrontalCholesky::factor(const Eigen::SparseMatrix<double>& A, const DissectionTree& tree,
                                  int threads) {
  tree_ = tree;
  const Eigen::Index n = A.rows();
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> old_to_new(n);
  for (int k = 0; k < n; ++k) old_to_new.indices()(tree.order(k)) = k;
  permuted_.resize(n, n);
  permuted_.selfadjointView<Eigen::Lower>() =
      A.selfadjointView<Eigen::Lower>().twistedBy(old_to_new);

  // Symbolic: each front's boundary is what its pivots' columns and its children's boundaries
  // reach beyond its pivots.
  fronts_.assign(tree.nodes.size(), Front{});
  for (std::size_t f = 0; f < tree.nodes.size(); ++f) {
    const DissectionTree::Node& node = tree.nodes[f];
    Front& front = fronts_[f];
    front.pivot_begin = node.pivot_begin;
    front.pivot_end = node.end;
    std::vector<int>& boundary = front.boundary;
    for (int j = node.pivot_begin; j < node.end; ++j) {
      for (Eigen::SparseMatrix<double>::InnerIterator it(permuted_, j); it; ++it) {
        if (it.index() >= node.end) boundary.push_back(static_cast<int>(it.index()));
      }
    }
    for (int child : node.children) {
      if (child < 0) continue;
      for (int i : fronts_[child].boundary) {
        if (i >= node.end) boundary.push_back(i);
      }
    }
    std::sort(boundary.begin(), boundary.end());
    boundary.erase(std::unique(boundary.begin(), boundary.end()), boundary.end());
  }

  // 2^depth - 1 helper threads run at once: at most threads - 1 of them.
  int parallel_depth = 0;
  while ((2 << parallel_depth) <= threads) ++parallel_depth;
  factor_subtree(static_cast<int>(tree.nodes.size()) - 1, parallel_depth);
}

Eigen::MatrixXd MultifrontalCholesky::factor_subtree(int node_index, int parallel_depth) {
  const DissectionTree::Node& node = tree_.nodes[node_index];
  Eigen::MatrixXd updates[2];
  if (parallel_depth > 0 && node.children[0] >= 0 && node.children[1] >= 0) {
    std::exception_ptr failure;
    std::thread helper([&] {
      try {
        updates[0] = factor_subtree(node.children[0], parallel_depth - 1);
      } catch (...) {
        failure = std::current_exception();
      }
    });
    updates[1] = factor_subtree(node.children[1], parallel_depth - 1);
    helper.join();
    if (failure) std::rethrow_exception(failure);
  } else {
    for (int c = 0; c < 2; ++c) {
      if (node.children[c] >= 0) updates[c] = factor_subtree(node.children[c], 0);
    }
  }

  Front& front = fronts_[node_index];
  const int begin = front.pivot_begin;
  const int end = front.pivot_end;
  const int s = end - begin;
  const int r = static_cast<int>(front.boundary.size());
  Eigen::MatrixXd F = Eigen::MatrixXd::Zero(s + r, s + r);  // lower triangle used

  // A's entries in the pivots' columns (rows at or below the diagonal).
  std::vector<std::pair<int, double>> column;
  std::vector<int> rows;
  for (int j = begin; j < end; ++j) {
    column.clear();
    for (Eigen::SparseMatrix<double>::InnerIterator it(permuted_, j); it; ++it) {
      column.emplace_back(static_cast<int>(it.index()), it.value());
    }
    std::sort(column.begin(), column.end());
    rows.clear();
    for (const auto& entry : column) rows.push_back(entry.first);
    const std::vector<int> local = local_positions(rows, begin, end, front.boundary);
    for (std::size_t q = 0; q < column.size(); ++q) F(local[q], j - begin) += column[q].second;
  }
  // Extend-add the children's update matrices.
  for (int c = 0; c < 2; ++c) {
    if (node.children[c] < 0) continue;
    const std::vector<int>& child_boundary = fronts_[node.children[c]].boundary;
    const std::vector<int> local = local_positions(child_boundary, begin, end, front.boundary);
    const Eigen::MatrixXd& U = updates[c];
    for (std::size_t y = 0; y < local.size(); ++y) {
      for (std::size_t x = y; x < local.size(); ++x) F(local[x], local[y]) += U(x, y);
    }
    updates[c] = Eigen::MatrixXd();
  }

  if (s > 0) {
    auto F11 = F.topLeftCorner(s, s);
    Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(F11);
    if (llt.info() != Eigen::Success) {
      throw std::runtime_error("sparse Cholesky: the matrix is not positive definite");
    }
    if (r > 0) {
      auto F21 = F.bottomLeftCorner(r, s);
      F11.triangularView<Eigen::Lower>().transpose().solveInPlace<Eigen::OnTheRight>(F21);
      F.bottomRightCorner(r, r).selfadjointView<Eigen::Lower>().rankUpdate(F21, -1.0);
    }
    front.L11 = F.topLeftCorner(s, s).triangularView<Eigen::Lower>();
    front.L21 = F.bottomLeftCorner(r, s);
  }
  return F.bottomRightCorner(r, r);
}

template <class Work>
void MultifrontalCholesky::substitute(Work& work) const {
  Work gathered;
  // L y = b, children before parents.
  for (const Front& front : fronts_) {
    const int s = front.pivot_end - front.pivot_begin;
    if (s == 0) continue;
    auto pivots = work.middleRows(front.pivot_begin, s);
    front.L11.triangularView<Eigen::Lower>().solveInPlace(pivots);
    if (front.boundary.empty()) continue;
    gathered.noalias() = front.L21 * pivots;
    for (std::size_t q = 0; q < front.boundary.size(); ++q) {
      work.row(front.boundary[q]) -= gathered.row(static_cast<Eigen::Index>(q));
    }
  }
  // L^T x = y, parents before children.
  for (auto front = fronts_.rbegin(); front != fronts_.rend(); ++front) {
    const int s = front->pivot_end - front->pivot_begin;
    if (s == 0) continue;
    auto pivots = work.middleRows(front->pivot_begin, s);
    if (!front->boundary.empty()) {
      gathered.resize(static_cast<Eigen::Index>(front->boundary.size()), work.cols());
      for (std::size_t q = 0; q < front->boundary.size(); ++q) {
        gathered.row(static_cast<Eigen::Index>(q)) = work.row(front->boundary[q]);
      }
      pivots.noalias() -= front->L21.transpose() * gathered;
    }
    front->L11.triangularView<Eigen::Lower>().transpose().solveInPlace(pivots);
  }
}

void MultifrontalCholesky::solve(Eigen::Ref<Eigen::VectorXd> x) const {
  const Eigen::Index n = x.size();
  work_.resize(n);
  for (Eigen::Index k = 0; k < n; ++k) work_(k) = x(tree_.order(k));
  substitute(work_);
  for (Eigen::Index k = 0; k < n; ++k) x(tree_.order(k)) = work_(k);
}

void MultifrontalCholesky::solve_columns(Eigen::Ref<Eigen::MatrixXd> X) const {
  const Eigen::Index n = X.rows();
  column_work_.resize(n, X.cols());
  for (Eigen::Index k = 0; k < n; ++k) column_work_.row(k) = X.row(tree_.order(k));
  substitute(column_work_);
  for (Eigen::Index k = 0; k < n; ++k) X.row(tree_.order(k)) = column_work_.row(k);
}

}  // namespace smfem::subspace::detail
