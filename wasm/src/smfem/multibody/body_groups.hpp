#pragma once
// The body-level broad phase of a contact scene (contact_scene.hpp): which bodies' boxes meet,
// by sweep and prune, and the groups (islands) they link into, by union-find.
#include <utility>
#include <vector>

#include <Eigen/Geometry>

namespace smfem::multibody {

// Every pair (i, j), i < j, of boxes that intersect (closed boxes: touching counts), sorted.
// Sweep and prune along x: O(n log n) plus the pairs whose x-intervals overlap.
std::vector<std::pair<int, int>> overlapping_boxes(const std::vector<Eigen::AlignedBox3d>& boxes);

// Union-find over `count` items.
class Groups {
 public:
  explicit Groups(int count);
  int find(int item);
  // Links the two groups; returns whether they were apart.
  bool link(int a, int b);
  // Every group's items, ascending, the groups ordered by their smallest item.
  std::vector<std::vector<int>> members();

 private:
  std::vector<int> parent_;
};

}  // namespace smfem::multibody
