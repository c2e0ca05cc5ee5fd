#include "validation/baked_model.hpp"

#include "smfem/asset/asset.hpp"
#include "smfem/bake/asset_sections.hpp"
#include "smfem/bake/bake_input.hpp"
#include "smfem/bake/run_bake.hpp"
#include "support/test_paths.hpp"
#include "support/text_file.hpp"

namespace smfem::test {
namespace {

bake::BakeInput load_input(const std::string& name, const nlohmann::json& recipe,
                           const bake::BakeSettings& settings,
                           const std::vector<std::filesystem::path>& files = {}) {
  const auto dir = scratch_dir(name);
  for (const auto& file : files) std::filesystem::copy_file(file, dir / file.filename());
  const auto path = dir / (name + ".json");
  write_text(path, recipe.dump(2));
  return bake::load_bake_input(path, settings);
}

}  // namespace

sim::ReducedModel bake_recipe(const std::string& name, const nlohmann::json& recipe) {
  const bake::BakeSettings settings;
  const bake::BakeInput input = load_input(name, recipe, settings);
  const bake::BakeResult result = bake::run_bake(input, settings);
  return sim::load_reduced_model(
      asset::Asset::from_bytes(bake::bake_asset(input, result, settings).to_bytes(), name));
}

BakedWithMesh bake_recipe_with_mesh(const std::string& name, const nlohmann::json& recipe,
                                    const std::vector<std::filesystem::path>& files,
                                    std::optional<int> contact_samples) {
  bake::BakeSettings settings;
  settings.full_mesh = true;
  if (contact_samples) {
    settings.contact_samples = *contact_samples;
    settings.collision_triangles = 0;
  }
  const bake::BakeInput input = load_input(name, recipe, settings, files);
  const bake::BakeResult result = bake::run_bake(input, settings);
  const asset::Asset asset =
      asset::Asset::from_bytes(bake::bake_asset(input, result, settings).to_bytes(), name);
  return {sim::load_reduced_model(asset), full::load_full_model(asset)};
}

}  // namespace smfem::test
