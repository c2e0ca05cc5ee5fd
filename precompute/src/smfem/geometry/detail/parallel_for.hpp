#pragma once
// Splitting an index range over std::thread workers, for the few loops of the bake that touch
// every lattice point or every tet. Each worker gets one contiguous slab, so work that writes
// by index needs no locking.
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

#include "smfem/parallel/thread_pool.hpp"

namespace smfem::geometry::detail {

// Calls body(begin, end) on disjoint slabs covering [0, count). Runs inline when the range is
// shorter than min_per_thread per worker (threads cost ~50 us to start).
template <class Body>
void parallel_for(std::size_t count, std::size_t min_per_thread, Body&& body) {
  const auto hardware = static_cast<std::size_t>(parallel::usable_thread_count(0));
  const std::size_t workers = std::min(
      hardware, std::max<std::size_t>(1, count / std::max<std::size_t>(1, min_per_thread)));
  if (workers <= 1) {
    body(std::size_t{0}, count);
    return;
  }
  std::vector<std::thread> threads;
  threads.reserve(workers - 1);
  const std::size_t slab = (count + workers - 1) / workers;
  for (std::size_t w = 1; w < workers; ++w) {
    const std::size_t begin = std::min(count, w * slab);
    const std::size_t end = std::min(count, begin + slab);
    threads.emplace_back([&body, begin, end] { body(begin, end); });
  }
  body(std::size_t{0}, std::min(count, slab));
  for (auto& thread : threads) thread.join();
}

}  // namespace smfem::geometry::detail
