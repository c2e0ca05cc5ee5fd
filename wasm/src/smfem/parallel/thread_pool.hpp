#pragma once
// A persistent pool of threads for the stepper's parallel loops.
//
// The pool holds N threads in all: the caller of parallel_for plus N - 1 background workers,
// created once and reused for every loop. parallel_for(chunk_count, fn) runs fn(chunk) for
// every chunk in [0, chunk_count) and returns when all have finished. Chunk i belongs to slot
// i mod N, and a slot's chunks run in order on one thread: slot 0 on the caller, slot s on
// worker s, or on the caller where that worker has not started it by the time the caller has
// run its own (a worker woken from sleep starts late: in wasm a loop of microseconds waited on
// it for longer than its work). Callers index their per-thread workspaces by slot and give each
// chunk disjoint outputs, so results are independent of thread timing. A call allocates nothing.
//
// Waking up: workers spin briefly on an atomic generation counter (loops inside one step follow
// each other within microseconds), then sleep on a condition variable (between steps); a loop
// notifies only where a worker sleeps, and a worker its caller only where the caller sleeps
// (each notification is a futex call, in wasm a call out to JavaScript).
//
// Builds: natively N <= std::thread::hardware_concurrency(); in the threaded WebAssembly build
// N <= 1 + SMFEM_WASM_POOL_SIZE (Emscripten's pthread pool is fixed: asking for more threads
// than it holds would block forever); in the single-threaded WebAssembly build N = 1 and every
// loop runs inline. The same code serves all three.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
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

  // Calls fn(chunk) for chunk in [0, chunk_count), slot by slot (chunk i in slot i mod
  // thread_count(); above), and waits for all of them. fn must not throw (std::terminate otherwise)
  // and must not call parallel_for on the same pool. Not reentrant: one caller at a time.
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
  void run_chunks(int slot) const;
  // Whether this thread takes slot `slot` of loop `generation` (no other thread has).
  bool claim(int slot, std::uint64_t generation);
  // After a slot's chunks: the last slot of the loop wakes its caller where it sleeps.
  void finish_slot();
  void worker_loop(int thread_index);

  int thread_count_ = 1;
  std::vector<std::thread> workers_;

  // The current loop, published by incrementing generation_ (release) under mutex_.
  Task task_ = nullptr;
  void* context_ = nullptr;
  int chunk_count_ = 0;
  std::atomic<std::uint64_t> generation_{0};
  // Per slot, the last loop that a thread took it in (slot 0's unused: the caller's).
  std::unique_ptr<std::atomic<std::uint64_t>[]> claimed_;
  std::atomic<int> unfinished_slots_{0};
  bool stopping_ = false;

  std::mutex mutex_;
  int sleeping_workers_ = 0;      // under mutex_
  bool caller_sleeping_ = false;  // under mutex_
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
