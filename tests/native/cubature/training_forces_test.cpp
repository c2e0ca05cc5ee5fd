#include "smfem/cubature/training_forces.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "cubature/test_body.hpp"
#include "polar/finite_differences.hpp"
#include "smfem/energies/lame.hpp"
#include "smfem/polar/polar.hpp"
#include "smfem/subspace/basis.hpp"

namespace smfem::cubature {
namespace {

Eigen::VectorXi all_tets() {
  return Eigen::VectorXi::LinSpaced(test::test_body().mesh.tets.rows(), 0,
                                    static_cast<int>(test::test_body().mesh.tets.rows()) - 1);
}

// E(U) = sum_t V_t psi(F_t(U)), U as u = vec(U) (12m).
double elastic_energy(const ElasticBody& view, const Eigen::VectorXd& u) {
  const Eigen::Index r4 = 4 * view.weights.cols();
  const Pose U = Eigen::Map<const Pose>(u.data(), r4, 3);
  const subspace::TetBasisGradients Y =
      subspace::tet_basis_gradients(view.mesh, view.weights, all_tets());
  double energy = 0.0;
  for (Eigen::Index t = 0; t < view.mesh.tets.rows(); ++t) {
    const Matrix3<double> F =
        Matrix3<double>::Identity() + U.transpose() * Y.middleRows(r4 * t, r4);
    energy += view.volumes(t) *
              sim::psi(view.model, polar::symmetric_stretch(F),
                       energies::lame_from_young_poisson(view.youngs(t), view.poisson(t)));
  }
  return energy;
}

TEST(TrainingForces, BodyForceIsTheGradientOfTheElasticEnergyForEveryMaterial) {
  for (const sim::MaterialModel model : sim::kMaterialModels) {
    SCOPED_TRACE(sim::material_model_name(model));
    const ElasticBody view = test::test_body().view(model);
    const Poses poses = sample_poses(view, 3, 0, 5);
    const Eigen::VectorXd forces = body_forces(view, poses.training, 1);
    ASSERT_EQ(forces.size(), 3 * 48);
    for (std::size_t p = 0; p < poses.training.size(); ++p) {
      const Pose& U = poses.training[p];
      const Eigen::VectorXd u = Eigen::Map<const Eigen::VectorXd>(U.data(), U.size());
      const Eigen::VectorXd fd =
          test::fd_jacobian([&](const Eigen::VectorXd& x) { return elastic_energy(view, x); }, u,
                            1e-5 * U.cwiseAbs().maxCoeff())
              .transpose();
      const Eigen::VectorXd g = forces.segment(48 * static_cast<Eigen::Index>(p), 48);
      EXPECT_LT((g - fd).norm(), 1e-6 * g.norm()) << "pose " << p;
    }
  }
}

TEST(TrainingForces, TetForcesTimesVolumesSumToTheBodyForceAndVanishAtRest) {
  const ElasticBody view = test::test_body().view(sim::MaterialModel::fixed_corotational);
  std::vector<Pose> poses = sample_poses(view, 4, 0, 8).training;
  poses.push_back(Pose::Zero(16, 3));
  const Eigen::MatrixXd per_tet = tet_forces(view, all_tets(), poses, 2);
  ASSERT_EQ(per_tet.rows(), 5 * 48);
  ASSERT_EQ(per_tet.cols(), view.mesh.tets.rows());
  const Eigen::VectorXd total = body_forces(view, poses, 2);
  EXPECT_LT((per_tet * view.volumes - total).norm(), 1e-12 * total.norm());
  EXPECT_LT(total.tail(48).norm(), 1e-12 * total.norm());
  // Two tets in another order give the same columns.
  const Eigen::MatrixXd two = tet_forces(view, Eigen::Vector2i(7, 3), poses, 1);
  EXPECT_EQ(two.col(0), per_tet.col(7));
  EXPECT_EQ(two.col(1), per_tet.col(3));
}

TEST(TrainingForces, PosesAreSeededScaledToModerateStrainsAndStartWithSingleModes) {
  const ElasticBody view = test::test_body().view(sim::MaterialModel::fixed_corotational);
  const Poses poses = sample_poses(view, 12, 4, 21);
  ASSERT_EQ(poses.training.size(), 12u);
  ASSERT_EQ(poses.held_out.size(), 4u);
  const Poses again = sample_poses(view, 12, 4, 21);
  for (std::size_t p = 0; p < 12; ++p) EXPECT_EQ(poses.training[p], again.training[p]);
  EXPECT_NE(sample_poses(view, 12, 4, 22).training[5], poses.training[5]);

  const subspace::TetBasisGradients Y =
      subspace::tet_basis_gradients(view.mesh, view.weights, all_tets());
  const auto rms_strain = [&](const Pose& U) {
    double sum = 0.0;
    for (Eigen::Index t = 0; t < view.mesh.tets.rows(); ++t) {
      sum += view.volumes(t) * (U.transpose() * Y.middleRows(16 * t, 16)).squaredNorm();
    }
    return std::sqrt(sum / view.volumes.sum());
  };
  std::vector<Pose> all = poses.training;
  all.insert(all.end(), poses.held_out.begin(), poses.held_out.end());
  for (const Pose& U : all) {
    EXPECT_GE(rms_strain(U), kMinStrain * (1 - 1e-12));
    EXPECT_LE(rms_strain(U), kMaxStrain * (1 + 1e-12));
  }
  // 12 / 4 = 3 single-mode poses, of the non-constant modes 1, 2, 3 in turn.
  for (int p = 0; p < 3; ++p) {
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(poses.training[static_cast<std::size_t>(p)].middleRows(4 * i, 4).isZero(0.0),
                i != p + 1)
          << "pose " << p << ", mode " << i;
    }
  }
  EXPECT_FALSE(poses.training[3].middleRows(0, 4).isZero(0.0));
}

TEST(TrainingForces, RefusesMismatchedBodiesAndTetIds) {
  const test::TestBody& b = test::test_body();
  const Eigen::VectorXd short_youngs = b.youngs.head(10);
  const ElasticBody bad{b.mesh,       b.weights, b.eigenvalues,           b.volumes,
                        short_youngs, b.poisson, sim::MaterialModel::arap};
  EXPECT_THROW(body_forces(bad, {}, 1), std::invalid_argument);
  const ElasticBody view = b.view(sim::MaterialModel::arap);
  EXPECT_THROW(tet_forces(view, Eigen::Vector2i(0, 96), {}, 1), std::invalid_argument);
  EXPECT_THROW(sample_poses(view, -1, 1, 0), std::invalid_argument);
}

}  // namespace
}  // namespace smfem::cubature
