#include "sim/allocation_counter.hpp"

#include <atomic>
#include <cstddef>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SMFEM_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SMFEM_TEST_ASAN 1
#endif

#if defined(SMFEM_TEST_ASAN)
// From the sanitizers' public interface (sanitizer/allocator_interface.h, which GCC does not
// install): hooks called on every allocation and deallocation.
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*,
                                                                             std::size_t),
                                                         void (*free_hook)(const volatile void*));
#endif

namespace smfem::sim::test {
namespace {

// Global, not per thread: allocations by the stepper's worker threads count too.
std::atomic<bool> counting{false};
std::atomic<std::int64_t> allocations{0};

// Unused where no allocator can be hooked (wasm: counting_supported() is false there).
[[maybe_unused]] inline void note_allocation() {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

#if defined(SMFEM_TEST_ASAN)

namespace {
void on_malloc(const volatile void*, std::size_t) { note_allocation(); }
void on_free(const volatile void*) {}
const int installed = __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
}  // namespace
bool counting_supported() { return installed != 0; }

#elif defined(__GLIBC__) && !defined(__EMSCRIPTEN__)

bool counting_supported() { return true; }

#else

bool counting_supported() { return false; }

#endif

CountingScope::CountingScope() : start_(allocations) { counting = true; }
CountingScope::~CountingScope() { counting = false; }
std::int64_t CountingScope::count() const { return allocations - start_; }

}  // namespace smfem::sim::test

#if !defined(SMFEM_TEST_ASAN) && defined(__GLIBC__) && !defined(__EMSCRIPTEN__)
// glibc's documented way to replace the allocator: define these in the executable. They
// forward to glibc's implementation, so memory from any entry point can be freed by any other.
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void* pointer);

void* malloc(std::size_t size) {
  smfem::sim::test::note_allocation();
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) {
  smfem::sim::test::note_allocation();
  return __libc_calloc(count, size);
}
void* realloc(void* pointer, std::size_t size) {
  smfem::sim::test::note_allocation();
  return __libc_realloc(pointer, size);
}
void* memalign(std::size_t alignment, std::size_t size) {
  smfem::sim::test::note_allocation();
  return __libc_memalign(alignment, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) {
  smfem::sim::test::note_allocation();
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** result, std::size_t alignment, std::size_t size) {
  smfem::sim::test::note_allocation();
  *result = __libc_memalign(alignment, size);
  return *result != nullptr || size == 0 ? 0 : 12;  // ENOMEM
}
void free(void* pointer) { __libc_free(pointer); }
}
#endif
