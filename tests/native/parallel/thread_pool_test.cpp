#include "smfem/parallel/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "sim/allocation_counter.hpp"

namespace smfem::parallel {
namespace {

// At most 2 threads in all here: the threaded WebAssembly test binary has a pool of 4 pthreads
// and other suites may hold some.
int test_threads() { return std::min(2, ThreadPool::max_thread_count()); }

TEST(ThreadPool, ClampsTheThreadCount) {
  EXPECT_EQ(ThreadPool(0).thread_count(), 1);
  EXPECT_EQ(ThreadPool(-5).thread_count(), 1);
  EXPECT_GE(ThreadPool::max_thread_count(), 1);
  EXPECT_EQ(ThreadPool(test_threads()).thread_count(), test_threads());
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  EXPECT_EQ(ThreadPool::max_thread_count(), 1);
#endif
}

TEST(ThreadPool, RunsEveryChunkOnceAndEachSlotOnOneThread) {
  ThreadPool pool(test_threads());
  const int N = pool.thread_count();
  for (int chunks : {0, 1, 2, 3, 7, 64}) {
    std::vector<int> runs(static_cast<std::size_t>(chunks), 0);
    std::vector<std::thread::id> owner(static_cast<std::size_t>(chunks));
    pool.parallel_for(chunks, [&](int chunk) {
      ++runs[static_cast<std::size_t>(chunk)];
      owner[static_cast<std::size_t>(chunk)] = std::this_thread::get_id();
    });
    for (int chunk = 0; chunk < chunks; ++chunk) {
      EXPECT_EQ(runs[static_cast<std::size_t>(chunk)], 1) << chunks << " chunks, chunk " << chunk;
      // Chunk i is in slot i mod N, whose chunks run on one thread; slot 0 on the caller.
      if (chunks > 1 && chunk % N == 0) {
        EXPECT_EQ(owner[static_cast<std::size_t>(chunk)], std::this_thread::get_id());
      }
      if (chunk >= N) {
        EXPECT_EQ(owner[static_cast<std::size_t>(chunk)],
                  owner[static_cast<std::size_t>(chunk - N)]);
      }
    }
  }
}

TEST(ThreadPool, UsesSeveralThreadsWhenItHasThem) {
  ThreadPool pool(test_threads());
  if (pool.thread_count() == 1) GTEST_SKIP() << "one thread in this build";
  // Chunk 0 (the caller's) waits until chunk 1 has started: only a worker can start it then (the
  // caller takes a worker's slot only after its own).
  std::atomic<bool> started{false};
  std::vector<std::thread::id> owner(2);
  pool.parallel_for(2, [&](int chunk) {
    owner[static_cast<std::size_t>(chunk)] = std::this_thread::get_id();
    if (chunk == 1) started.store(true);
    while (!started.load()) std::this_thread::yield();
  });
  EXPECT_NE(owner[0], owner[1]);
}

TEST(ThreadPool, SlotsSeeTheirOwnLoopWhateverThreadTakesThem) {
  // Loops whose chunks take very different times, so that the caller sometimes takes a worker's
  // slot and a worker sometimes wakes for a loop that has already ended: every loop's chunks run
  // once, with that loop's function and chunk count.
  ThreadPool pool(test_threads());
  std::vector<int> runs(9, 0);
  for (int round = 0; round < 3000; ++round) {
    const int chunks = 2 + round % 8;
    pool.parallel_for(chunks, [&](int chunk) {
      if (chunk == 0 && round % 3 == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
      runs[static_cast<std::size_t>(chunk)] += round;
    });
    if (round % 700 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  for (int chunk = 0; chunk < 9; ++chunk) {
    long expected = 0;
    for (int round = 0; round < 3000; ++round) expected += chunk < 2 + round % 8 ? round : 0;
    EXPECT_EQ(runs[static_cast<std::size_t>(chunk)], expected) << "chunk " << chunk;
  }
}

TEST(ThreadPool, ManyShortLoopsInARow) {
  // Exercises the wake-up and completion handshake (spinning and sleeping alike: some
  // iterations sleep long enough for the workers to block).
  ThreadPool pool(test_threads());
  std::atomic<long> total{0};
  for (int round = 0; round < 2000; ++round) {
    pool.parallel_for(4, [&](int chunk) { total.fetch_add(chunk + 1); });
    if (round % 500 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_EQ(total.load(), 2000L * 10);
}

TEST(ThreadPool, CallsAllocateNothing) {
  if (!smfem::sim::test::counting_supported()) GTEST_SKIP() << "no allocation counter here";
  ThreadPool pool(test_threads());
  std::vector<double> out(16, 0.0);
  const auto body = [&](int chunk) { out[static_cast<std::size_t>(chunk)] += 1.0; };
  pool.parallel_for(16, body);
  const smfem::sim::test::CountingScope scope;
  for (int round = 0; round < 100; ++round) pool.parallel_for(16, body);
  EXPECT_EQ(scope.count(), 0);
  EXPECT_EQ(out[5], 101.0);
}

}  // namespace
}  // namespace smfem::parallel
