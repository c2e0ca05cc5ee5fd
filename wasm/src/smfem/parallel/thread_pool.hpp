#pragma once
// A persistent pool of threads for the stepper's parallel loops.
//
// The pool holds N threads in all: the caller of parallel_for plus N - 1 background workers,
// created once and reused for every loop. parallel_for(chunk_count, fn) runs fn(chunk) for
// every chunk in [0, chunk_count), chunk i always on thread i mod N (thread 0 is the caller),
// and returns when all have finished. The fixed mapping, and callers that give each chunk
// disjoint outputs, make results independent of thread timing. A call allocates nothing.
//
// Waking up: workers spin briefly on an atomic generation counter (loops inside one step follow
// each other within microseconds), then sleep on a condition variable (between steps).
//
// Builds: natively N <= std::thread::hardware_concurrency(); in the threaded WebAssembly build
// N <= 1 + SMFEM_WASM_POOL_SIZE (Emscripten's pthread pool is fixed: asking for more threads
// than it holds would block forever); in the single-threaded WebAssembly build N = 1 and every
// loop runs inline. The same code serves all three.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace smfem::parallel {

// The threads a loop that starts its own std::threads (the bake's) may use: `requested`, or one
// per hardware thread for 0, within ThreadPool::max_thread_count() (in the threaded WebAssembly
// build a thread beyond Emscripten's fixed pool would never start).
int usable_thread_count(int requested);

class ThreadPool {
 public:
  // thread_count: threads in all, including the caller; clamped to [1, max_thread_count()].
  explicit ThreadPool(int thread_count = 1);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // The largest thread count this build supports (see the header comment).
  static int max_thread_count();
  int thread_count() const { return thread_count_; }

  // Calls fn(chunk) for chunk in [0, chunk_count), chunk i on thread i mod thread_count(), and
  // waits for all of them. fn must not throw (std::terminate otherwise) and must not call
  // parallel_for on the same pool. Not reentrant: one caller at a time.
  template <class Fn>
  void parallel_for(int chunk_count, Fn&& fn) {
    using Callable = std::remove_reference_t<Fn>;
    run(
        chunk_count,
        [](void* context, int chunk) noexcept { (*static_cast<Callable*>(context))(chunk); },
        const_cast<void*>(static_cast<const void*>(&fn)));
  }

 private:
  using Task = void (*)(void*, int) noexcept;

  void run(int chunk_count, Task task, void* context);
  void run_chunks(int thread_index) const;
  void worker_loop(int thread_index);

  int thread_count_ = 1;
  std::vector<std::thread> workers_;

  // The current loop, published by incrementing generation_ (release) under mutex_.
  Task task_ = nullptr;
  void* context_ = nullptr;
  int chunk_count_ = 0;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<int> busy_workers_{0};
  bool stopping_ = false;

  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
};

// fn(chunk) for chunk in [0, chunk_count): on the pool, or on the caller in chunk order where
// there is no pool, one thread, or one chunk (waking the workers would cost more than it saves).
template <class Fn>
void parallel_for_or_inline(ThreadPool* pool, int chunk_count, Fn&& fn) {
  if (pool == nullptr || pool->thread_count() == 1 || chunk_count < 2) {
    for (int chunk = 0; chunk < chunk_count; ++chunk) fn(chunk);
    return;
  }
  pool->parallel_for(chunk_count, fn);
}

}  // namespace smfem::parallel
