#pragma once
// The lattice after sampling and warping, and the mesh being built from it: what the stencils
// read and write.
#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <Eigen/Core>

#include "smfem/geometry/sdf.hpp"
#include "smfem/tetrahedralize/bcc_lattice.hpp"

namespace smfem::tetrahedralize::detail {

enum class Sign : std::int8_t { inside = -1, zero = 0, outside = 1 };

// Where the surface crosses a lattice edge.
struct Cut {
  int inside;  // the edge's inside end
  int outside;
  Eigen::Vector3d point;
  int output = -1;  // mesh vertex id once used
};

// A corner of an output tet: a lattice vertex (other < 0), or the cut point on the edge from
// the inside lattice vertex `vertex` to the outside lattice vertex `other`.
struct Corner {
  int vertex;
  int other = -1;
};

struct StuffingState {
  explicit StuffingState(const BccLattice& l) : lattice(l) {}

  const BccLattice& lattice;
  const geometry::Sdf* sdf = nullptr;
  std::vector<Sign> sign;                       // per lattice vertex, after warping
  geometry::Points position;                    // per lattice vertex, after warping
  std::unordered_map<std::uint64_t, Cut> cuts;  // surviving cut points by edge_key()

  std::vector<int> output_of_vertex;  // per lattice vertex: mesh vertex id or -1
  std::vector<Eigen::Vector3d> output_positions;
  std::vector<std::array<int, 4>> output_tets;

  std::uint64_t edge_key(int a, int b) const {
    const auto lo = static_cast<std::uint64_t>(std::min(a, b));
    const auto hi = static_cast<std::uint64_t>(std::max(a, b));
    return lo * static_cast<std::uint64_t>(lattice.vertex_count()) + hi;
  }
};

}  // namespace smfem::tetrahedralize::detail
