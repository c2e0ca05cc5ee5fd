#include "sim/test_model.hpp"

#include <random>

#include "smfem/sim/eigenfit.hpp"

namespace smfem::sim::test {

ReducedMatrix random_reduced(int mode_count, double scale, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(-scale, scale);
  ReducedMatrix U(4 * mode_count, 3);
  for (Eigen::Index i = 0; i < U.size(); ++i) U.data()[i] = uniform(generator);
  return U;
}

BoxModelOptions small_box() {
  BoxModelOptions options;
  options.nx = 4;
  options.ny = 1;
  options.nz = 1;
  options.mode_count = 4;
  options.youngs[1] = 1e6;
  return options;
}

ReducedModel small_box_model(int mode_count) {
  BoxModelOptions options = small_box();
  options.mode_count = mode_count;
  return make_box_model(options).model;
}

ReducedModel with_eigenfit(ReducedModel model, const Eigen::VectorXd& ratios) {
  const Eigen::MatrixXd K0 =
      rest_stiffness(model, MaterialModel::fixed_corotational, baked_lame(model));
  const ReducedModes modes = reduced_rest_modes(model, K0, static_cast<int>(ratios.size()));
  model.eigenfit.modes = modes.vectors;
  model.eigenfit.ratios = ratios;
  model.eigenfit.coarse_eigenvalues = modes.eigenvalues;
  model.eigenfit.fine_eigenvalues = ratios.cwiseProduct(modes.eigenvalues);
  return model;
}

}  // namespace smfem::sim::test
