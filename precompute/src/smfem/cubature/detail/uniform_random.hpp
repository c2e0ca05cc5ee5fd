#pragma once
// A uniform double in [0, 1) from std::mt19937_64, written out: the engine's output sequence
// is fixed by the C++ standard, but std::uniform_real_distribution's mapping is not, so this
// keeps same seed => same numbers on every standard library.
#include <random>

namespace smfem::cubature::detail {

inline double uniform_01(std::mt19937_64& bits) {
  return static_cast<double>(bits() >> 11) * 0x1.0p-53;  // the top 53 bits as a fraction
}

}  // namespace smfem::cubature::detail
