#include "smfem/sim/material_model.hpp"

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include "smfem/energies/fixed_corotational.hpp"
#include "smfem/energies/stable_neo_hookean.hpp"
#include "smfem/polar/polar.hpp"

namespace smfem::sim {
namespace {

TEST(MaterialModel, NamesRoundTrip) {
  for (MaterialModel model : kMaterialModels) {
    EXPECT_EQ(material_model_from_name(material_model_name(model)), model);
    EXPECT_EQ(material_model_from_recipe_name(material_model_recipe_name(model)), model);
  }
  EXPECT_EQ(material_model_name(MaterialModel::fixed_corotational), "fixed_corotational");
  EXPECT_EQ(material_model_recipe_name(MaterialModel::fixed_corotational), "fcr");
  EXPECT_EQ(material_model_recipe_name(MaterialModel::stable_neo_hookean), "snh");
  // The two kinds of name are not interchangeable: a recipe says "fcr", the stepper
  // "fixed_corotational".
  EXPECT_FALSE(material_model_from_name("fcr").has_value());
  EXPECT_FALSE(material_model_from_recipe_name("fixed_corotational").has_value());
  EXPECT_FALSE(material_model_from_name("rubber").has_value());
  EXPECT_EQ(material_model_choices(), "\"arap\", \"fixed_corotational\" or \"stable_neo_hookean\"");
  EXPECT_EQ(material_model_recipe_choices(), "\"arap\", \"fcr\" or \"snh\"");
}

// d2psi_ds2_psd skips the eigensystem where the Hessian is positive definite; it must agree
// with the projection everywhere, definite or not.
TEST(MaterialModel, PsdStretchHessianEqualsTheProjection) {
  const Lame lame = energies::lame_from_young_poisson(1e6, 0.45);
  Eigen::Matrix3d F;
  int definite = 0, indefinite = 0;
  for (int sample = 0; sample < 60; ++sample) {
    F = Eigen::Matrix3d::Identity() + (0.02 * sample) * Eigen::Matrix3d::Random();
    if (sample % 3 == 0) F.col(0) *= 0.3;   // strongly compressed
    if (sample % 7 == 0) F.col(1) *= -1.0;  // inverted
    const Vector6<double> s = polar::symmetric_stretch(F);
    for (MaterialModel model :
         {MaterialModel::fixed_corotational, MaterialModel::stable_neo_hookean}) {
      const Matrix6<double> projected =
          model == MaterialModel::fixed_corotational
              ? energies::fixed_corotational::d2psi_ds2_projected(s, lame)
              : energies::stable_neo_hookean::d2psi_ds2_projected(s, lame);
      const Matrix6<double> fast = d2psi_ds2_psd(model, s, lame);
      EXPECT_LT((fast - projected).norm(), 1e-8 * projected.norm()) << "sample " << sample;
      const double smallest = Eigen::SelfAdjointEigenSolver<Matrix6<double>>(
                                  model == MaterialModel::fixed_corotational
                                      ? energies::fixed_corotational::d2psi_ds2(s, lame)
                                      : energies::stable_neo_hookean::d2psi_ds2(s, lame))
                                  .eigenvalues()(0);
      (smallest > 0 ? definite : indefinite) += 1;
    }
  }
  EXPECT_GT(definite, 0);
  EXPECT_GT(indefinite, 0);  // both branches exercised
}

}  // namespace
}  // namespace smfem::sim
