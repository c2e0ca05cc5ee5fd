#pragma once
// Runs work over [0, count) in fixed chunks on a few std::threads. The chunking depends only on
// count (never on the thread count), and work must write only to its own chunk's outputs, so
// results are identical whatever the number of threads.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

#include "smfem/parallel/thread_pool.hpp"

namespace smfem::cubature::detail {

inline constexpr std::ptrdiff_t kChunkSize = 2048;
// Fewer chunks than this per thread are run on fewer threads: starting a thread costs about as
// much as a few chunks of light work.
inline constexpr std::ptrdiff_t kMinChunksPerThread = 8;

inline std::ptrdiff_t chunk_count(std::ptrdiff_t count) {
  return (count + kChunkSize - 1) / kChunkSize;
}

// 0 means one per hardware thread (parallel::usable_thread_count).
inline int resolve_thread_count(int requested) { return parallel::usable_thread_count(requested); }

// Calls work(chunk, begin, end) once per chunk. Exceptions must not escape work.
template <typename Work>
void parallel_chunks(std::ptrdiff_t count, int threads, const Work& work) {
  const std::ptrdiff_t chunks = chunk_count(count);
  std::atomic<std::ptrdiff_t> next{0};
  auto run = [&] {
    for (std::ptrdiff_t c = next++; c < chunks; c = next++) {
      work(c, c * kChunkSize, std::min(count, (c + 1) * kChunkSize));
    }
  };
  const auto useful = std::max<std::ptrdiff_t>(1, chunks / kMinChunksPerThread);
  const int helpers = static_cast<int>(std::min<std::ptrdiff_t>(threads, useful)) - 1;
  std::vector<std::thread> pool;
  pool.reserve(std::max(helpers, 0));
  for (int h = 0; h < helpers; ++h) pool.emplace_back(run);
  run();
  for (auto& thread : pool) thread.join();
}

}  // namespace smfem::cubature::detail
