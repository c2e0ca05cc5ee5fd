#pragma once
// The one writer of the sections the stepper reads (reduced_model.hpp lists them): the bake
// (precompute/src/smfem/bake/asset_sections.hpp) and the procedural models (box_model.hpp,
// smfem-bench --write-asset, the tests) both go through add_reduced_model, so that
// load_reduced_model(write(model)) round-trips bit for bit (render positions and contact
// weights are stored as f32: round them first for an exact round trip).
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/asset/asset_writer.hpp"
#include "smfem/sim/model/reduced_model.hpp"

namespace smfem::sim {

// Adds, in this order: subspace.* (eigenvalues, mass_block, mass_vector, first_moment,
// total_mass, rest_centroid), cubature.* (y, weights, youngs, poisson, region, tets),
// force.<i>.* (mass_vector; mass_block and rest_offset for spring loads), render.positions and
// render.weights (when the model has render weights), the contact group (when not empty) and the
// eigenfit group (when not empty). No metadata: the loads' parameters, "solver" and "materials"
// are meta's (set_meta; the caller owns it). Throws asset::AssetError from the writer for
// values it refuses (non-finite, shapes that do not match).
void add_reduced_model(asset::AssetWriter& writer, const ReducedModel& model);

// The meta "forces" entries of the model's loads, in order (springs written as kind "pull").
nlohmann::json scene_loads_meta(const std::vector<SceneLoad>& loads);

// A whole asset of the model: meta {"format": "smfem-asset", "kind": "scene", "generator":
// "smfem reduced model writer"} with `meta_extra` merged in (e.g. "solver", "materials") and
// "forces" (scene_loads_meta) when the model has loads, then add_reduced_model.
std::vector<std::uint8_t> reduced_model_asset_bytes(const ReducedModel& model,
                                                    const nlohmann::json& meta_extra = {});

}  // namespace smfem::sim
