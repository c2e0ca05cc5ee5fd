#include "smfem/multibody/body_groups.hpp"

#include <algorithm>
#include <numeric>

namespace smfem::multibody {

std::vector<std::pair<int, int>> overlapping_boxes(const std::vector<Eigen::AlignedBox3d>& boxes) {
  std::vector<int> order(boxes.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return boxes[static_cast<std::size_t>(a)].min().x() <
           boxes[static_cast<std::size_t>(b)].min().x();
  });
  std::vector<std::pair<int, int>> pairs;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Eigen::AlignedBox3d& a = boxes[static_cast<std::size_t>(order[i])];
    if (a.isEmpty()) continue;
    for (std::size_t j = i + 1; j < order.size(); ++j) {
      const Eigen::AlignedBox3d& b = boxes[static_cast<std::size_t>(order[j])];
      if (b.min().x() > a.max().x()) break;  // sorted: no later box reaches back to a
      if (b.isEmpty() || !a.intersects(b)) continue;
      pairs.emplace_back(std::min(order[i], order[j]), std::max(order[i], order[j]));
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

Groups::Groups(int count) : parent_(static_cast<std::size_t>(count)) {
  std::iota(parent_.begin(), parent_.end(), 0);
}

int Groups::find(int item) {
  auto i = static_cast<std::size_t>(item);
  while (parent_[i] != static_cast<int>(i)) {
    parent_[i] = parent_[static_cast<std::size_t>(parent_[i])];  // path halving
    i = static_cast<std::size_t>(parent_[i]);
  }
  return static_cast<int>(i);
}

bool Groups::link(int a, int b) {
  const int ra = find(a), rb = find(b);
  if (ra == rb) return false;
  // The smaller root wins: the result does not depend on the order of the links.
  parent_[static_cast<std::size_t>(std::max(ra, rb))] = std::min(ra, rb);
  return true;
}

std::vector<std::vector<int>> Groups::members() {
  std::vector<std::vector<int>> groups;
  std::vector<int> slot(parent_.size(), -1);
  for (int i = 0; i < static_cast<int>(parent_.size()); ++i) {
    const auto root = static_cast<std::size_t>(find(i));
    if (slot[root] < 0) {
      slot[root] = static_cast<int>(groups.size());
      groups.emplace_back();
    }
    groups[static_cast<std::size_t>(slot[root])].push_back(i);
  }
  return groups;
}

}  // namespace smfem::multibody
