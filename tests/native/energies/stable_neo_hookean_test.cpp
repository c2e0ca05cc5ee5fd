#include "smfem/energies/stable_neo_hookean.hpp"

#include "energies/material_test_suite.hpp"

namespace smfem::test {
namespace {

SMFEM_MATERIAL_MODEL(StableNeoHookeanModel, stable_neo_hookean, true);
INSTANTIATE_TYPED_TEST_SUITE_P(StableNeoHookean, MaterialModel, StableNeoHookeanModel);

TEST(MaterialStableNeoHookean, KnownValues) {
  // lambda^ = lambda + mu = 8.
  const Lame p{3.0, 5.0};
  std::mt19937 rng(3);
  const Eigen::Matrix3d Q = random_rotation(rng);
  // Stretched twofold along one axis: I_C = 6, J = 2: mu / 2 3 - mu + lambda^ / 2.
  const Eigen::Matrix3d F = Q * Eigen::Vector3d(2.0, 1.0, 1.0).asDiagonal();
  EXPECT_NEAR(energies::stable_neo_hookean::psi<double>(F, p), 4.5 - 3.0 + 4.0, 1e-13);
  // Collapsed to a point: finite, -3 mu / 2 + mu + lambda^ / 2 = lambda / 2.
  EXPECT_NEAR(
      energies::stable_neo_hookean::psi<double>(Eigen::Matrix3d(Eigen::Matrix3d::Zero()), p), 2.5,
      1e-13);
  // Inverted through a plane: I_C = 3, J = -1: 2 mu + 2 lambda^.
  const Eigen::Matrix3d mirror = Q * Eigen::Vector3d(1.0, 1.0, -1.0).asDiagonal();
  EXPECT_NEAR(energies::stable_neo_hookean::psi<double>(mirror, p), 22.0, 1e-13);
  // Uniform compression to half: mu F + (lambda^ (J - 1) - mu) cof F, cof F = I / 4.
  const Eigen::Matrix3d P = energies::stable_neo_hookean::dpsi_dF<double>(
      Eigen::Matrix3d(0.5 * Eigen::Matrix3d::Identity()), p);
  EXPECT_LT((P - (1.5 + (8.0 * (-7.0 / 8.0) - 3.0) / 4.0) * Eigen::Matrix3d::Identity()).norm(),
            1e-13);
}

}  // namespace
}  // namespace smfem::test
