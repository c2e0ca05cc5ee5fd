#pragma once
// Lamé parameters of an isotropic material from Young's modulus E and Poisson's ratio nu:
//   mu = E / (2 (1 + nu)),   lambda = E nu / ((1 + nu) (1 - 2 nu)).
// Valid (positive definite linear elasticity) for E > 0 and -1 < nu < 1/2; callers check.
namespace smfem::fem {

struct LameParameters {
  double mu;
  double lambda;
};

inline LameParameters lame_parameters(double youngs_modulus, double poisson_ratio) {
  const double nu = poisson_ratio;
  return {youngs_modulus / (2.0 * (1.0 + nu)),
          youngs_modulus * nu / ((1.0 + nu) * (1.0 - 2.0 * nu))};
}

}  // namespace smfem::fem
