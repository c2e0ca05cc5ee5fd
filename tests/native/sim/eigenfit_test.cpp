// The EigenFit data and the reduced rest analysis (smfem/sim/eigenfit.hpp): the rest stiffness
// against FEM's Hessian at rest by finite differences, the reduced rest modes as eigenpairs,
// the asset group's round trip and its refusals, each naming the section.
#include "smfem/sim/eigenfit.hpp"

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include "sim/reference.hpp"
#include "sim/test_model.hpp"
#include "smfem/asset/asset.hpp"
#include "smfem/asset/asset_error.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/model/reduced_model_writer.hpp"

namespace smfem::sim {
namespace {

TEST(EigenFit, RestStiffnessIsTheFemHessianAtRest) {
  const BoxModel box = make_box_model(test::small_box());
  const Eigen::MatrixXd K0 =
      rest_stiffness(box.model, MaterialModel::fixed_corotational, baked_lame(box.model));
  const int r = box.model.reduced_size();
  const test::Reference reference(box, MaterialModel::fixed_corotational, 1.0,
                                  Eigen::Vector3d::Zero(), Eigen::VectorXd::Zero(r));
  // The reference's Hessian of E at rest (central differences of its gradient) less H_u.
  const Eigen::MatrixXd elastic =
      reference.fem_hessian(Eigen::VectorXd::Zero(r)) - reference.hessian_psi_u();
  EXPECT_LT((K0 - elastic).cwiseAbs().maxCoeff(), 1e-6 * K0.cwiseAbs().maxCoeff());
  EXPECT_EQ((K0 - K0.transpose()).cwiseAbs().maxCoeff(), 0.0);
}

TEST(EigenFit, ReducedRestModesAreMassOrthonormalEigenpairs) {
  const BoxModel box = make_box_model(test::small_box());
  const Eigen::MatrixXd K0 =
      rest_stiffness(box.model, MaterialModel::fixed_corotational, baked_lame(box.model));
  const ReducedModes modes = reduced_rest_modes(box.model, K0, 5);
  const Eigen::MatrixXd M = reduced_mass(box.model);
  // A free body: the six rigid motions are null.
  EXPECT_EQ(modes.null_modes, 6);
  EXPECT_LT((modes.vectors.transpose() * M * modes.vectors - Eigen::MatrixXd::Identity(5, 5))
                .cwiseAbs()
                .maxCoeff(),
            1e-10);
  const Eigen::MatrixXd residual =
      K0 * modes.vectors - M * modes.vectors * modes.eigenvalues.asDiagonal();
  EXPECT_LT(residual.cwiseAbs().maxCoeff(), 1e-8 * K0.cwiseAbs().maxCoeff());
  for (int i = 0; i < 5; ++i) {
    EXPECT_GT(modes.eigenvalues(i), 0.0);
    if (i > 0) {
      EXPECT_GE(modes.eigenvalues(i), modes.eigenvalues(i - 1));
    }
  }
  EXPECT_THROW(reduced_rest_modes(box.model, K0, box.model.reduced_size()), std::invalid_argument);
}

TEST(EigenFit, AssetRoundTripsTheGroup) {
  const BoxModel box = make_box_model(test::small_box());
  const ReducedModel model = test::with_eigenfit(box.model, Eigen::Vector3d(0.5, 0.8, 1.3));
  const ReducedModel loaded = load_reduced_model(
      asset::Asset::from_bytes(reduced_model_asset_bytes(model), "fitted.smfem"));
  EXPECT_EQ(loaded.eigenfit.modes, model.eigenfit.modes);
  EXPECT_EQ(loaded.eigenfit.ratios, model.eigenfit.ratios);
  EXPECT_EQ(loaded.eigenfit.coarse_eigenvalues, model.eigenfit.coarse_eigenvalues);
  EXPECT_EQ(loaded.eigenfit.fine_eigenvalues, model.eigenfit.fine_eigenvalues);
  // No group: an empty fit.
  EXPECT_TRUE(load_reduced_model(
                  asset::Asset::from_bytes(reduced_model_asset_bytes(box.model), "plain.smfem"))
                  .eigenfit.empty());
}

// The message load_reduced_model gives for model's asset ("" if it loads).
std::string load_error(const ReducedModel& model) {
  try {
    load_reduced_model(asset::Asset::from_bytes(reduced_model_asset_bytes(model), "bad.smfem"));
  } catch (const asset::AssetError& error) {
    return error.what();
  }
  return "";
}

TEST(EigenFit, ReaderRefusesBadGroupsNamingTheSection) {
  const BoxModel box = make_box_model(test::small_box());
  const ReducedModel good = test::with_eigenfit(box.model, Eigen::Vector2d(0.5, 0.8));
  ASSERT_EQ(load_error(good), "");

  ReducedModel bad = good;
  bad.eigenfit.ratios(1) = -0.5;
  EXPECT_NE(load_error(bad).find("eigenfit.ratios"), std::string::npos) << load_error(bad);

  bad = good;
  bad.eigenfit.modes.col(1) *= 2.0;
  EXPECT_NE(load_error(bad).find("not orthonormal"), std::string::npos) << load_error(bad);

  bad = good;
  bad.eigenfit.coarse_eigenvalues(0) = 0.0;
  EXPECT_NE(load_error(bad).find("eigenfit.coarse_eigenvalues"), std::string::npos);

  // More modes than reduced coordinates (s > 12m).
  bad = good;
  const int r = good.reduced_size();
  bad.eigenfit.modes = Eigen::MatrixXd::Zero(r, r + 1);
  bad.eigenfit.ratios = Eigen::VectorXd::Ones(r + 1);
  bad.eigenfit.coarse_eigenvalues = Eigen::VectorXd::Ones(r + 1);
  bad.eigenfit.fine_eigenvalues = Eigen::VectorXd::Ones(r + 1);
  const auto problem = check_eigenfit(bad.eigenfit, bad.mass_block);
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->section, "eigenfit.modes");
  EXPECT_NE(problem->problem.find("more than the 12m"), std::string::npos) << problem->problem;
}

}  // namespace
}  // namespace smfem::sim
