#pragma once
// Material parameters of the elastic energies: the Lamé parameters mu (shear modulus) and
// lambda, in the units of the Young's modulus they come from (Pa).
namespace smfem::energies {

template <typename Scalar>
struct LameParameters {
  Scalar mu;
  Scalar lambda;

  template <typename To>
  LameParameters<To> cast() const {
    return {static_cast<To>(mu), static_cast<To>(lambda)};
  }
};

// mu = E / (2 (1 + nu)),  lambda = E nu / ((1 + nu) (1 - 2 nu)).
// Throws std::invalid_argument unless E > 0 and -1 < nu < 1/2 (both finite).
LameParameters<double> lame_from_young_poisson(double youngs_modulus, double poisson_ratio);

}  // namespace smfem::energies
