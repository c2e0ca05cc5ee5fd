#pragma once
// Bakes a scene recipe in process (the smfem-bake pipeline: recipe, stuffing, eigenmodes,
// cubature, asset bytes) and reads it back the way the stepper does, so that the validation
// tests run the solver on real skinning subspaces, pins and loads.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/full/full_model.hpp"
#include "smfem/sim/model/reduced_model.hpp"

namespace smfem::test {

sim::ReducedModel bake_recipe(const std::string& name, const nlohmann::json& recipe);

// The same baked with its tet mesh and the mesh's skinning weights (smfem-bake --full-mesh);
// `files` are copied beside the recipe (the meshes it names). contact_samples: as smfem-bake's
// --contact-samples, with the whole boundary as the collision surface; unset: the bake's defaults.
struct BakedWithMesh {
  sim::ReducedModel model;
  full::FullModel mesh;
};
BakedWithMesh bake_recipe_with_mesh(const std::string& name, const nlohmann::json& recipe,
                                    const std::vector<std::filesystem::path>& files = {},
                                    std::optional<int> contact_samples = {});

}  // namespace smfem::test
