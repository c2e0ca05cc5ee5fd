#include "smfem/subspace/detail/nested_dissection.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace smfem::subspace::detail {

namespace {

// Below this size a block stays whole: one dense front of the multifrontal factorization, where
// splitting further would cost more bookkeeping than it saves arithmetic.
constexpr std::ptrdiff_t kLeafSize = 64;

class Dissection {
 public:
  Dissection(const Eigen::SparseMatrix<double>& pattern,
             const Eigen::Ref<const mesh::Vertices>& positions)
      : pattern_(pattern), positions_(positions), side_(pattern.rows(), kOutside) {}

  // Orders vertices[begin, end) in place (new to old within the range) and appends the nodes
  // of that range, children first; returns the index of the range's node.
  int dissect(std::vector<int>& vertices, std::ptrdiff_t begin, std::ptrdiff_t end) {
    if (end - begin <= kLeafSize) return add_node(begin, begin, end, -1, -1);
    const int axis = longest_axis(vertices, begin, end);
    std::vector<double> coordinate;
    coordinate.reserve(end - begin);
    for (std::ptrdiff_t i = begin; i < end; ++i) {
      coordinate.push_back(positions_(vertices[i], axis));
    }
    const auto middle = coordinate.begin() + (end - begin) / 2;
    std::nth_element(coordinate.begin(), middle, coordinate.end());
    const double threshold = *middle;

    // Lower: below the median; if more than half share the smallest value, up to it.
    const bool any_below =
        std::any_of(coordinate.begin(), coordinate.end(), [&](double c) { return c < threshold; });
    for (std::ptrdiff_t i = begin; i < end; ++i) {
      const int v = vertices[i];
      const double c = positions_(v, axis);
      side_[v] = (any_below ? c < threshold : c <= threshold) ? kLower : kUpper;
    }
    for (std::ptrdiff_t i = begin; i < end; ++i) {
      const int v = vertices[i];
      if (side_[v] != kLower) continue;
      for (Eigen::SparseMatrix<double>::InnerIterator it(pattern_, v); it; ++it) {
        if (side_[it.index()] == kUpper) {
          side_[v] = kSeparator;
          break;
        }
      }
    }
    // Lower, then upper, then separator, each keeping the incoming order.
    std::vector<int> reordered;
    reordered.reserve(end - begin);
    for (int wanted : {kLower, kUpper, kSeparator}) {
      for (std::ptrdiff_t i = begin; i < end; ++i) {
        if (side_[vertices[i]] == wanted) reordered.push_back(vertices[i]);
      }
    }
    std::ptrdiff_t lower = 0;
    std::ptrdiff_t upper = 0;
    for (std::ptrdiff_t i = begin; i < end; ++i) {
      lower += side_[vertices[i]] == kLower;
      upper += side_[vertices[i]] == kUpper;
      side_[vertices[i]] = kOutside;
    }
    std::copy(reordered.begin(), reordered.end(), vertices.begin() + begin);
    // A split that separates nothing (all positions equal) would not shrink the problem.
    if (lower == 0 || upper == 0) return add_node(begin, begin, end, -1, -1);
    const int first = dissect(vertices, begin, begin + lower);
    const int second = dissect(vertices, begin + lower, begin + lower + upper);
    return add_node(begin, begin + lower + upper, end, first, second);
  }

  std::vector<DissectionTree::Node> nodes;

 private:
  enum Side : signed char { kOutside, kLower, kUpper, kSeparator };

  int add_node(std::ptrdiff_t begin, std::ptrdiff_t pivot_begin, std::ptrdiff_t end, int first,
               int second) {
    nodes.push_back({static_cast<int>(begin),
                     static_cast<int>(pivot_begin),
                     static_cast<int>(end),
                     {first, second}});
    return static_cast<int>(nodes.size()) - 1;
  }

  int longest_axis(const std::vector<int>& vertices, std::ptrdiff_t begin,
                   std::ptrdiff_t end) const {
    Eigen::RowVector3d low = positions_.row(vertices[begin]);
    Eigen::RowVector3d high = low;
    for (std::ptrdiff_t i = begin + 1; i < end; ++i) {
      low = low.cwiseMin(positions_.row(vertices[i]));
      high = high.cwiseMax(positions_.row(vertices[i]));
    }
    Eigen::Index axis = 0;
    (high - low).maxCoeff(&axis);
    return static_cast<int>(axis);
  }

  const Eigen::SparseMatrix<double>& pattern_;
  const Eigen::Ref<const mesh::Vertices>& positions_;
  std::vector<Side> side_;
};

}  // namespace

DissectionTree nested_dissection(const Eigen::SparseMatrix<double>& pattern,
                                 const Eigen::Ref<const mesh::Vertices>& positions) {
  std::vector<int> vertices(pattern.rows());
  for (int v = 0; v < pattern.rows(); ++v) vertices[v] = v;
  Dissection dissection(pattern, positions);
  dissection.dissect(vertices, 0, static_cast<std::ptrdiff_t>(vertices.size()));
  DissectionTree tree;
  tree.order = Eigen::Map<const Eigen::VectorXi>(vertices.data(), pattern.rows());
  tree.nodes = std::move(dissection.nodes);
  return tree;
}

DissectionTree nested_dissection(const Eigen::SparseMatrix<double>& pattern,
                                 const Eigen::Ref<const mesh::Vertices>& positions, int block) {
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(pattern.nonZeros()));
  for (int j = 0; j < pattern.outerSize(); ++j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(pattern, j); it; ++it) {
      entries.emplace_back(static_cast<int>(it.index()) / block, j / block, 1.0);
    }
  }
  Eigen::SparseMatrix<double> vertex_graph(pattern.rows() / block, pattern.cols() / block);
  vertex_graph.setFromTriplets(entries.begin(), entries.end());
  const DissectionTree vertex_tree = nested_dissection(vertex_graph, positions);

  DissectionTree tree;
  tree.order.resize(vertex_tree.order.size() * block);
  for (Eigen::Index k = 0; k < vertex_tree.order.size(); ++k) {
    for (int d = 0; d < block; ++d) tree.order(block * k + d) = block * vertex_tree.order(k) + d;
  }
  tree.nodes = vertex_tree.nodes;
  for (DissectionTree::Node& node : tree.nodes) {
    node.begin *= block;
    node.pivot_begin *= block;
    node.end *= block;
  }
  return tree;
}

}  // namespace smfem::subspace::detail
