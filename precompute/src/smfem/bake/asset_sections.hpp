#pragma once
// Stage 6 of the bake: the asset's sections and metadata (assets/FORMAT.md, "Scene groups").
// Everything the stepper reads (sim/model/reduced_model.hpp, written by sim::add_reduced_model)
// plus what the page's teaching views show (cluster labels, pins, cubature markers).
#include <string>

#include <nlohmann/json.hpp>

#include "smfem/asset/asset_writer.hpp"
#include "smfem/bake/bake_input.hpp"
#include "smfem/bake/run_bake.hpp"
#include "smfem/sim/model/reduced_model.hpp"

namespace smfem::bake {

// The metadata: "format", "kind": "scene", "generator", the scene's settings (name,
// description, solver, camera, forces), "materials" [{name, region, youngs, poisson, density,
// tets}], "subspace" {modes, cubature, constant_modes, components, seed}, "mesh" {vertices,
// tets, pinned, min/max dihedral}, "source" {file, kind}. No timings: a bake repeated with the
// same input and seed gives the same bytes.
nlohmann::json bake_metadata(const BakeInput& input, const BakeResult& result,
                             const BakeSettings& settings);

// What the stepper reads of the bake (sim/model/reduced_model.hpp): the subspace, the cubature, the
// scene's loads, the render surface's positions and weights and the contact surface (sampled
// here, settings.contact_samples and collision_triangles), with the materials and solver
// defaults of the metadata. load_reduced_model of the baked asset gives it back, render
// positions and contact weights rounded to f32. Throws asset::AssetError for a meta "solver"
// the stepper refuses.
sim::ReducedModel baked_model(const BakeInput& input, const BakeResult& result,
                              const BakeSettings& settings);

// A writer holding every section; write_file() it (temporary file, then rename). The stepper's
// sections come from sim::add_reduced_model(baked_model(...)), the one writer they have; the
// rest is what only the page and the tools read: subspace.pinned, cubature.cluster_of_tet, the
// cubature markers, the render surface's triangles, normals, clusters and regions, and mesh.*
// (settings.full_mesh). The EigenFit stage (eigenfit/eigenfit_stage.hpp) adds eigenfit.*.
asset::AssetWriter bake_asset(const BakeInput& input, const BakeResult& result,
                              const BakeSettings& settings);

// Adds the mesh.* group (assets/FORMAT.md): the whole tet mesh, its materials and its skinning
// weights, for the full-space solvers and the stepper's local deformations.
void add_full_mesh(asset::AssetWriter& writer, const BakeInput& input, const BakeResult& result);

}  // namespace smfem::bake
