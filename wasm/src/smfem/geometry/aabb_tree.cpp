#include "smfem/geometry/aabb_tree.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace smfem::geometry {

AabbTree::AabbTree(const std::vector<Eigen::AlignedBox3d>& boxes, int leaf_size) {
  if (leaf_size < 1) throw std::invalid_argument("AabbTree: leaf_size must be at least 1");
  if (boxes.empty()) return;
  std::vector<Eigen::Vector3d> centres(boxes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i) centres[i] = boxes[i].center();
  order_.resize(boxes.size());
  std::iota(order_.begin(), order_.end(), 0);
  nodes_.reserve(2 * boxes.size() / static_cast<std::size_t>(leaf_size) + 1);
  build(boxes, centres, 0, static_cast<int>(boxes.size()), leaf_size);
}

void AabbTree::refit(const std::vector<Eigen::AlignedBox3d>& boxes) {
  if (boxes.size() != order_.size()) {
    throw std::invalid_argument("AabbTree::refit: " + std::to_string(boxes.size()) +
                                " boxes for a tree of " + std::to_string(order_.size()));
  }
  // Children come after their parent: from the last node back, each child is done first.
  for (auto node = nodes_.rbegin(); node != nodes_.rend(); ++node) {
    node->box.setEmpty();
    if (node->is_leaf()) {
      for (int i = node->begin; i < node->end; ++i) node->box.extend(boxes[order_[i]]);
    } else {
      node->box = nodes_[node->left].box.merged(nodes_[node->right].box);
    }
  }
}

int AabbTree::build(const std::vector<Eigen::AlignedBox3d>& boxes,
                    const std::vector<Eigen::Vector3d>& centres, int begin, int end,
                    int leaf_size) {
  const int index = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  Eigen::AlignedBox3d box, centre_box;
  for (int i = begin; i < end; ++i) {
    box.extend(boxes[order_[i]]);
    centre_box.extend(centres[order_[i]]);
  }
  nodes_[index].box = box;
  // Depth stays below the traversal stacks' 128 entries: median splits halve the count.
  if (end - begin <= leaf_size) {
    nodes_[index].begin = begin;
    nodes_[index].end = end;
    return index;
  }
  int axis = 0;
  centre_box.sizes().maxCoeff(&axis);
  const int middle = begin + (end - begin) / 2;
  std::nth_element(order_.begin() + begin, order_.begin() + middle, order_.begin() + end,
                   [&](int a, int b) { return centres[a][axis] < centres[b][axis]; });
  const int left = build(boxes, centres, begin, middle, leaf_size);
  const int right = build(boxes, centres, middle, end, leaf_size);
  nodes_[index].left = left;
  nodes_[index].right = right;
  return index;
}

}  // namespace smfem::geometry
