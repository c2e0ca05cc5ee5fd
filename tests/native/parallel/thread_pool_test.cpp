#include "smfem/parallel/thread_pool.hpp"

#include <algorithm>
#include <atomic>
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

TEST(ThreadPool, RunsEveryChunkOnceOnItsFixedThread) {
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
      // chunk i runs on thread i mod N; thread 0 is the caller.
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
  std::vector<std::thread::id> owner(2);
  pool.parallel_for(
      2, [&](int chunk) { owner[static_cast<std::size_t>(chunk)] = std::this_thread::get_id(); });
  EXPECT_EQ(owner[0] != owner[1], pool.thread_count() > 1);
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
