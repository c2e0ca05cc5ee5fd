#pragma once
// Wall-clock seconds of the bake's stages (smfem-bake --json's "timings_s", the benchmarks).
#include <chrono>

namespace smfem::bake {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace smfem::bake
