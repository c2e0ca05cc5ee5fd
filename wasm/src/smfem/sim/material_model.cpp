#include "smfem/sim/material_model.hpp"

#include <Eigen/Cholesky>

#include "smfem/energies/arap.hpp"
#include "smfem/energies/fixed_corotational.hpp"
#include "smfem/energies/stable_neo_hookean.hpp"

namespace smfem::sim {

std::string_view material_model_name(MaterialModel model) {
  switch (model) {
    case MaterialModel::arap:
      return "arap";
    case MaterialModel::fixed_corotational:
      return "fixed_corotational";
    case MaterialModel::stable_neo_hookean:
      return "stable_neo_hookean";
  }
  return "?";
}

std::optional<MaterialModel> material_model_from_name(std::string_view name) {
  for (MaterialModel model : kMaterialModels) {
    if (name == material_model_name(model)) return model;
  }
  return std::nullopt;
}

std::string material_model_choices() {
  std::string choices;
  for (std::size_t i = 0; i < kMaterialModels.size(); ++i) {
    if (i > 0) choices += i + 1 < kMaterialModels.size() ? ", " : " or ";
    choices += '"' + std::string(material_model_name(kMaterialModels[i])) + '"';
  }
  return choices;
}

double psi(MaterialModel model, const Vector6<double>& s, const Lame& lame) {
  switch (model) {
    case MaterialModel::arap:
      return energies::arap::psi(s, lame);
    case MaterialModel::fixed_corotational:
      return energies::fixed_corotational::psi(s, lame);
    case MaterialModel::stable_neo_hookean:
      return energies::stable_neo_hookean::psi(s, lame);
  }
  return 0.0;
}

Vector6<double> dpsi_ds(MaterialModel model, const Vector6<double>& s, const Lame& lame) {
  switch (model) {
    case MaterialModel::arap:
      return energies::arap::dpsi_ds(s, lame);
    case MaterialModel::fixed_corotational:
      return energies::fixed_corotational::dpsi_ds(s, lame);
    case MaterialModel::stable_neo_hookean:
      return energies::stable_neo_hookean::dpsi_ds(s, lame);
  }
  return Vector6<double>::Zero();
}

Matrix6<double> d2psi_ds2_psd(MaterialModel model, const Vector6<double>& s, const Lame& lame) {
  Matrix6<double> hessian;
  switch (model) {
    case MaterialModel::arap:
      return energies::arap::d2psi_ds2(s, lame);  // 2 mu D
    case MaterialModel::fixed_corotational:
      hessian = energies::fixed_corotational::d2psi_ds2(s, lame);
      break;
    case MaterialModel::stable_neo_hookean:
      hessian = energies::stable_neo_hookean::d2psi_ds2(s, lame);
      break;
  }
  if (Eigen::LLT<Matrix6<double>>(hessian).info() == Eigen::Success) return hessian;
  switch (model) {
    case MaterialModel::arap:
      break;
    case MaterialModel::fixed_corotational:
      return energies::fixed_corotational::d2psi_ds2_projected(s, lame);
    case MaterialModel::stable_neo_hookean:
      return energies::stable_neo_hookean::d2psi_ds2_projected(s, lame);
  }
  return hessian;
}

Matrix9<double> d2psi_dF2_psd(MaterialModel model, const polar::SignedSvd<double>& svd,
                              const Lame& lame) {
  switch (model) {
    case MaterialModel::arap:
      return energies::arap::d2psi_dF2_projected(svd, lame);
    case MaterialModel::fixed_corotational:
      return energies::fixed_corotational::d2psi_dF2_projected(svd, lame);
    case MaterialModel::stable_neo_hookean:
      return energies::stable_neo_hookean::d2psi_dF2_projected(svd, lame);
  }
  return Matrix9<double>::Zero();
}

}  // namespace smfem::sim
