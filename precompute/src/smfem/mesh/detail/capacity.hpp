#pragma once
// Guards against absurd declared counts: a broken or hostile file may declare 4 billion
// vertices in a 100-byte file, and reserving that much would fail or swap before any check.
#include <algorithm>
#include <cstddef>

namespace smfem::mesh::detail {

// How many entries to reserve for a declared count when each entry takes at least
// min_entry_bytes of the remaining_bytes: never more than the data could possibly hold.
inline std::size_t plausible_count(std::size_t declared, std::size_t remaining_bytes,
                                   std::size_t min_entry_bytes) {
  return std::min(declared, remaining_bytes / std::max<std::size_t>(min_entry_bytes, 1));
}

}  // namespace smfem::mesh::detail
