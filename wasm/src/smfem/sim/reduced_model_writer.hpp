#pragma once
// Writes a ReducedModel as an asset with exactly the sections reduced_model.hpp reads, so that
// load_reduced_model(write) round-trips bit for bit (render positions are stored as f32: round
// them first for an exact round trip). For procedural models (box_model.hpp); the bake tool has
// its own writer for baked scenes.
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/sim/reduced_model.hpp"

namespace smfem::sim {

// meta is {"format": "smfem-asset", "kind": "scene", "generator": "smfem reduced model
// writer"} with `meta_extra` merged in (e.g. "solver", "materials"), and "forces" with the
// model's scene loads (springs written as kind "pull").
std::vector<std::uint8_t> reduced_model_asset_bytes(const ReducedModel& model,
                                                    const nlohmann::json& meta_extra = {});

}  // namespace smfem::sim
