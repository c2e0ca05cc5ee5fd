#include "smfem/scene/load_recipe.hpp"

#include <fstream>
#include <limits>
#include <set>
#include <vector>

#include "smfem/geometry/primitives.hpp"
#include "smfem/json/json_text.hpp"
#include "smfem/scene/detail/geometry_node.hpp"
#include "smfem/scene/detail/json_reader.hpp"
#include "smfem/scene/scene_error.hpp"
#include "smfem/sim/solver_settings.hpp"

namespace smfem::scene {
namespace {

using detail::Json;
using detail::ObjectReader;
using detail::Place;

// Physical ranges: wide enough for every scene of the paper, narrow enough to catch a slipped
// exponent. The solver's own (moduli, Poisson's ratio, iterations, time step) are the
// stepper's (sim/solver_settings.hpp): a recipe cannot ask for what the stepper would clamp. The
// subspace's (modes, cubature) are solver_limits.json's too, which smfem-bake and the page keep.
constexpr double kMinPositive = std::numeric_limits<double>::min();
constexpr double kMaxDensity = 1e5;
constexpr double kMaxStiffness = 1e12;

Json parse_json(std::string_view text, const std::string& file) {
  Json root;
  try {
    root = smfem::json::parse_json_text(text);
  } catch (const smfem::json::JsonTextError& error) {
    throw SceneError(file, "", error.what());
  }
  if (!root.is_object()) {
    throw SceneError(file, "", "a recipe must be a JSON object, got " + detail::describe(root));
  }
  return root;
}

Resolution read_resolution(const Json& value, const Place& place) {
  const ObjectReader r(value, place, {"edge_length", "target_tets"});
  if (r.has("edge_length") == r.has("target_tets")) {
    place.fail("give exactly one of \"edge_length\" and \"target_tets\"");
  }
  Resolution resolution;
  if (const Json* v = r.optional("edge_length")) {
    resolution.edge_length = detail::read_length(*v, r / "edge_length");
  }
  if (const Json* v = r.optional("target_tets")) {
    resolution.target_tets =
        detail::read_integer_in(*v, r / "target_tets", 10, static_cast<int>(kMaxTets));
  }
  return resolution;
}

std::vector<Material> read_materials(const Json& value, const Place& place,
                                     const std::filesystem::path& folder) {
  const Json& array = detail::read_array(value, place, 1);
  std::vector<Material> materials;
  std::set<std::string> names;
  for (std::size_t i = 0; i < array.size(); ++i) {
    const Place at = place / i;
    const ObjectReader r(array[i], at, {"name", "youngs", "poisson", "density", "where"});
    Material m;
    m.name = detail::read_string(r.required("name"), r / "name", 64);
    if (!names.insert(m.name).second) (r / "name").fail("repeats the name \"" + m.name + "\"");
    m.youngs = detail::read_within_limits(r.required("youngs"), r / "youngs", sim::kMinYoungs,
                                          sim::kMaxYoungs, "Pa");
    m.poisson = detail::read_within_limits(r.required("poisson"), r / "poisson", sim::kMinPoisson,
                                           sim::kMaxPoisson);
    m.density =
        detail::read_positive(r.required("density"), r / "density", kMinPositive, kMaxDensity);
    if (const Json* v = r.optional("where")) {
      m.where = detail::read_geometry_node(*v, r / "where", folder);
    } else if (i + 1 < array.size()) {
      at.fail(
          "only the last material may omit \"where\" (it takes every tet no earlier "
          "material claims; materials after it could never apply)");
    }
    materials.push_back(std::move(m));
  }
  return materials;
}

std::vector<geometry::Sdf> read_pins(const Json& value, const Place& place,
                                     const std::filesystem::path& folder) {
  const Json& array = detail::read_array(value, place, 0);
  std::vector<geometry::Sdf> pins;
  for (std::size_t i = 0; i < array.size(); ++i) {
    const ObjectReader r(array[i], place / i, {"where"});
    pins.push_back(detail::read_geometry_node(r.required("where"), r / "where", folder));
  }
  return pins;
}

std::optional<double> read_release(const ObjectReader& r) {
  if (const Json* v = r.optional("release")) {
    return detail::read_number_in(*v, r / "release", 0.0, 1e4, false, false);
  }
  return std::nullopt;
}

Force read_force(const Json& value, const Place& place, const std::filesystem::path& folder) {
  if (!value.is_object() || value.size() != 1) {
    place.fail("must be an object with one key naming the force (periodic, twist, pull), got " +
               detail::describe(value));
  }
  const std::string kind = value.items().begin().key();
  const Json& body = value.items().begin().value();
  const Place at = place / kind;
  if (kind == "periodic") {
    const ObjectReader r(body, at, {"where", "amplitude", "frequency", "direction"});
    PeriodicForce f{
        detail::read_number_in(r.required("amplitude"), r / "amplitude", 0, 1e4, false, false),
        detail::read_number_in(r.required("frequency"), r / "frequency", 0, 1e3, true, false),
        detail::read_direction(r.required("direction"), r / "direction")};
    return {detail::read_geometry_node(r.required("where"), r / "where", folder), f};
  }
  if (kind == "twist") {
    const ObjectReader r(body, at,
                         {"where", "center", "axis", "angle_deg", "stiffness", "release"});
    TwistForce f{
        detail::read_vector3(r.required("center"), r / "center", detail::kMaxCoordinate),
        detail::read_direction(r.required("axis"), r / "axis"),
        detail::read_number_in(r.required("angle_deg"), r / "angle_deg", -3600, 3600, false, false),
        detail::read_positive(r.required("stiffness"), r / "stiffness", kMinPositive,
                              kMaxStiffness),
        read_release(r)};
    return {detail::read_geometry_node(r.required("where"), r / "where", folder), f};
  }
  if (kind == "pull") {
    const ObjectReader r(body, at, {"where", "offset", "stiffness", "release"});
    PullForce f{detail::read_vector3(r.required("offset"), r / "offset", detail::kMaxCoordinate),
                detail::read_positive(r.required("stiffness"), r / "stiffness", kMinPositive,
                                      kMaxStiffness),
                read_release(r)};
    return {detail::read_geometry_node(r.required("where"), r / "where", folder), f};
  }
  at.fail("unknown force (expected one of: periodic, twist, pull)");
}

SubspaceSettings read_subspace(const Json& value, const Place& place) {
  const ObjectReader r(value, place, {"modes", "cubature", "cubature_method"});
  SubspaceSettings s{detail::read_whole_within_limits(r.required("modes"), r / "modes",
                                                      sim::kMinModes, sim::kMaxModes),
                     detail::read_whole_within_limits(r.required("cubature"), r / "cubature",
                                                      sim::kMinCubature, sim::kMaxCubature)};
  if (const Json* v = r.optional("cubature_method")) {
    const auto method =
        cubature::cubature_method_from_name(detail::read_string(*v, r / "cubature_method", 16));
    if (!method) {
      (r / "cubature_method")
          .fail("must be " + cubature::cubature_method_choices() + ", got " + detail::describe(*v));
    }
    s.cubature_method = *method;
  }
  return s;
}

SolverSettings read_solver(const Json& value, const Place& place) {
  const ObjectReader r(value, place,
                       {"method", "iterations", "timestep", "gravity", "material_model"});
  SolverSettings s;
  const std::string method = detail::read_string(r.required("method"), r / "method", 16);
  const std::optional<sim::SolverMethod> solver = sim::solver_method_from_name(method);
  if (!solver) {
    (r / "method")
        .fail("must be \"mfem\" or \"fem\", got " + detail::describe(r.required("method")));
  }
  s.method = *solver;
  s.iterations = detail::read_whole_within_limits(r.required("iterations"), r / "iterations",
                                                  sim::kMinIterations, sim::kMaxIterations);
  s.timestep = detail::read_within_limits(r.required("timestep"), r / "timestep", sim::kMinTimestep,
                                          sim::kMaxTimestep, "s");
  // Each component within the length's bound first: the length of [1e308, 1e308, 0] is not finite.
  s.gravity = detail::read_vector3(r.required("gravity"), r / "gravity", sim::kMaxGravity);
  if (const std::string problem = sim::gravity_outside_limits(s.gravity); !problem.empty()) {
    (r / "gravity").fail(problem);
  }
  const std::string model =
      detail::read_string(r.required("material_model"), r / "material_model", 64);
  const std::optional<sim::MaterialModel> material = sim::material_model_from_recipe_name(model);
  if (!material) {
    (r / "material_model")
        .fail("must be " + sim::material_model_recipe_choices() + ", got " +
              detail::describe(r.required("material_model")));
  }
  s.material_model = *material;
  return s;
}

Camera read_camera(const Json& value, const Place& place) {
  const ObjectReader r(value, place, {"position", "target"});
  Camera c{detail::read_vector3(r.required("position"), r / "position", detail::kMaxCoordinate),
           detail::read_vector3(r.required("target"), r / "target", detail::kMaxCoordinate)};
  if (c.position == c.target) (r / "target").fail("must differ from the camera position");
  return c;
}

RenderSettings read_render(const Json& value, const Place& place,
                           const std::filesystem::path& folder) {
  const ObjectReader r(value, place, {"edge_length", "mesh", "exact"});
  if (int{r.has("edge_length")} + int{r.has("mesh")} + int{r.has("exact")} != 1)
    place.fail("give exactly one of \"edge_length\", \"mesh\" and \"exact\"");
  RenderSettings render;
  if (const Json* v = r.optional("exact")) {
    if (!v->is_boolean()) (r / "exact").fail("must be true or false, got " + detail::describe(*v));
    render.exact = v->get<bool>();
  }
  if (const Json* v = r.optional("edge_length")) {
    render.edge_length = detail::read_length(*v, r / "edge_length");
  }
  if (const Json* v = r.optional("mesh")) {
    const std::filesystem::path path = detail::resolve_mesh_path(*v, r / "mesh", folder);
    render.surface = detail::read_surface(path, r / "mesh");
  }
  return render;
}

}  // namespace

SceneRecipe parse_scene_recipe(std::string_view text, const std::string& file,
                               const std::filesystem::path& folder) {
  const Json root = parse_json(text, file);
  std::vector<std::string> read_notes;
  const Place top(file, "", &read_notes);
  // A shell's or a rod's recipe is stepped in full space from its own text, never baked.
  for (const char* thin : {"shell", "rod", "parts"}) {
    if (root.is_object() && root.contains(thin)) {
      (top / thin).fail("a shell's or a rod's recipe is not baked: run it with npx smfem simulate");
    }
  }
  // A misspelt "rod" reads as a volume's recipe: the error says where the thin kinds are.
  const ObjectReader r(root, top,
                       {"name", "description", "geometry", "resolution", "fit_resolution",
                        "materials", "pins", "forces", "subspace", "solver", "camera", "render"},
                       "a shell's or a rod's recipe (npx smfem simulate) has \"shell\", \"rod\" "
                       "or \"parts\" instead of \"geometry\"");
  SceneRecipe recipe;
  recipe.file = file;
  recipe.name = detail::read_string(r.required("name"), r / "name", 80);
  recipe.description = detail::read_string(r.required("description"), r / "description", 400);
  recipe.geometry = detail::read_scene_geometry(r.required("geometry"), r / "geometry", folder);
  if (recipe.geometry.tet_mesh) {
    if (r.has("resolution")) {
      (r / "resolution").fail("a tet mesh is used as it is; remove the resolution");
    }
  } else {
    recipe.resolution = read_resolution(r.required("resolution"), r / "resolution");
  }
  if (const Json* v = r.optional("fit_resolution")) {
    if (recipe.geometry.tet_mesh) {
      (r / "fit_resolution")
          .fail("a tet mesh is used as it is; give the fine mesh to smfem-bake --eigenfit");
    }
    recipe.fit_resolution = read_resolution(*v, r / "fit_resolution");
  }
  recipe.materials = read_materials(r.required("materials"), r / "materials", folder);
  if (const Json* v = r.optional("pins")) recipe.pins = read_pins(*v, r / "pins", folder);
  if (const Json* v = r.optional("forces")) {
    const Json& forces = detail::read_array(*v, r / "forces", 0);
    for (std::size_t i = 0; i < forces.size(); ++i) {
      recipe.forces.push_back(read_force(forces[i], r / "forces" / i, folder));
    }
  }
  recipe.subspace = read_subspace(r.required("subspace"), r / "subspace");
  recipe.solver = read_solver(r.required("solver"), r / "solver");
  if (const Json* v = r.optional("camera")) recipe.camera = read_camera(*v, r / "camera");
  if (const Json* v = r.optional("render")) {
    recipe.render = read_render(*v, r / "render", folder);
    if (recipe.render.edge_length && !recipe.geometry.sdf) {
      (r / "render" / "edge_length")
          .fail("a finer stuffing needs a shape, not a tet mesh; give \"mesh\"");
    }
    // A surface mesh file is drawn with its own triangles, transformed or not.
    if (recipe.geometry.surface && (recipe.render.surface || recipe.render.edge_length)) {
      (r / "render" / (recipe.render.surface ? "mesh" : "edge_length"))
          .fail("the geometry's surface mesh already is the render surface");
    }
    if (recipe.render.exact.value_or(false) &&
        (!recipe.geometry.sdf || recipe.geometry.surface ||
         !geometry::union_primitives(*recipe.geometry.sdf))) {
      (r / "render" / "exact")
          .fail(
              "the geometry is not a union of boxes, cylinders, capsules "
              "and ellipsoids, so it has no exact surface to draw");
    }
  }
  recipe.read_notes = std::move(read_notes);
  return recipe;
}

SceneRecipe load_scene_recipe(const std::filesystem::path& file) {
  const std::string name = file.string();
  std::ifstream in(file, std::ios::binary);
  if (!in) throw SceneError(name, "", "cannot open the recipe file");
  std::string text;
  char buffer[65536];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxRecipeBytes) {
      throw SceneError(name, "",
                       "the recipe is larger than " + std::to_string(kMaxRecipeBytes) +
                           " bytes; is it the right file?");
    }
  }
  const std::filesystem::path folder = file.has_parent_path() ? file.parent_path() : ".";
  return parse_scene_recipe(text, name, folder);
}

}  // namespace smfem::scene
