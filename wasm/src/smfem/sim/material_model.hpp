#pragma once
// The hyperelastic material of a simulation, chosen at run time, in the two forms the solvers
// need (energies/*.hpp): stretch form for the mixed solver's stretch DOFs (s as in
// polar/stretch_vector.hpp, derivatives by the six stored components) and F form for the FEM
// baseline (9 x 9 Hessians on column-major vec(F)). All per unit rest volume.
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include <Eigen/Core>

#include "smfem/energies/lame.hpp"
#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/types.hpp"

namespace smfem::sim {

enum class MaterialModel { arap, fixed_corotational, stable_neo_hookean };

// The one list of the models (the page's urlState.js names the same, tested).
inline constexpr std::array<MaterialModel, 3> kMaterialModels = {
    MaterialModel::arap, MaterialModel::fixed_corotational, MaterialModel::stable_neo_hookean};

// Each model has two names, both from one table (material_model.cpp): its name in the stepper's
// settings, assets and JS API ("arap", "fixed_corotational", "stable_neo_hookean") and its short
// name in scene recipes ("arap", "fcr", "snh").
std::string_view material_model_name(MaterialModel model);
std::string_view material_model_recipe_name(MaterialModel model);
std::optional<MaterialModel> material_model_from_name(std::string_view name);
std::optional<MaterialModel> material_model_from_recipe_name(std::string_view name);
// The names for a message: "\"arap\", \"fixed_corotational\" or \"stable_neo_hookean\"", and the
// recipe names the same way.
std::string material_model_choices();
std::string material_model_recipe_choices();

using Lame = energies::LameParameters<double>;

double psi(MaterialModel model, const Vector6<double>& s, const Lame& lame);
Vector6<double> dpsi_ds(MaterialModel model, const Vector6<double>& s, const Lame& lame);
// d2psi/ds2 (6 x 6) as it is.
Matrix6<double> d2psi_ds2(MaterialModel model, const Vector6<double>& s, const Lame& lame);
// The positive semi-definite part of d2psi/ds2. Where the Hessian is already positive
// definite (a Cholesky factorization succeeds, the common case) it is its own PSD part and is
// returned as is, skipping the eigensystem of the projection.
Matrix6<double> d2psi_ds2_psd(MaterialModel model, const Vector6<double>& s, const Lame& lame);

// The PSD part of d2psi/dF2 (9 x 9, column-major vec(F)), from F's signed SVD.
Matrix9<double> d2psi_dF2_psd(MaterialModel model, const polar::SignedSvd<double>& svd,
                              const Lame& lame);

}  // namespace smfem::sim
