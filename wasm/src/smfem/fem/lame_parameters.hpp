#pragma once
// The fem/ spelling of energies/lame.hpp, kept only because the precompute tool's elastic
// Laplacian calls it: one formula in one place (energies::lame_from_young_poisson, which also
// refuses E <= 0 and nu outside (-1, 1/2)). New code should include energies/lame.hpp.
#include "smfem/energies/lame.hpp"

namespace smfem::fem {

using LameParameters = energies::LameParameters<double>;

inline LameParameters lame_parameters(double youngs_modulus, double poisson_ratio) {
  return energies::lame_from_young_poisson(youngs_modulus, poisson_ratio);
}

}  // namespace smfem::fem
