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
// box's top halfway to the next vertex above (so rounding decides nothing).
Json lowest_points_box(const mesh::Vertices& vertices, double fraction) {
  const auto height = vertices.col(1);
  const double bottom = height.minCoeff();
  const double span = height.maxCoeff() - bottom;
  const double below = bottom + fraction * span;
  double next = std::numeric_limits<double>::infinity();
  for (Eigen::Index v = 0; v < height.size(); ++v) {
    if (height(v) > below) next = std::min(next, height(v));
  }
  const double top = std::isfinite(next) ? 0.5 * (below + next) : below + span;
  const double floor = bottom - span - 1.0;
  const Eigen::Vector3d low = vertices.colwise().minCoeff().transpose();
  const Eigen::Vector3d high = vertices.colwise().maxCoeff().transpose();
  const Eigen::Vector3d middle = 0.5 * (low + high);
  const Eigen::Vector3d half = 0.5 * (high - low) + Eigen::Vector3d::Constant(span + 1.0);
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

}  // namespace

BakeRecipe bake_recipe(const std::filesystem::path& input_file, const BakeSettings& settings,
                       const BakeInput& input) {
  if (settings.youngs_per_tet) return {std::nullopt, "--youngs-per-tet has no recipe form"};
  if (settings.region_materials) return {std::nullopt, "--region-materials has no recipe form"};
  if (settings.pin_file) return {std::nullopt, "--pin-file has no recipe form"};
  const int painted = static_cast<int>(settings.paint.size());
  // The materials that were not painted on, by region (painted ones come last, in order).
  const auto region_of = [&](int region) -> const MaterialInfo* {
    for (const MaterialInfo& material : input.materials) {
      if (material.region == region) return &material;
    }
    return nullptr;
  };
  const auto painted_material = [&](int k) -> const MaterialInfo* {
    const std::string name = "painted " + std::to_string(k + 1);
    for (const MaterialInfo& material : input.materials) {
      if (material.name == name) return &material;
    }
    return nullptr;
  };

  Json recipe;
  Json materials = Json::array();
  for (int k = painted - 1; k >= 0; --k) {
    const PaintedSphere& paint = settings.paint[static_cast<std::size_t>(k)];
    const MaterialInfo* material = painted_material(k);
    if (material == nullptr) {
      // Painted over whole by later spheres: it holds no tet, and a recipe refuses that.
      return {std::nullopt, "--paint " + std::to_string(k + 1) +
                                " is painted over whole by later spheres; a recipe's material "
                                "must hold a tet"};
    }
    Json entry = material_json(*material);
    entry["where"] = sphere(paint.center, paint.radius);
    materials.push_back(entry);
  }
  if (input.kind == "recipe") {
    std::ifstream file(input_file);
    recipe = Json::parse(file);
    for (std::size_t m = 0; m < recipe.at("materials").size(); ++m) {
      const MaterialInfo* material = region_of(static_cast<int>(m));
      if (material == nullptr) {
        return {std::nullopt, "the recipe's material " + std::to_string(m + 1) +
                                  " is painted over whole; a recipe's material must hold a tet"};
      }
      Json entry = recipe.at("materials")[m];
      entry.update(material_json(*material));
      materials.push_back(entry);
    }
  } else {
    std::set<int> regions;
    for (const MaterialInfo& material : input.materials) {
      if (material.name.rfind("painted ", 0) != 0) regions.insert(material.region);
    }
    if (regions.size() > 1) {
      return {std::nullopt, input.source + " has " + std::to_string(regions.size()) +
                                " regions; a recipe gives a tet mesh its own materials instead"};
    }
    // The mesh's one material, unless painted over whole (then the last painted one takes the
    // rest: no tet is left for it, which a recipe allows only of the last material).
    if (!regions.empty()) materials.push_back(material_json(*region_of(*regions.begin())));
    // The asset's solver settings name the material model as the stepper does; a recipe by
    // its short name.
    Json solver = input.scene.at("solver");
    solver["material_model"] = sim::material_model_recipe_name(
        *sim::material_model_from_name(solver.at("material_model").get<std::string>()));
    recipe = {{"name", input_file.stem().string().substr(0, 80)},
              {"geometry", {{"mesh", input_file.filename().string()}}},
              {"solver", solver}};
    if (input.kind == "surface mesh") {
      recipe["resolution"] = {{"target_tets", settings.target_tets.value_or(kDefaultTargetTets)}};
    }
    if (regions.empty()) materials.back().erase("where");
  }
  recipe["materials"] = materials;
  recipe["description"] = input.scene.at("description").get<std::string>().substr(0, 400);
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
