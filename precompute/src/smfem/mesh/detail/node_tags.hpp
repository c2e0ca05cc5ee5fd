#pragma once
// Gmsh node tags: positive and unique, but possibly with gaps and in any order. Maps each tag
// to the 0-based row of its node (the order of the nodes in the file).
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace smfem::mesh::detail {

class NodeTagMap {
 public:
  void reserve(std::size_t count) { tags_.reserve(count); }
  // The tag of the next row (rows are added in order 0, 1, 2, ...); tag > 0.
  void add(long long tag) { tags_.push_back(tag); }
  std::size_t size() const { return tags_.size(); }

  // Builds the lookup once all nodes are added; returns a tag given to two nodes, if any.
  std::optional<long long> build();
  // The row of a tag, or -1 when no node has it.
  int row(long long tag) const;

 private:
  std::vector<long long> tags_;                    // tag of each row
  std::vector<int> row_of_tag_;                    // by tag, when tags are compact
  std::vector<std::pair<long long, int>> sorted_;  // (tag, row) by tag, otherwise
};

}  // namespace smfem::mesh::detail
