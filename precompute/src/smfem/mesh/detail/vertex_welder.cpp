#include "smfem/mesh/detail/vertex_welder.hpp"

#include <cstdint>
#include <cstring>

namespace smfem::mesh::detail {

std::size_t VertexWelder::PositionHash::operator()(const Position& position) const {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (double coordinate : position) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &coordinate, sizeof bits);  // std::bit_cast: not in wasm's libc++
    hash ^= bits;
    hash *= 0x100000001b3ull;
    hash ^= hash >> 29;
  }
  return static_cast<std::size_t>(hash);
}

int VertexWelder::index_of(double x, double y, double z) {
  // Adding 0.0 turns -0.0 into +0.0 and leaves every other value unchanged.
  const Position position{x + 0.0, y + 0.0, z + 0.0};
  const auto next_index = static_cast<int>(coordinates_.size() / 3);
  const auto [slot, added] = index_of_position_.try_emplace(position, next_index);
  if (added) coordinates_.insert(coordinates_.end(), position.begin(), position.end());
  return slot->second;
}

}  // namespace smfem::mesh::detail
