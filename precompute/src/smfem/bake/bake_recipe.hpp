#pragma once
// The scene recipe (assets/scenes/README.md) that bakes the same model smfem-bake was asked to
// bake from a mesh file, or from a recipe with command-line overrides: what the page's "Save
// recipe" hands the user with their mesh, for the native tool to bake again or to edit.
//
// How each input maps:
//   - a mesh file: {"geometry": {"mesh": its name}} (a surface with its target_tets), one
//     material (its own, with --youngs / --poisson / --density applied), the solver defaults;
//   - a recipe: its own keys, its materials with those overrides applied;
//   - --paint spheres: materials before the others, the latest first (a recipe's tet takes the
//     first material whose region holds its centroid, so a later sphere paints over an earlier
//     one, as --paint does); a material left without a tet (painted over whole) is left out, and
//     the last material listed takes every tet no other claims, as a recipe's last one must;
//   - --pin spheres: pins; --pin-lowest F: a pin box from far below the body to halfway between
//     the height F pins up to and the next vertex above (no vertex on its boundary);
//   - --modes, --cubature, --cubature-method: the subspace.
// The bake's other options (--seed, --cubature-per-region, --contact-samples,
// --collision-triangles, the bounds) are options of the bake, not of the model: the recipe
// leaves them to the command line. Not expressible, with the reason instead: --youngs-per-tet,
// --region-materials, --pin-file, --eigenfit (a recipe's fit_resolution is its own),
// --comparison-basis, and a tet mesh of several regions (a recipe replaces a tet mesh's regions
// by its materials).
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "smfem/bake/bake_input.hpp"

namespace smfem::bake {

struct BakeRecipe {
  std::optional<nlohmann::json> recipe;
  std::string why_not;  // when there is no recipe
};

// input_file: the input as given to load_bake_input (a recipe names its meshes relative to it;
// a mesh file is named by its file name, the recipe being meant for the mesh's folder).
BakeRecipe bake_recipe(const std::filesystem::path& input_file, const BakeSettings& settings,
                       const BakeInput& input);

}  // namespace smfem::bake
