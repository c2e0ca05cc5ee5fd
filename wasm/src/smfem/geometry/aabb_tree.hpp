#pragma once
// A bounding-volume hierarchy of axis-aligned boxes over any primitives (triangles, tets),
// for nearest-primitive and overlap queries in O(log n) per query.
#include <limits>
#include <vector>

#include <Eigen/Geometry>

namespace smfem::geometry {

// The bounding box of each element of a mesh: row e of `elements` lists its vertices' rows in
// `vertices` (triangles, tets: any number of corners).
template <class Vertices, class Elements>
std::vector<Eigen::AlignedBox3d> element_boxes(const Vertices& vertices, const Elements& elements) {
  std::vector<Eigen::AlignedBox3d> boxes(static_cast<std::size_t>(elements.rows()));
  for (Eigen::Index e = 0; e < elements.rows(); ++e) {
    for (Eigen::Index k = 0; k < elements.cols(); ++k) {
      boxes[static_cast<std::size_t>(e)].extend(
          Eigen::Vector3d(vertices.row(elements(e, k)).transpose()));
    }
  }
  return boxes;
}

class AabbTree {
 public:
  struct Node {
    Eigen::AlignedBox3d box;
    int left = -1;  // child node indices; -1 in a leaf
    int right = -1;
    int begin = 0;  // leaf: primitives order()[begin, end)
    int end = 0;
    bool is_leaf() const { return left < 0; }
  };

  // boxes[i] bounds primitive i. Splits at the median of the box centres along the longest
  // axis until a node holds at most leaf_size primitives.
  explicit AabbTree(const std::vector<Eigen::AlignedBox3d>& boxes, int leaf_size = 4);

  // The same hierarchy over moved primitives (boxes.size() as at construction): every node's box
  // recomputed, the splits kept. O(n), where a build is O(n log n); the tree stays tight while
  // the primitives keep their neighbours (a body moving and deforming within a time step).
  void refit(const std::vector<Eigen::AlignedBox3d>& boxes);

  // nodes()[0] is the root; children come after their parent. Empty for no primitives.
  const std::vector<Node>& nodes() const { return nodes_; }
  // Primitive ids in leaf order.
  const std::vector<int>& order() const { return order_; }

  // The smallest visit(primitive) over all primitives, skipping every node whose
  // box_bound(box), a lower bound of visit over the box, is not below the best so far.
  // Children are entered nearest first. Returns `best` when nothing beats it.
  template <class BoxBound, class Visit>
  double minimize(BoxBound&& box_bound, Visit&& visit,
                  double best = std::numeric_limits<double>::infinity()) const;

  // visit(primitive) for every primitive in a leaf whose box passes overlaps(box).
  template <class Overlaps, class Visit>
  void for_each_overlapping(Overlaps&& overlaps, Visit&& visit) const;
  // visit(leaf) for every leaf whose box passes overlaps(box) (and so do its ancestors'), in the
  // order for_each_overlapping visits their primitives.
  template <class Overlaps, class Visit>
  void for_each_overlapping_leaf(Overlaps&& overlaps, Visit&& visit) const;

 private:
  int build(const std::vector<Eigen::AlignedBox3d>& boxes,
            const std::vector<Eigen::Vector3d>& centres, int begin, int end, int leaf_size);

  std::vector<Node> nodes_;
  std::vector<int> order_;
};

template <class BoxBound, class Visit>
double AabbTree::minimize(BoxBound&& box_bound, Visit&& visit, double best) const {
  if (nodes_.empty()) return best;
  struct Entry {
    int node;
    double bound;
  };
  Entry stack[128];
  int size = 0;
  stack[size++] = {0, box_bound(nodes_[0].box)};
  while (size > 0) {
    const Entry entry = stack[--size];
    if (entry.bound >= best) continue;
    const Node& node = nodes_[entry.node];
    if (node.is_leaf()) {
      for (int i = node.begin; i < node.end; ++i) {
        const double value = visit(order_[i]);
        if (value < best) best = value;
      }
      continue;
    }
    Entry near{node.left, box_bound(nodes_[node.left].box)};
    Entry far{node.right, box_bound(nodes_[node.right].box)};
    if (far.bound < near.bound) std::swap(near, far);
    if (far.bound < best) stack[size++] = far;
    if (near.bound < best) stack[size++] = near;
  }
  return best;
}

template <class Overlaps, class Visit>
void AabbTree::for_each_overlapping(Overlaps&& overlaps, Visit&& visit) const {
  for_each_overlapping_leaf(overlaps, [&](const Node& leaf) {
    for (int i = leaf.begin; i < leaf.end; ++i) visit(order_[i]);
  });
}

template <class Overlaps, class Visit>
void AabbTree::for_each_overlapping_leaf(Overlaps&& overlaps, Visit&& visit) const {
  if (nodes_.empty()) return;
  int stack[128];
  int size = 0;
  stack[size++] = 0;
  while (size > 0) {
    const Node& node = nodes_[stack[--size]];
    if (!overlaps(node.box)) continue;
    if (node.is_leaf()) {
      visit(node);
    } else {
      stack[size++] = node.right;
      stack[size++] = node.left;
    }
  }
}

}  // namespace smfem::geometry
