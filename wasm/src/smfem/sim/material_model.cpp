#include "smfem/sim/material_model.hpp"

#include <Eigen/Cholesky>

#include "smfem/energies/arap.hpp"
#include "smfem/energies/fixed_corotational.hpp"
#include "smfem/energies/stable_neo_hookean.hpp"

namespace smfem::sim {

namespace {

struct ModelNames {
  MaterialModel model;
  std::string_view name;         // the stepper's
  std::string_view recipe_name;  // a scene recipe's
};

// Indexed by the enumerator (checked below).
constexpr std::array<ModelNames, kMaterialModels.size()> kNames = {{
    {MaterialModel::arap, "arap", "arap"},
    {MaterialModel::fixed_corotational, "fixed_corotational", "fcr"},
    {MaterialModel::stable_neo_hookean, "stable_neo_hookean", "snh"},
}};

constexpr bool indexed_by_enumerator() {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (static_cast<std::size_t>(kNames[i].model) != i || kMaterialModels[i] != kNames[i].model)
      return false;
  }
  return true;
}
static_assert(indexed_by_enumerator(), "kNames must list the models in the enumerators' order");

const ModelNames& names_of(MaterialModel model) { return kNames[static_cast<std::size_t>(model)]; }

std::string quoted_list(std::string_view ModelNames::*field) {
  std::string choices;
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (i > 0) choices += i + 1 < kNames.size() ? ", " : " or ";
    choices += '"' + std::string(kNames[i].*field) + '"';
  }
  return choices;
}

std::optional<MaterialModel> find(std::string_view ModelNames::*field, std::string_view name) {
  for (const ModelNames& names : kNames) {
    if (names.*field == name) return names.model;
  }
  return std::nullopt;
}

}  // namespace

std::string_view material_model_name(MaterialModel model) { return names_of(model).name; }

std::string_view material_model_recipe_name(MaterialModel model) {
  return names_of(model).recipe_name;
}

std::optional<MaterialModel> material_model_from_name(std::string_view name) {
  return find(&ModelNames::name, name);
}

std::optional<MaterialModel> material_model_from_recipe_name(std::string_view name) {
  return find(&ModelNames::recipe_name, name);
}

std::string material_model_choices() { return quoted_list(&ModelNames::name); }

std::string material_model_recipe_choices() { return quoted_list(&ModelNames::recipe_name); }

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

Matrix6<double> d2psi_ds2(MaterialModel model, const Vector6<double>& s, const Lame& lame) {
  switch (model) {
    case MaterialModel::arap:
      return energies::arap::d2psi_ds2(s, lame);
    case MaterialModel::fixed_corotational:
      return energies::fixed_corotational::d2psi_ds2(s, lame);
    case MaterialModel::stable_neo_hookean:
      return energies::stable_neo_hookean::d2psi_ds2(s, lame);
  }
  return Matrix6<double>::Zero();
}

Matrix6<double> d2psi_ds2_psd(MaterialModel model, const Vector6<double>& s, const Lame& lame) {
  const Matrix6<double> hessian = d2psi_ds2(model, s, lame);
  // ARAP's is 2 mu D.
  if (model == MaterialModel::arap ||
      Eigen::LLT<Matrix6<double>>(hessian).info() == Eigen::Success) {
    return hessian;
  }
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
