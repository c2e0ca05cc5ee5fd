#include "smfem/bake/bake_input.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "smfem/bake/bake_error.hpp"
#include "smfem/bake/input_files.hpp"
#include "smfem/bake/stage_clock.hpp"
#include "smfem/geometry/error.hpp"
#include "smfem/geometry/triangle_mesh_sdf.hpp"
#include "smfem/mesh/read_mesh.hpp"
#include "smfem/mesh/unused_vertices.hpp"
#include "smfem/scene/load_recipe.hpp"
#include "smfem/scene/metadata.hpp"
#include "smfem/sim/material_model.hpp"
#include "smfem/sim/solver_settings.hpp"

namespace smfem::bake {
namespace {

// A mesh baked without a recipe: the stepper's own defaults (sim::SolverSettings{}, their one
// owner) as the asset's; its description is written once the settings are known
// (mesh_description).
nlohmann::json default_scene_json(const std::string& name) {
  const sim::SolverSettings defaults;
  return {{"name", name},
          {"solver",
           {{"method", sim::solver_method_name(defaults.method)},
            {"iterations", defaults.iterations},
            {"timestep", defaults.timestep},
            {"gravity", {defaults.gravity.x(), defaults.gravity.y(), defaults.gravity.z()}},
            {"material_model", sim::material_model_name(defaults.material_model)}}}};
}

// How a recipe scales its meshes (smfem-bake's --scale is for mesh files).
constexpr const char* kHowRecipesScale =
    "a recipe scales its mesh with a transform ({\"transform\": {\"scale\": S, \"of\": "
    "{\"mesh\": ...}}})";

// The sides of the mesh's bounding box, m.
Eigen::Vector3d extent(const mesh::TetMesh& mesh) {
  return mesh.vertices.colwise().maxCoeff() - mesh.vertices.colwise().minCoeff();
}

void add_warnings(const std::vector<std::string>& warnings, BakeInput& input) {
  input.warnings.insert(input.warnings.end(), warnings.begin(), warnings.end());
}

// --max-triangles: a surface that would become the render surface, refused before it is
// tetrahedralized.
void check_triangles(const std::filesystem::path& file, const mesh::SurfaceMesh& surface,
                     const BakeSettings& settings) {
  const Eigen::Index triangles = surface.triangles.rows();
  if (settings.max_triangles && triangles > *settings.max_triangles) {
    throw BakeInputError(file.string() + ": " + std::to_string(triangles) +
                         " triangles, more than the " + std::to_string(*settings.max_triangles) +
                         " this bake takes (--max-triangles); simplify the surface first (a "
                         "decimating tool such as Blender's Decimate modifier), or bake it with "
                         "the native smfem-bake");
  }
}

void load_recipe(const std::filesystem::path& file, const BakeSettings& settings, BakeInput& input,
                 int& recipe_modes, int& recipe_cubature) {
  const bool at_fit_resolution = settings.at_fit_resolution;
  if (settings.scale) {
    throw BakeInputError(std::string("--scale applies to mesh files; ") + kHowRecipesScale);
  }
  auto start = Clock::now();
  scene::SceneRecipe recipe = scene::load_scene_recipe(file);
  if (recipe.geometry.surface) check_triangles(file, *recipe.geometry.surface, settings);
  input.fit_resolution = recipe.fit_resolution.has_value();
  if (at_fit_resolution) {
    if (!recipe.fit_resolution) {
      throw BakeInputError(file.string() + ": has no fit_resolution to fit the bake to");
    }
    recipe.resolution = *recipe.fit_resolution;
  }
  input.read_seconds = seconds_since(start);
  start = Clock::now();
  scene::SceneMesh built = scene::build_scene(recipe);
  input.tetrahedralize_seconds = seconds_since(start);
  for (std::vector<std::string>* notes : {&recipe.read_notes, &built.read_notes}) {
    add_warnings(*notes, input);
  }

  input.kind = "recipe";
  input.scene = scene::scene_metadata(recipe, built);
  input.scene.erase("materials");  // rewritten with regions and overrides applied
  input.scene.erase("subspace");   // rewritten with the values actually baked
  for (std::size_t m = 0; m < recipe.materials.size(); ++m) {
    const scene::Material& material = recipe.materials[m];
    input.materials.push_back(
        {material.name, static_cast<int>(m), material.youngs, material.poisson, material.density});
  }
  input.mesh = std::move(built.mesh);
  input.pinned = std::move(built.pinned);
  input.forces = std::move(built.forces);
  input.render_surface = std::move(built.render_surface);
  input.quality = built.quality;
  recipe_modes = recipe.subspace.modes;
  recipe_cubature = recipe.subspace.cubature;
  input.cubature_method = recipe.subspace.cubature_method;
}

std::vector<int> load_tet_mesh(const std::filesystem::path& file, const BakeSettings& settings,
                               BakeInput& input) {
  const auto start = Clock::now();
  input.kind = "tet mesh";
  mesh::ReadReport report;
  input.mesh = mesh::read_tet_mesh(file, &report);
  add_warnings(mesh::report_warnings(file, report), input);
  if (settings.scale) input.mesh.vertices *= *settings.scale;
  const std::vector<int> new_index = mesh::drop_unused_vertices(input.mesh);
  std::map<int, Eigen::Index> region_tets;
  for (Eigen::Index t = 0; t < input.mesh.regions.size(); ++t) ++region_tets[input.mesh.regions(t)];
  for (const auto& [region, count] : region_tets) {
    if (region < 0) {
      throw BakeInputError(file.string() + ": region " + std::to_string(region) + " of " +
                           std::to_string(count) + " tets is negative; regions must be >= 0");
    }
    input.materials.push_back({"region " + std::to_string(region), region, kDefaultYoungs,
                               kDefaultPoisson, kDefaultDensity});
  }
  input.render_surface = render::boundary_render_surface(input.mesh);
  input.quality = tetrahedralize::measure_quality(input.mesh);
  input.scene = default_scene_json(file.filename().string());
  input.read_seconds = seconds_since(start);
  return new_index;
}

void load_surface_mesh(const std::filesystem::path& file, const BakeSettings& settings,
                       BakeInput& input) {
  auto start = Clock::now();
  input.kind = "surface mesh";
  scene::SceneRecipe recipe;
  recipe.file = file.string();
  recipe.name = file.filename().string();
  mesh::ReadReport report;
  recipe.geometry.surface = mesh::read_surface_mesh(file, &report);
  add_warnings(mesh::report_warnings(file, report), input);
  if (settings.scale) recipe.geometry.surface->vertices *= *settings.scale;
  check_triangles(file, *recipe.geometry.surface, settings);
  try {
    recipe.geometry.sdf = geometry::triangle_mesh(std::make_shared<const geometry::TriangleMeshSdf>(
        recipe.geometry.surface->vertices, recipe.geometry.surface->triangles));
  } catch (const geometry::GeometryError& error) {
    throw BakeInputError(file.string() + ": " + error.what());
  }
  input.read_seconds = seconds_since(start);

  start = Clock::now();
  recipe.resolution.target_tets = settings.target_tets.value_or(kDefaultTargetTets);
  recipe.materials.push_back({"body", kDefaultYoungs, kDefaultPoisson, kDefaultDensity, {}});
  recipe.subspace = {kDefaultModes, 1};
  scene::SceneMesh built = scene::build_scene(recipe);
  input.tetrahedralize_seconds = seconds_since(start);
  input.materials.push_back({"body", 0, kDefaultYoungs, kDefaultPoisson, kDefaultDensity});
  input.mesh = std::move(built.mesh);
  input.render_surface = std::move(built.render_surface);
  input.quality = built.quality;
  input.scene = default_scene_json(recipe.name);
}

void apply_region_materials(const std::filesystem::path& file, BakeInput& input) {
  for (const RegionMaterial& line : read_region_materials(file)) {
    const auto found = std::find_if(input.materials.begin(), input.materials.end(),
                                    [&](const MaterialInfo& m) { return m.region == line.region; });
    if (found == input.materials.end()) {
      throw BakeInputError(file.string() + ": region " + std::to_string(line.region) +
                           " has no tet in " + input.source);
    }
    *found = {line.name, line.region, line.youngs, line.poisson, line.density};
  }
}

// --paint: each sphere's tets (by centroid) become a new material region (bake_input.hpp).
void apply_paint(const std::vector<PaintedSphere>& spheres, BakeInput& input) {
  const mesh::TetMesh& mesh = input.mesh;
  int next_region = 0;
  for (const MaterialInfo& material : input.materials) {
    next_region = std::max(next_region, material.region + 1);
  }
  // "painted N" with N past any such name the input already has (a recipe saved from a bake
  // that painted keeps its painted materials' names).
  int first_number = 1;
  for (const MaterialInfo& material : input.materials) {
    if (material.name.rfind("painted ", 0) == 0) {
      first_number = std::max(first_number, std::atoi(material.name.c_str() + 8) + 1);
    }
  }
  for (std::size_t k = 0; k < spheres.size(); ++k) {
    const PaintedSphere& sphere = spheres[k];
    const std::string name = "painted " + std::to_string(first_number + static_cast<int>(k));
    const MaterialInfo* under = nullptr;
    for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
      Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
      for (int c = 0; c < 4; ++c) centroid += mesh.vertices.row(mesh.tets(t, c)).transpose();
      if ((0.25 * centroid - sphere.center).norm() > sphere.radius) continue;
      if (under == nullptr) {
        for (const MaterialInfo& material : input.materials) {
          if (material.region == mesh.regions(t)) under = &material;
        }
      }
      input.mesh.regions(t) = next_region;
    }
    if (under == nullptr) {
      throw BakeInputError("--paint " + std::to_string(k + 1) +
                           ": its sphere holds no tet's centroid (it misses the body, or is "
                           "smaller than its tets)");
    }
    input.materials.push_back({name, next_region, sphere.youngs, under->poisson, under->density});
    input.painted_regions.push_back(next_region);
    ++next_region;
  }
  // A material every tet of which was painted over is gone.
  std::erase_if(input.materials, [&](const MaterialInfo& material) {
    return (input.mesh.regions.array() != material.region).all();
  });
}

// A body so large, or so small, that its numbers are likely not in the units they are read as
// (bake_input.hpp: kLargestLikelySize, kSmallestLikelySize), and what to do; nothing otherwise.
std::optional<std::string> size_warning(const BakeInput& input, const BakeSettings& settings) {
  const double size = extent(input.mesh).maxCoeff();
  const bool recipe = input.kind == "recipe";
  if (size > kLargestLikelySize) {
    return input.source + ": the body is " + std::to_string(std::lround(size)) +
           " m across (a file's coordinates are read as metres): if they are millimetres, " +
           (recipe ? std::string("scale by 0.001, centimetres by 0.01: ") + kHowRecipesScale
                   : std::string("bake it with --scale 0.001, centimetres with --scale 0.01"));
  }
  if (size < kSmallestLikelySize) {
    std::ostringstream text;
    text << input.source << ": the body is " << std::setprecision(2) << 1e3 * size << " mm across ";
    if (settings.scale) {
      text << "(the file's coordinates times --scale " << std::setprecision(6) << *settings.scale
           << "): if they are metres already, bake it without --scale";
      return text.str();
    }
    text << "(a file's coordinates are read as metres): if that is not its size, ";
    return text.str() + (recipe
                             ? std::string(kHowRecipesScale)
                             : std::string("bake it with --scale S, S the file's unit in metres"));
  }
  return std::nullopt;
}

// What the page says of a mesh baked without a recipe: what it was baked with, and its size
// (a mesh's numbers are read as metres: one drawn in millimetres is a body 1000 times too large).
std::string mesh_description(const BakeInput& input) {
  const Eigen::Vector3d size = extent(input.mesh);
  std::ostringstream text;
  text << "Baked from " << input.source << " (" << std::setprecision(3) << size.x() << " x "
       << size.y() << " x " << size.z() << " m): " << std::setprecision(6) << input.modes
       << " modes, " << input.cubature << " cubature tets";
  for (const MaterialInfo& material : input.materials) {
    text << ", " << material.name << " E = " << material.youngs << " Pa";
  }
  if (!input.pinned.empty()) text << ", " << input.pinned.size() << " vertices pinned";
  text << ".";
  return text.str();
}

}  // namespace

