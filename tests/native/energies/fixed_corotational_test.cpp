#include "smfem/energies/fixed_corotational.hpp"

#include "energies/material_test_suite.hpp"

namespace smfem::test {
namespace {

SMFEM_MATERIAL_MODEL(FixedCorotationalModel, fixed_corotational, true);
INSTANTIATE_TYPED_TEST_SUITE_P(FixedCorotational, MaterialModel, FixedCorotationalModel);

TEST(MaterialFixedCorotational, KnownValues) {
  const Lame p{3.0, 5.0};
  std::mt19937 rng(2);
  const Eigen::Matrix3d Q = random_rotation(rng);
  // Stretched twofold along one axis: mu (2 - 1)^2 + lambda / 2 (2 - 1)^2.
  const Eigen::Matrix3d F = Q * Eigen::Vector3d(2.0, 1.0, 1.0).asDiagonal();
  EXPECT_NEAR(energies::fixed_corotational::psi<double>(F, p), 5.5, 1e-13);
  // Inverted through a plane: sigma = (1, 1, -1), J = -1: mu 4 + lambda / 2 4.
  const Eigen::Matrix3d mirror = Q * Eigen::Vector3d(1.0, 1.0, -1.0).asDiagonal();
  EXPECT_NEAR(energies::fixed_corotational::psi<double>(mirror, p), 22.0, 1e-13);
  // Collapsed to a point: mu 3 + lambda / 2.
  EXPECT_NEAR(
      energies::fixed_corotational::psi<double>(Eigen::Matrix3d(Eigen::Matrix3d::Zero()), p), 11.5,
      1e-13);
  // Uniform compression to half: the stress is mu 2 (1/2 - 1) I + lambda (1/8 - 1) (1/4) I.
  const Eigen::Matrix3d P = energies::fixed_corotational::dpsi_dF<double>(
      Eigen::Matrix3d(0.5 * Eigen::Matrix3d::Identity()), p);
  EXPECT_LT((P - (-3.0 - 5.0 * 7.0 / 32.0) * Eigen::Matrix3d::Identity()).norm(), 1e-13);
}

}  // namespace
}  // namespace smfem::test
