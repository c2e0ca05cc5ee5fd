#pragma once
// The recipe's settings as the JSON the baked asset's metadata section carries to the page.
#include <nlohmann/json.hpp>

#include "smfem/scene/build_scene.hpp"
#include "smfem/scene/recipe.hpp"

namespace smfem::scene {

// {"name", "description", "materials": [{"name", "youngs", "poisson", "density", "tets"}],
//  "subspace": {"modes", "cubature"}, "solver": {"method", "iterations", "timestep",
//  "gravity", "material_model"}, "camera": {"position", "target"} (when given),
//  "forces": [{"kind": "periodic"|"twist"|"pull", parameters..., "vertices": count}],
//  "mesh": {"vertices", "tets", "pinned", "min_dihedral_deg", "max_dihedral_deg"}}
nlohmann::json scene_metadata(const SceneRecipe& recipe, const SceneMesh& scene);

}  // namespace smfem::scene