int modes_carried(const BakeInput& input) {
  const Eigen::Index free =
      input.mesh.vertices.rows() - static_cast<Eigen::Index>(input.pinned.size());
  return static_cast<int>(std::max<Eigen::Index>(free / kFreeVerticesPerMode, 1));
}

BakeInput load_bake_input(const std::filesystem::path& file, const BakeSettings& settings) {
  if (!std::filesystem::is_regular_file(file)) {
    throw BakeInputError(file.string() + ": no such file");
  }
  BakeInput input;
  input.source = file.filename().string();
  int modes = kDefaultModes;
  int cubature = 0;
  std::vector<int> file_to_mesh;  // for pin files on tet meshes with dropped vertices
  std::string extension = file.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".json") {
    load_recipe(file, settings, input, modes, cubature);
  } else if (mesh::is_tet_mesh_file(file)) {
    file_to_mesh = load_tet_mesh(file, settings, input);
  } else if (mesh::is_surface_mesh_file(file)) {
    load_surface_mesh(file, settings, input);
  } else {
    throw BakeInputError(file.string() +
                         ": unknown input type; expected a scene recipe (.json), a tet mesh "
                         "(.mesh .msh .node .ele) or a surface mesh (.obj .stl .off .ply)");
  }
  if (std::optional<std::string> warning = size_warning(input, settings)) {
    input.warnings.push_back(*warning);
  }
  if (settings.target_tets && input.kind != "surface mesh") {
    throw BakeInputError("--target-tets applies to surface meshes only (" + input.source +
                         " is a " + input.kind + ")");
  }

  if (settings.region_materials) apply_region_materials(*settings.region_materials, input);
  for (MaterialInfo& material : input.materials) {
    if (settings.youngs) material.youngs = *settings.youngs;
    if (settings.poisson) material.poisson = *settings.poisson;
    if (settings.density) material.density = *settings.density;
  }
  apply_paint(settings.paint, input);
  const Eigen::Index tets = input.mesh.tets.rows();
  if (settings.max_tets && tets > *settings.max_tets) {
    throw BakeInputError(input.source + ": " + std::to_string(tets) + " tets, more than the " +
                         std::to_string(*settings.max_tets) +
                         " this bake takes (--max-tets); bake a coarser mesh, or bake it with the "
                         "native smfem-bake");
  }
  input.youngs.resize(tets);
  input.poisson.resize(tets);
  input.density.resize(tets);
  std::map<int, const MaterialInfo*> by_region;
  for (const MaterialInfo& material : input.materials) by_region[material.region] = &material;
  for (Eigen::Index t = 0; t < tets; ++t) {
    const MaterialInfo& material = *by_region.at(input.mesh.regions(t));
    input.youngs(t) = material.youngs;
    input.poisson(t) = material.poisson;
    input.density(t) = material.density;
  }
  if (settings.youngs_per_tet) input.youngs = read_youngs_per_tet(*settings.youngs_per_tet, tets);

  if (settings.pin_file) {
    const Eigen::Index numbered = file_to_mesh.empty()
                                      ? input.mesh.vertices.rows()
                                      : static_cast<Eigen::Index>(file_to_mesh.size());
    for (int v : read_pin_file(*settings.pin_file, numbered)) {
      const int mapped = file_to_mesh.empty() ? v : file_to_mesh[static_cast<std::size_t>(v)];
      if (mapped >= 0) input.pinned.push_back(mapped);  // a vertex of no tet never moves anyway
    }
  }
  if (settings.pin_lowest) {
    const auto height = input.mesh.vertices.col(1);
    const double below =
        height.minCoeff() + *settings.pin_lowest * (height.maxCoeff() - height.minCoeff());
    for (Eigen::Index v = 0; v < height.size(); ++v) {
      if (height(v) <= below) input.pinned.push_back(static_cast<int>(v));
    }
  }
  for (std::size_t k = 0; k < settings.pin_spheres.size(); ++k) {
    const PinnedSphere& sphere = settings.pin_spheres[k];
    const std::size_t before = input.pinned.size();
    for (Eigen::Index v = 0; v < input.mesh.vertices.rows(); ++v) {
      if ((input.mesh.vertices.row(v).transpose() - sphere.center).norm() <= sphere.radius) {
        input.pinned.push_back(static_cast<int>(v));
      }
    }
    if (input.pinned.size() == before) {
      throw BakeInputError("--pin " + std::to_string(k + 1) +
                           ": its sphere holds no vertex of the mesh (it misses the body, or is "
                           "smaller than its edges)");
    }
  }
  if (settings.pin_file || settings.pin_lowest || !settings.pin_spheres.empty()) {
    std::sort(input.pinned.begin(), input.pinned.end());
    input.pinned.erase(std::unique(input.pinned.begin(), input.pinned.end()), input.pinned.end());
  }

  if (static_cast<Eigen::Index>(input.pinned.size()) >= input.mesh.vertices.rows()) {
    throw BakeInputError("every vertex of " + input.source +
                         " is pinned: nothing is left to move (pin fewer)");
  }
  input.modes = settings.modes.value_or(modes);
  if (!settings.modes && input.kind != "recipe") {
    // A coarse mesh gets the modes its free vertices carry, not an error whose fix is an
    // option. The reduced mass matrix needs 4 free vertices a mode at the least (run_bake.cpp),
    // and on grids of cubes 4 was often not enough where 5 always was (kFreeVerticesPerMode).
    input.modes = std::min(input.modes, modes_carried(input));
  }
  if (settings.cubature_method) input.cubature_method = *settings.cubature_method;
  if (input.modes < 1) throw BakeInputError("--modes must be at least 1");
  if (settings.cubature) {
    if (*settings.cubature < 1 || *settings.cubature > tets) {
      throw BakeInputError("--cubature " + std::to_string(*settings.cubature) + ": must be in 1.." +
                           std::to_string(tets) + " (the mesh's tet count)");
    }
    input.cubature = *settings.cubature;
  } else {
    input.cubature =
        cubature > 0 ? cubature : static_cast<int>(std::min<Eigen::Index>(20 * input.modes, tets));
  }
  if (settings.cubature_per_region < 0) {
    throw BakeInputError("--cubature-per-region " + std::to_string(settings.cubature_per_region) +
                         ": must be at least 0");
  }
  if (settings.cubature_per_region > 0) {
    std::vector<int> regions(input.mesh.regions.data(),
                             input.mesh.regions.data() + input.mesh.regions.size());
    std::sort(regions.begin(), regions.end());
    const auto count = std::unique(regions.begin(), regions.end()) - regions.begin();
    if (input.cubature < count) {
      throw BakeInputError(
          "cubature |C| = " + std::to_string(input.cubature) + ": the mesh has " +
          std::to_string(count) +
          " material regions and the cubature gives each at least one tet; ask for at "
          "least " +
          std::to_string(count) +
          " (or --cubature-per-region 0, the paper's clustering of the "
          "whole body, which may leave a region unsampled)");
    }
  }
  if (input.kind != "recipe") input.scene["description"] = mesh_description(input);
  return input;
}

}  // namespace smfem::bake
