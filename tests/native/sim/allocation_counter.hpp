#pragma once
// Counts heap allocations (malloc and everything built on it: operator new, Eigen's
// aligned_malloc) made by any thread while a CountingScope exists, for the "no allocation
// inside step()" tests.
//   - AddressSanitizer builds: ASan's allocator hooks.
//   - other native glibc builds: malloc & co. replaced in the test executable, forwarding to
//     glibc's own __libc_* entry points.
//   - WebAssembly: not supported (counting_supported() is false; the tests skip).
// Counting is off outside a CountingScope, so the rest of the test binary is unaffected.
#include <cstdint>

namespace smfem::sim::test {

bool counting_supported();

class CountingScope {
 public:
  CountingScope();
  ~CountingScope();
  CountingScope(const CountingScope&) = delete;
  CountingScope& operator=(const CountingScope&) = delete;
  // Allocations since construction.
  std::int64_t count() const;

 private:
  std::int64_t start_;
};

}  // namespace smfem::sim::test
