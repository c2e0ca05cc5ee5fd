#include "smfem/subspace/detail/floating_components.hpp"

#include <numeric>

namespace smfem::subspace::detail {

namespace {

int find_root(std::vector<int>& parent, int v) {
  while (parent[v] != v) {
    parent[v] = parent[parent[v]];  // path halving keeps the trees flat
    v = parent[v];
  }
  return v;
}

}  // namespace

std::vector<std::vector<int>> floating_components(const Eigen::SparseMatrix<double>& H,
                                                  const std::vector<bool>& pinned) {
  const int n = static_cast<int>(H.rows());
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (int j = 0; j < H.outerSize(); ++j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(H, j); it; ++it) {
      const int a = find_root(parent, static_cast<int>(it.index()));
      const int b = find_root(parent, j);
      // The smaller index becomes the root, so a root is its component's smallest vertex.
      if (a < b) parent[b] = a;
      if (b < a) parent[a] = b;
    }
  }
  std::vector<bool> holds_pin(n, false);
  for (int v = 0; v < n; ++v) {
    if (pinned[v]) holds_pin[find_root(parent, v)] = true;
  }
  std::vector<int> slot(n, -1);
  std::vector<std::vector<int>> components;
  for (int v = 0; v < n; ++v) {
    const int root = find_root(parent, v);
    if (holds_pin[root]) continue;
    if (slot[root] < 0) {
      slot[root] = static_cast<int>(components.size());
      components.emplace_back();
    }
    components[slot[root]].push_back(v);
  }
  return components;
}

}  // namespace smfem::subspace::detail
