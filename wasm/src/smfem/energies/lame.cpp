#include "smfem/energies/lame.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace smfem::energies {

LameParameters<double> lame_from_young_poisson(double youngs_modulus, double poisson_ratio) {
  // Written so that NaN fails every test.
  if (!(youngs_modulus > 0.0 && std::isfinite(youngs_modulus))) {
    throw std::invalid_argument("Young's modulus must be positive and finite, got " +
                                std::to_string(youngs_modulus));
  }
  if (!(poisson_ratio > -1.0 && poisson_ratio < 0.5)) {
    throw std::invalid_argument("Poisson's ratio must lie in (-1, 0.5), got " +
                                std::to_string(poisson_ratio));
  }
  const double E = youngs_modulus;
  const double nu = poisson_ratio;
  return {E / (2.0 * (1.0 + nu)), E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu))};
}

}  // namespace smfem::energies
