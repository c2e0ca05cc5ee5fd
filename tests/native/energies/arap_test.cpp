#include "smfem/energies/arap.hpp"

#include "energies/material_test_suite.hpp"

namespace smfem::test {
namespace {

SMFEM_MATERIAL_MODEL(ArapModel, arap, false);
INSTANTIATE_TYPED_TEST_SUITE_P(Arap, MaterialModel, ArapModel);

TEST(MaterialArap, KnownValues) {
  const Lame p{3.0, 100.0};  // lambda must not matter
  std::mt19937 rng(1);
  const Eigen::Matrix3d Q = random_rotation(rng);
  // Stretched twofold along one axis, then turned: mu (2 - 1)^2.
  const Eigen::Matrix3d F = Q * Eigen::Vector3d(2.0, 1.0, 1.0).asDiagonal();
  EXPECT_NEAR(energies::arap::psi<double>(F, p), 3.0, 1e-14);
  EXPECT_NEAR(energies::arap::psi<double>(polar::symmetric_stretch<double>(F), p), 3.0, 1e-13);
  // Inverted through the plane: sigma = (1, 1, -1), mu (-1 - 1)^2.
  EXPECT_NEAR(
      energies::arap::psi<double>(Eigen::Matrix3d(Eigen::Vector3d(1.0, 1.0, -1.0).asDiagonal()), p),
      12.0, 1e-14);
  // The stretch Hessian is 2 mu D everywhere; its projection changes nothing.
  const Vector6d s = (Vector6d() << 0.3, -2.0, 1.0, 0.5, -0.7, 4.0).finished();
  const Matrix6d H = 6.0 * polar::stretch_metric<double>().asDiagonal().toDenseMatrix();
  EXPECT_EQ(energies::arap::d2psi_ds2<double>(s, p), H);
  EXPECT_EQ(energies::arap::d2psi_ds2_projected<double>(s, p), H);
}

}  // namespace
}  // namespace smfem::test
