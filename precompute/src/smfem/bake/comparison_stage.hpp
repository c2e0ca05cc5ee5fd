#pragma once
// smfem-bake --comparison-basis linear|modal_derivatives: the asset also carries one of the
// comparison subspaces of Subspace MFEM (Trusty et al. 2023), Fig. 5 as a displacement basis with
// its own cubature (wasm/src/smfem/displacement/displacement_model.hpp; assets/FORMAT.md), so that
// `npx smfem simulate --subspace` steps it in wasm through the same FEM and MFEM steps as the
// skinning subspace. Its coordinates match the skinning subspace's 12 m
// (subspace/comparison_bases.hpp), and its cubature has as many tets as the skinning one's.
//
// The cubature follows the bake's --cubature-method. k-means (the default; cubature/cubature.hpp,
// stratified by region and component as the bake's default) clusters on the analogue of the
// skinning weights for a displacement basis: each tet's mean displacement in the leading
// columns (the rigid ones and m more: three features each), with each column's Rayleigh
// quotient phi^T K phi / phi^T M phi in place of gamma, so the low modes weigh most and the
// rigid ones (quotient 0) are dropped, as the constant skinning modes are: tets that move alike
// in the low modes share a representative. NNLS fits the basis's own forces on poses sampled in
// it (cubature/displacement_cubature.hpp: An et al. 2008, who made it for these subspaces).
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "smfem/asset/asset_writer.hpp"
#include "smfem/bake/bake_input.hpp"
#include "smfem/bake/run_bake.hpp"

namespace smfem::bake {

// Adds the displacement.* sections and meta "displacement" (what was built, its sizes and
// times) to the writer, which must hold the whole mesh (settings.full_mesh: smfem-bake
// --comparison-basis sets it; std::logic_error otherwise); returns the same summary. Throws
// std::invalid_argument for what the basis builders refuse.
nlohmann::json add_comparison_basis(asset::AssetWriter& writer, const std::string& basis_name,
                                    const BakeInput& input, const BakeResult& result,
                                    const BakeSettings& settings, const Progress& progress);

}  // namespace smfem::bake
