#include "smfem/study/baked_scene.hpp"

#include <chrono>

#include "smfem/asset/asset.hpp"
#include "smfem/bake/asset_sections.hpp"
#include "smfem/bake/run_bake.hpp"
#include "smfem/eigenfit/eigenfit_stage.hpp"
#include "smfem/subspace/basis.hpp"

namespace smfem::study {

BakedScene bake_scene(const std::filesystem::path& input, bake::BakeSettings settings) {
  const auto started = std::chrono::steady_clock::now();
  settings.full_mesh = true;
  const bake::BakeInput baked_input = bake::load_bake_input(input, settings);
  const bake::BakeResult result = bake::run_bake(baked_input, settings);
  asset::AssetWriter writer = bake::bake_asset(baked_input, result, settings);
  eigenfit::add_eigenfit_stage(writer, input, baked_input, result, settings);
  const asset::Asset asset = asset::Asset::from_bytes(writer.to_bytes(), input.filename().string());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return BakedScene{sim::load_reduced_model(asset), full::load_full_model(asset),
                    subspace::vertex_basis(baked_input.mesh, result.modes.weights), seconds};
}

}  // namespace smfem::study
