#pragma once
// Stage 6 of the bake: the asset's sections and metadata (assets/FORMAT.md, "Scene groups").
// Everything the stepper reads (sim/reduced_model.hpp) plus what the page's teaching views
// show (cluster labels, pins) and the forces' reduced terms (reduced_forces.hpp).
#include <string>

#include <nlohmann/json.hpp>

#include "smfem/asset/asset_writer.hpp"
#include "smfem/bake/bake_input.hpp"
#include "smfem/bake/run_bake.hpp"

namespace smfem::bake {

// The metadata: "format", "kind": "scene", "generator", the scene's settings (name,
// description, solver, camera, forces), "materials" [{name, region, youngs, poisson, density,
// tets}], "subspace" {modes, cubature, constant_modes, components, seed}, "mesh" {vertices,
// tets, pinned, min/max dihedral}, "source" {file, kind}. No timings: a bake repeated with the
// same input and seed gives the same bytes.
nlohmann::json bake_metadata(const BakeInput& input, const BakeResult& result,
                             const BakeSettings& settings);

// A writer holding every section; write_file() it (temporary file, then rename).
asset::AssetWriter bake_asset(const BakeInput& input, const BakeResult& result,
                              const BakeSettings& settings);

}  // namespace smfem::bake
