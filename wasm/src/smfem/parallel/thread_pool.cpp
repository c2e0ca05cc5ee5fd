#include "smfem/parallel/thread_pool.hpp"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace smfem::parallel {
namespace {

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
constexpr bool kThreadsAvailable = false;
#else
constexpr bool kThreadsAvailable = true;
#endif

// How long a waiting thread spins before it sleeps: long enough to bridge the serial parts of
// a solver iteration (the dense solve, about 0.1 ms), short enough not to burn a core between
// frames.
constexpr auto kSpinTime = std::chrono::microseconds(200);

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// Spins until done() or kSpinTime has passed; true if done() became true.
template <class Done>
bool spin_until(Done done) {
  const auto deadline = std::chrono::steady_clock::now() + kSpinTime;
  for (int round = 0;; ++round) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() > deadline) return done();
  }
}

}  // namespace

int ThreadPool::max_thread_count() {
  if constexpr (!kThreadsAvailable) {
    return 1;
  } else {
#if defined(__EMSCRIPTEN__)
    return 1 + SMFEM_WASM_POOL_SIZE;
#else
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
#endif
  }
}

int usable_thread_count(int requested) {
  const int hardware = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return std::clamp(requested > 0 ? requested : hardware, 1, ThreadPool::max_thread_count());
}

ThreadPool::ThreadPool(int thread_count)
    : thread_count_(std::clamp(thread_count, 1, max_thread_count())) {
  if constexpr (kThreadsAvailable) {
    workers_.reserve(static_cast<std::size_t>(thread_count_ - 1));
    for (int index = 1; index < thread_count_; ++index) {
      workers_.emplace_back([this, index] { worker_loop(index); });
    }
  }
}

ThreadPool::~ThreadPool() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::run_chunks(int thread_index) const {
  for (int chunk = thread_index; chunk < chunk_count_; chunk += thread_count_) {
    task_(context_, chunk);
  }
}

void ThreadPool::run(int chunk_count, Task task, void* context) {
  if (thread_count_ == 1 || chunk_count <= 1) {
    for (int chunk = 0; chunk < chunk_count; ++chunk) task(context, chunk);
    return;
  }
  task_ = task;
  context_ = context;
  chunk_count_ = chunk_count;
  busy_workers_.store(thread_count_ - 1, std::memory_order_relaxed);
  {
    const std::lock_guard lock(mutex_);
    generation_.fetch_add(1, std::memory_order_release);
  }
  work_ready_.notify_all();

  run_chunks(0);

  const auto all_done = [this] { return busy_workers_.load(std::memory_order_acquire) == 0; };
  if (!spin_until(all_done)) {
    std::unique_lock lock(mutex_);
    work_done_.wait(lock, all_done);
  }
}

void ThreadPool::worker_loop(int thread_index) {
  std::uint64_t seen = 0;
  for (;;) {
    const auto new_work = [&] { return generation_.load(std::memory_order_acquire) != seen; };
    if (!spin_until(new_work)) {
      std::unique_lock lock(mutex_);
      work_ready_.wait(lock, [&] { return stopping_ || new_work(); });
      if (stopping_) return;
    }
    seen = generation_.load(std::memory_order_acquire);

    run_chunks(thread_index);

    if (busy_workers_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      // Taking the lock orders this notification after the caller's check-then-wait.
      const std::lock_guard lock(mutex_);
      work_done_.notify_one();
    }
  }
}

}  // namespace smfem::parallel
