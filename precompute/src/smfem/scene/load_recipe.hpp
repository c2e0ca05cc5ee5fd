#pragma once
// Reading and validating a scene recipe (format: assets/scenes/README.md). Every problem is a
// SceneError naming the file, the JSON pointer of the offending value and what is wrong;
// unknown keys, wrong types, missing keys, non-finite or absurd numbers and mesh paths that
// leave the recipe's folder or do not exist are all refused. Mesh files named by the recipe
// are read here (their errors are reported at the key naming them).
#include <filesystem>
#include <string>
#include <string_view>

#include "smfem/scene/recipe.hpp"

namespace smfem::scene {

// Recipes larger than this are refused unread (a recipe is a page of hand-written JSON).
inline constexpr std::size_t kMaxRecipeBytes = 1 << 20;
// The most tets a recipe may ask for (directly, or through its edge length).
inline constexpr double kMaxTets = 5e6;

SceneRecipe load_scene_recipe(const std::filesystem::path& file);

// The same from text; `file` names it in messages and mesh paths resolve against `folder`.
SceneRecipe parse_scene_recipe(std::string_view text, const std::string& file,
                               const std::filesystem::path& folder);

}  // namespace smfem::scene
