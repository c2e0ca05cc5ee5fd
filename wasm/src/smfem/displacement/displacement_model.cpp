#include "smfem/displacement/displacement_model.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "smfem/asset/asset_error.hpp"
#include "smfem/sim/model/detail/asset_arrays.hpp"

namespace smfem::displacement {
namespace {

using asset::AssetError;
using asset::DType;
using asset::kAnyExtent;

constexpr const char* kBasis = "displacement.basis";
constexpr const char* kTets = "displacement.cubature_tets";
constexpr const char* kWeights = "displacement.cubature_weights";

}  // namespace

bool has_displacement_basis(const asset::Asset& asset) { return asset.has(kBasis); }

DisplacementModel load_displacement_model(const asset::Asset& asset) {
  DisplacementModel model;
  if (!has_displacement_basis(asset)) {
    throw AssetError::in_section(asset.source_name(), kBasis,
                                 "missing: bake with smfem-bake --comparison-basis "
                                 "linear|modal_derivatives");
  }
  model.mesh = full::load_full_model(asset);
  const std::int64_t rows = 3 * static_cast<std::int64_t>(model.mesh.vertex_count());
  const std::int64_t k = asset.expect(kBasis, DType::f64, {rows, kAnyExtent}).shape[1];
  // More columns than unknowns cannot be independent; refused before a k x k reduced mass is
  // allocated for them.
  if (k < 1 || k > rows) {
    throw AssetError::in_section(
        asset.source_name(), kBasis,
        std::to_string(k) + " columns, expected 1 to " + std::to_string(rows) + " (3 per vertex)");
  }
  model.basis = sim::detail::read_f64_matrix(asset, kBasis, rows, k);
  if (asset.has(kTets) != asset.has(kWeights)) {
    throw AssetError::in_section(
        asset.source_name(), asset.has(kTets) ? kWeights : kTets,
        std::string("missing: it goes with ") + (asset.has(kTets) ? kTets : kWeights));
  }
  if (asset.has(kTets)) {
    const std::int64_t C = asset.expect(kTets, DType::u32, {kAnyExtent}).shape[0];
    Quadrature quadrature;
    for (const std::uint32_t tet : asset.array<std::uint32_t>(kTets)) {
      // Out-of-range ids stay out of range for DisplacementSimulator's check.
      quadrature.tets.push_back(static_cast<int>(std::min<std::uint32_t>(tet, 1u << 30)));
    }
    quadrature.weights = sim::detail::read_f64_vector(asset, kWeights, C);
    model.quadrature = std::move(quadrature);
  }
  const nlohmann::json& meta = asset.meta();
  model.basis_name = "displacement";
  if (meta.contains("displacement") && meta["displacement"].is_object() &&
      meta["displacement"].contains("basis") && meta["displacement"]["basis"].is_string()) {
    model.basis_name = meta["displacement"]["basis"].get<std::string>();
  }
  return model;
}

}  // namespace smfem::displacement
