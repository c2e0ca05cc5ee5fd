#include "smfem/bake/bake_recipe.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>

#include "smfem/cubature/cubature_method.hpp"
#include "smfem/sim/material_model.hpp"

namespace smfem::bake {
namespace {

using Json = nlohmann::json;

Json point(const Eigen::Vector3d& p) { return Json::array({p.x(), p.y(), p.z()}); }

Json sphere(const Eigen::Vector3d& center, double radius) {
  return {{"sphere", {{"center", point(center)}, {"radius", radius}}}};
}

// --pin-lowest F as a box: every vertex at most F of the height above the lowest one, with the
// box's top halfway to the next vertex above (so rounding decides nothing), reaching one body
// size beyond the body on the other sides.
Json lowest_points_box(const mesh::Vertices& vertices, double fraction) {
  const auto height = vertices.col(1);
  const double bottom = height.minCoeff();
  const double span = height.maxCoeff() - bottom;
  const double below = bottom + fraction * span;
  double next = std::numeric_limits<double>::infinity();
  for (Eigen::Index v = 0; v < height.size(); ++v) {
    if (height(v) > below) next = std::min(next, height(v));
  }
  const Eigen::Vector3d low = vertices.colwise().minCoeff().transpose();
  const Eigen::Vector3d high = vertices.colwise().maxCoeff().transpose();
  const double size = std::max((high - low).maxCoeff(), 1e-6);
  const double top = std::isfinite(next) ? 0.5 * (below + next) : below + size;
  const double floor = bottom - size;
  const Eigen::Vector3d middle = 0.5 * (low + high);
  const Eigen::Vector3d half = 0.5 * (high - low) + Eigen::Vector3d::Constant(size);
  return {{"box",
           {{"center", point({middle.x(), 0.5 * (floor + top), middle.z()})},
            {"half_extents", point({half.x(), 0.5 * (top - floor), half.z()})}}}};
}

Json material_json(const MaterialInfo& material) {
  return {{"name", material.name},
          {"youngs", material.youngs},
          {"poisson", material.poisson},
          {"density", material.density}};
}

// At most `bytes` bytes of UTF-8 text, cut between characters.
std::string utf8_prefix(const std::string& text, std::size_t bytes) {
  if (text.size() <= bytes) return text;
  std::size_t end = bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

}  // namespace

BakeRecipe bake_recipe(const std::filesystem::path& input_file, const BakeSettings& settings,
                       const BakeInput& input) {
  for (const auto& [set, option] :
       {std::pair{settings.youngs_per_tet.has_value(), "--youngs-per-tet"},
        std::pair{settings.region_materials.has_value(), "--region-materials"},
        std::pair{settings.pin_file.has_value(), "--pin-file"},
        std::pair{settings.eigenfit.has_value(), "--eigenfit"}}) {
    if (set) return {std::nullopt, std::string(option) + " has no recipe form"};
  }
  const auto material_of = [&](int region) -> const MaterialInfo* {
    for (const MaterialInfo& material : input.materials) {
      if (material.region == region) return &material;
    }
    return nullptr;
  };

  Json recipe;
  Json materials = Json::array();
  // The painted spheres, the latest first; one painted over whole has no tet left: left out.
  for (std::size_t k = input.painted_regions.size(); k-- > 0;) {
    const MaterialInfo* material = material_of(input.painted_regions[k]);
    if (material == nullptr) continue;
    Json entry = material_json(*material);
    entry["where"] = sphere(settings.paint[k].center, settings.paint[k].radius);
    materials.push_back(entry);
  }
  if (input.kind == "recipe") {
    std::ifstream file(input_file);
    recipe = Json::parse(file);
    for (std::size_t m = 0; m < recipe.at("materials").size(); ++m) {
      const MaterialInfo* material = material_of(static_cast<int>(m));
      if (material == nullptr) continue;  // painted over whole
      Json entry = recipe.at("materials")[m];
      entry.update(material_json(*material));
      materials.push_back(entry);
    }
  } else {
    const std::size_t own = input.materials.size() - materials.size();
    if (own > 1) {
      return {std::nullopt, input.source + " has " + std::to_string(own) +
                                " regions; a recipe gives a tet mesh its own materials instead"};
    }
    if (own == 1) materials.push_back(material_json(input.materials.front()));
    // The asset's solver settings name the material model as the stepper does; a recipe by
    // its short name.
    Json solver = input.scene.at("solver");
    solver["material_model"] = sim::material_model_recipe_name(
        *sim::material_model_from_name(solver.at("material_model").get<std::string>()));
    recipe = {{"name", utf8_prefix(input_file.stem().string(), 80)},
              {"geometry", {{"mesh", input_file.filename().string()}}},
              {"solver", solver}};
    if (input.kind == "surface mesh") {
      recipe["resolution"] = {{"target_tets", settings.target_tets.value_or(kDefaultTargetTets)}};
    }
    if (settings.scale) {
      recipe["geometry"] = {
          {"transform", {{"scale", *settings.scale}, {"of", recipe["geometry"]}}}};
    }
  }
  // Every tet belongs to a material listed, so the last may claim whatever the others leave.
  materials.back().erase("where");
  recipe["materials"] = materials;
  recipe["description"] = utf8_prefix(input.scene.at("description").get<std::string>(), 400);
  Json pins = recipe.value("pins", Json::array());
  for (const PinnedSphere& pin : settings.pin_spheres) {
    pins.push_back({{"where", sphere(pin.center, pin.radius)}});
  }
  if (settings.pin_lowest) {
    pins.push_back({{"where", lowest_points_box(input.mesh.vertices, *settings.pin_lowest)}});
  }
  if (!pins.empty()) recipe["pins"] = pins;
  recipe["subspace"] = {{"modes", input.modes}, {"cubature", input.cubature}};
  if (input.cubature_method != cubature::CubatureMethod::kmeans) {
    recipe["subspace"]["cubature_method"] = cubature::cubature_method_name(input.cubature_method);
  }
  return {recipe, ""};
}

}  // namespace smfem::bake
