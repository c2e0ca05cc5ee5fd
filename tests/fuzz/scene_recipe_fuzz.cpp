// Scene recipe parsing on arbitrary bytes: every input must give a recipe or a SceneError,
// never a crash, a hang or any other exception. Parsed shapes are evaluated at a few points
// so that their compiled programs run too.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "smfem/scene/load_recipe.hpp"
#include "smfem/scene/scene_error.hpp"

namespace {

// A folder with one small closed surface, so {"mesh": "tet.obj"} nodes can load.
const std::filesystem::path& recipe_folder() {
  static const std::filesystem::path folder = [] {
    const auto dir = std::filesystem::temp_directory_path() / "smfem-fuzz-scene-recipe";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "tet.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                                      "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
    return dir;
  }();
  return folder;
}

void probe(const smfem::geometry::Sdf& sdf) {
  const Eigen::Vector3d points[] = {Eigen::Vector3d::Zero(), Eigen::Vector3d(0.3, -0.2, 0.1),
                                    Eigen::Vector3d(10, 10, 10)};
  for (const auto& p : points) static_cast<void>(sdf(p));
  static_cast<void>(sdf.bounds());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const smfem::scene::SceneRecipe recipe = smfem::scene::parse_scene_recipe(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json", recipe_folder());
    if (recipe.geometry.sdf) probe(*recipe.geometry.sdf);
    for (const auto& material : recipe.materials) {
      if (material.where) probe(*material.where);
    }
    for (const auto& pin : recipe.pins) probe(pin);
    for (const auto& force : recipe.forces) probe(force.where);
  } catch (const smfem::scene::SceneError&) {
    // The expected outcome for bad input.
  }
  return 0;
}
