#include "smfem/subspace/rotation_artifact.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "smfem/subspace/basis.hpp"
#include "smfem/subspace/displacement_basis.hpp"
#include "smfem/subspace/elastic_laplacian.hpp"
#include "smfem/subspace/elastic_stiffness.hpp"
#include "smfem/subspace/linear_modes.hpp"
#include "smfem/subspace/lumped_mass.hpp"
#include "smfem/subspace/skinning_eigenmodes.hpp"
#include "subspace/box_mesh.hpp"

namespace smfem::subspace {
namespace {

constexpr double kPi = std::numbers::pi;

struct RotatedBar {
  mesh::TetMesh mesh = test::warped(test::box_mesh({6, 2, 2}, {3, 1, 1}), 0.03);
  Eigen::VectorXd E = Eigen::VectorXd::Constant(mesh.tets.rows(), 1e6);
  Eigen::VectorXd nu = Eigen::VectorXd::Constant(mesh.tets.rows(), 0.4);
  Eigen::VectorXd mass = lumped_mass(mesh, Eigen::VectorXd::Constant(mesh.tets.rows(), 1000.0));
  Eigen::Vector3d centre = (mesh.vertices.transpose() * mass) / mass.sum();
  Eigen::Vector3d axis = Eigen::Vector3d(1, 2, 3).normalized();
};

TEST(RotationArtifact, RigidRotationKeepsEveryTetsVolume) {
  const RotatedBar bar;
  const Eigen::VectorXd u = rigid_rotation(bar.mesh.vertices, bar.centre, bar.axis, 2.0);
  const VolumeDistortion volume = volume_distortion(bar.mesh, u);
  EXPECT_LT(volume.max, 1e-13);
  EXPECT_LT(std::abs(volume.total_change), 1e-13);
  // Distances are kept too.
  const Eigen::Vector3d a = bar.mesh.vertices.row(0).transpose() + u.segment<3>(0);
  const Eigen::Vector3d b = bar.mesh.vertices.row(7).transpose() + u.segment<3>(21);
  EXPECT_NEAR((a - b).norm(), (bar.mesh.vertices.row(0) - bar.mesh.vertices.row(7)).norm(), 1e-14);
}

// u = theta w x X has F = I + theta [w]x, so J = 1 + theta^2 in every tet.
TEST(RotationArtifact, LinearizedRotationGrowsEveryTetByThetaSquared) {
  const RotatedBar bar;
  const double theta = 0.7;
  Eigen::VectorXd u(3 * bar.mesh.vertices.rows());
  for (Eigen::Index v = 0; v < bar.mesh.vertices.rows(); ++v) {
    u.segment<3>(3 * v) = theta * bar.axis.cross(Eigen::Vector3d(bar.mesh.vertices.row(v)));
  }
  const VolumeDistortion volume = volume_distortion(bar.mesh, u);
  EXPECT_NEAR(volume.mean, theta * theta, 1e-12);
  EXPECT_NEAR(volume.max, theta * theta, 1e-12);
  EXPECT_NEAR(volume.total_change, theta * theta, 1e-12);
}

// Subspace MFEM (Trusty et al. 2023), Fig. 5: skinning eigenmodes hold the rotation, linear modes
// distort it.
TEST(RotationArtifact, SkinningEigenmodesHoldRotationsWhereLinearModesGrowTheVolume) {
  const RotatedBar bar;
  const int m = 4;
  const SkinningModes skinning =
      skinning_eigenmodes(elastic_laplacian(bar.mesh, bar.E, bar.nu), bar.mass, bar.mesh.vertices,
                          m, Eigen::VectorXi());
  const Eigen::MatrixXd skinning_basis =
      skinning_displacement_basis(vertex_basis(bar.mesh, skinning.weights));
  const LinearModes linear = linear_modes(elastic_stiffness(bar.mesh, bar.E, bar.nu), bar.mass,
                                          bar.mesh.vertices, 12 * m, Eigen::VectorXi());
  double previous_growth = 0.0;
  for (const double degrees : {30.0, 90.0, 180.0}) {
    const double angle = degrees * kPi / 180.0;
    const RotationFit held =
        fit_rotation(bar.mesh, bar.mass, skinning_basis, bar.centre, bar.axis, angle);
    EXPECT_LT(held.residual, 1e-10) << degrees << " degrees";
    EXPECT_LT(held.volume.max, 1e-10) << degrees << " degrees";
    const RotationFit distorted =
        fit_rotation(bar.mesh, bar.mass, linear.vectors, bar.centre, bar.axis, angle);
    EXPECT_GT(distorted.residual, 1e-2) << degrees << " degrees";
    EXPECT_GT(distorted.volume.mean, previous_growth) << degrees << " degrees";
    previous_growth = distorted.volume.mean;
  }
  EXPECT_EQ(fit_rotation(bar.mesh, bar.mass, linear.vectors, bar.centre, bar.axis, 0.0).residual,
            0.0);
}

}  // namespace
}  // namespace smfem::subspace
