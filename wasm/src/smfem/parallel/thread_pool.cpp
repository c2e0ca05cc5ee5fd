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
    : thread_count_(std::clamp(thread_count, 1, max_thread_count())),
      claimed_(new std::atomic<std::uint64_t>[static_cast<std::size_t>(thread_count_)]) {
  for (int slot = 0; slot < thread_count_; ++slot) claimed_[slot].store(0);
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

void ThreadPool::run_chunks(int slot) const {
  for (int chunk = slot; chunk < chunk_count_; chunk += thread_count_) task_(context_, chunk);
}

bool ThreadPool::claim(int slot, std::uint64_t generation) {
  // Generations only grow: a thread that read an older one (a worker waking late) never takes
  // a slot of a later loop.
  std::uint64_t last = claimed_[slot].load(std::memory_order_relaxed);
  while (last < generation) {
    if (claimed_[slot].compare_exchange_weak(last, generation, std::memory_order_acq_rel)) {
      return true;
    }
  }
  return false;
}

void ThreadPool::finish_slot() {
  if (unfinished_slots_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    // Taking the lock orders this check after the caller's check-then-wait.
    const std::lock_guard lock(mutex_);
    if (caller_sleeping_) work_done_.notify_one();
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
  unfinished_slots_.store(thread_count_ - 1, std::memory_order_relaxed);
  std::uint64_t generation = 0;
  bool wake = false;
  {
    const std::lock_guard lock(mutex_);
    generation = generation_.fetch_add(1, std::memory_order_release) + 1;
    wake = sleeping_workers_ > 0;
  }
  if (wake) work_ready_.notify_all();

  run_chunks(0);
  // The slots no worker has started yet.
  for (int slot = 1; slot < thread_count_; ++slot) {
    if (!claim(slot, generation)) continue;
    run_chunks(slot);
    unfinished_slots_.fetch_sub(1, std::memory_order_acq_rel);
  }

  const auto all_done = [this] { return unfinished_slots_.load(std::memory_order_acquire) == 0; };
  if (!spin_until(all_done)) {
    std::unique_lock lock(mutex_);
    caller_sleeping_ = true;
    work_done_.wait(lock, all_done);
    caller_sleeping_ = false;
  }
}

void ThreadPool::worker_loop(int thread_index) {
  std::uint64_t seen = 0;
  for (;;) {
    const auto new_work = [&] { return generation_.load(std::memory_order_acquire) != seen; };
    if (!spin_until(new_work)) {
      std::unique_lock lock(mutex_);
      ++sleeping_workers_;
      work_ready_.wait(lock, [&] { return stopping_ || new_work(); });
      --sleeping_workers_;
      if (stopping_) return;
    }
    seen = generation_.load(std::memory_order_acquire);
    if (!claim(thread_index, seen)) continue;  // the caller ran it
    run_chunks(thread_index);
    finish_slot();
  }
}

}  // namespace smfem::parallel
