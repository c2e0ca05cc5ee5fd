#pragma once
// Merges vertices with exactly equal coordinates, as STL needs: it repeats each corner in
// every facet that touches it. No tolerance: distinct positions stay distinct vertices.
#include <array>
#include <cstddef>
#include <unordered_map>
#include <vector>

namespace smfem::mesh::detail {

class VertexWelder {
 public:
  // Appends new vertices (x y z) to `coordinates`, which must outlive the welder.
  explicit VertexWelder(std::vector<double>& coordinates) : coordinates_(coordinates) {}

  // The index of the vertex at (x, y, z), added if no earlier vertex is there. -0.0 and 0.0
  // are the same position. Coordinates must be finite.
  int index_of(double x, double y, double z);

 private:
  using Position = std::array<double, 3>;
  struct PositionHash {
    std::size_t operator()(const Position& position) const;
  };

  std::vector<double>& coordinates_;
  std::unordered_map<Position, int, PositionHash> index_of_position_;
};

}  // namespace smfem::mesh::detail
