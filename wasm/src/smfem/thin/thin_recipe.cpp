#include "smfem/thin/thin_recipe.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/asset/asset_error.hpp"
#include "smfem/json/json_text.hpp"
#include "smfem/mesh/read_mesh.hpp"
#include "smfem/multibody/scene_file.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/solver_settings.hpp"
#include "smfem/thin/combined_body.hpp"
#include "smfem/thin/detail/body_checks.hpp"
#include "smfem/thin/rod.hpp"
#include "smfem/thin/shell.hpp"
#include "smfem/thin/thin_contact.hpp"
#include "smfem/thin/volume.hpp"

namespace smfem::thin {
namespace {

using nlohmann::json;

// Grids and polylines beyond these sizes are refused rather than allocated (an absurd recipe
// should not exhaust the page's memory): 1000 x 1000 vertices, a million rod points.
constexpr std::int64_t kMaxGridSide = 1000;
constexpr std::int64_t kMaxRodPoints = 1'000'000;

class RecipeReader {
 public:
  explicit RecipeReader(std::string source) : source_(std::move(source)) {}
  const std::string& source() const { return source_; }

  // where: the key at fault; empty for the whole text (the source names it).
  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw std::invalid_argument(source_ + ": " + (where.empty() ? "" : where + ": ") + problem);
  }

  void require_keys(const json& object, const std::string& where,
                    std::initializer_list<std::string_view> keys) const {
    if (!object.is_object()) fail(where, "must be an object");
    for (const auto& [key, value] : object.items()) {
      if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
      std::string known;
      for (const std::string_view k : keys) known += (known.empty() ? "" : ", ") + std::string(k);
      fail(where, "unknown key \"" + key + "\" (it takes " + known + ")");
    }
  }

  double number(const json& object, const std::string& where, const char* key,
                double fallback) const {
    const auto it = object.find(key);
    if (it == object.end()) return fallback;
    if (!it->is_number() || !std::isfinite(it->get<double>())) {
      fail(where + "." + key, "must be a finite number");
    }
    return it->get<double>();
  }

  double positive(const json& object, const std::string& where, const char* key) const {
    if (!object.contains(key)) fail(where, std::string("needs \"") + key + "\"");
    const double value = number(object, where, key, 0.0);
    if (!(value > 0.0)) fail(where + "." + key, "must be positive");
    return value;
  }

  // A thickness or radius: positive, and no longer than a scene's coordinates may be.
  double length(const json& object, const std::string& where, const char* key,
                double fallback) const {
    const double value = number(object, where, key, fallback);
    if (!(value > 0.0 && value <= contact::kMaxCoordinate)) {
      fail(where + "." + key,
           "must be positive and at most " + std::to_string(int(contact::kMaxCoordinate)) + " m");
    }
    return value;
  }

  std::int64_t integer(const json& value, const std::string& where, std::int64_t low,
                       std::int64_t high) const {
    if (!value.is_number_integer()) fail(where, "must be an integer");
    const auto n = value.get<std::int64_t>();
    if (n < low || n > high) {
      fail(where, "must be in [" + std::to_string(low) + ", " + std::to_string(high) + "]");
    }
    return n;
  }

  Eigen::RowVector3d point(const json& object, const std::string& where, const char* key) const {
    const auto it = object.find(key);
    if (it == object.end()) return Eigen::RowVector3d::Zero();
    return position(*it, where + "." + key);
  }

  Eigen::RowVector3d position(const json& value, const std::string& where) const {
    if (!value.is_array() || value.size() != 3) fail(where, "must be [x, y, z]");
    Eigen::RowVector3d p;
    for (int d = 0; d < 3; ++d) {
      if (!value[d].is_number() || !std::isfinite(value[d].get<double>())) {
        fail(where, "must be three finite numbers");
      }
      p(d) = value[d].get<double>();
    }
    return p;
  }

  bool flag(const json& object, const std::string& where, const char* key, bool fallback) const {
    const auto it = object.find(key);
    if (it == object.end()) return fallback;
    if (!it->is_boolean()) fail(where + "." + key, "must be true or false");
    return it->get<bool>();
  }

  // "pins": a named set (`named` gives its ids, or an empty optional for an unknown name; `names`
  // lists them, empty if there are none) or a list of vertex ids (make_shell and make_rods check
  // their range).
  template <class Named>
  std::vector<int> pins(const json& object, const std::string& where, const std::string& names,
                        Named&& named) const {
    const auto it = object.find("pins");
    if (it == object.end()) return {};
    const std::string expected =
        "must be " + (names.empty() ? std::string() : names + " or ") + "a list of vertex ids";
    if (it->is_string()) {
      if (auto ids = named(it->get<std::string>())) return *ids;
      fail(where + ".pins", expected);
    }
    if (!it->is_array()) fail(where + ".pins", expected);
    std::vector<int> ids;
    for (std::size_t i = 0; i < it->size(); ++i) {
      ids.push_back(static_cast<int>(
          integer((*it)[i], where + ".pins[" + std::to_string(i) + "]", 0, kMaxRodPoints)));
    }
    return ids;
  }

 private:
  std::string source_;
};

// A mesh file (`parse`: mesh::parse_surface_mesh or parse_tet_mesh), scaled by "scale" (default
// 1) and, given "center", moved so that its bounding box is centred there.
template <class Parse>
auto read_recipe_mesh(const RecipeReader& r, const json& body, const std::string& where,
                      const RecipeFiles& files, Parse&& parse) {
  if (!body["mesh"].is_string()) r.fail(where + ".mesh", "must be a file name");
  const std::string name = body["mesh"].get<std::string>();
  const auto file = files.find(name);
  if (file == files.end()) r.fail(where + ".mesh", "the file \"" + name + "\" was not given");
  decltype(parse(file->second, name)) read;
  try {
    read = parse(file->second, name);
  } catch (const std::exception& error) {
    r.fail(where + ".mesh", error.what());
  }
  if (body.contains("scale")) read.vertices *= r.positive(body, where, "scale");
  if (body.contains("center")) {
    const Eigen::RowVector3d middle =
        0.5 * (read.vertices.colwise().maxCoeff() + read.vertices.colwise().minCoeff());
    read.vertices.rowwise() += r.point(body, where, "center") - middle;
  }
  return read;
}

mesh::SurfaceMesh read_recipe_surface(const RecipeReader& r, const json& body,
                                      const std::string& where, const RecipeFiles& files) {
  return read_recipe_mesh(r, body, where, files,
                          [](std::string_view content, const std::string& name) {
                            return mesh::parse_surface_mesh(content, name);
                          });
}

mesh::TetMesh read_recipe_tets(const RecipeReader& r, const json& body, const std::string& where,
                               const RecipeFiles& files) {
  return read_recipe_mesh(r, body, where, files,
                          [](std::string_view content, const std::string& name) {
                            return mesh::parse_tet_mesh(content, name);
                          });
}

// The shape's keys: a mesh's or a generated shape's, never both.
void require_one_shape(const RecipeReader& r, const json& body, const std::string& where,
                       std::initializer_list<const char*> generated) {
  for (const char* key : generated) {
    if (body.contains("mesh") && body.contains(key)) {
      r.fail(where, std::string("\"mesh\" and \"") + key + "\" exclude each other");
    }
  }
  if (body.contains("scale") && !body.contains("mesh")) {
    r.fail(where + ".scale", "scales a \"mesh\" only");
  }
}

ThinBody read_shell(const RecipeReader& r, const json& shell, const std::string& where,
                    const RecipeFiles& files) {
  r.require_keys(shell, where,
                 {"grid", "size", "mesh", "scale", "center", "thickness", "youngs", "poisson",
                  "density", "bending", "pins"});
  require_one_shape(r, shell, where, {"grid", "size"});
  ShellMesh mesh;
  int nx = 0, ny = 0;
  if (shell.contains("mesh")) {
    mesh::SurfaceMesh surface = read_recipe_surface(r, shell, where, files);
    mesh.positions = std::move(surface.vertices);
    mesh.triangles = std::move(surface.triangles);
  } else {
    if (!shell.contains("grid")) r.fail(where, "needs \"grid\": [nx, ny] or \"mesh\"");
    if (!shell["grid"].is_array() || shell["grid"].size() != 2) {
      r.fail(where + ".grid", "must be [nx, ny]");
    }
    nx = static_cast<int>(r.integer(shell["grid"][0], where + ".grid[0]", 2, kMaxGridSide));
    ny = static_cast<int>(r.integer(shell["grid"][1], where + ".grid[1]", 2, kMaxGridSide));
    if (!shell.contains("size") || !shell["size"].is_array() || shell["size"].size() != 2) {
      r.fail(where, "needs \"size\": [width, height] in metres");
    }
    const json size = {{"width", shell["size"][0]}, {"height", shell["size"][1]}};
    mesh = shell_grid(nx, ny, r.positive(size, where + ".size", "width"),
                      r.positive(size, where + ".size", "height"));
    mesh.positions.rowwise() += r.point(shell, where, "center");
  }

  const ShellMaterial defaults;
  ShellMaterial material;
  material.thickness = r.length(shell, where, "thickness", defaults.thickness);
  material.youngs = r.number(shell, where, "youngs", defaults.youngs);
  material.poisson = r.number(shell, where, "poisson", defaults.poisson);
  material.density = r.number(shell, where, "density", defaults.density);
  material.bending = r.flag(shell, where, "bending", defaults.bending);
  const bool grid = nx > 0;
  const std::vector<int> pins =
      r.pins(shell, where, grid ? "\"corners\"" : "", [&](const std::string& name) {
        return grid && name == "corners"
                   ? std::optional(std::vector<int>{0, nx - 1, nx * (ny - 1), nx * ny - 1})
                   : std::nullopt;
      });
  try {
    return make_shell(mesh, material, pins);
  } catch (const std::invalid_argument& error) {
    r.fail(where, error.what());
  }
}

ThinBody read_rod(const RecipeReader& r, const json& rod, const std::string& where,
                  const RecipeFiles& files) {
  r.require_keys(rod, where,
                 {"points", "length", "start", "mesh", "scale", "center", "radius", "youngs",
                  "poisson", "density", "bending", "pins"});
  require_one_shape(r, rod, where, {"points", "length", "start"});
  if (rod.contains("center") && !rod.contains("mesh")) {
    r.fail(where + ".center",
           "places a \"mesh\"; a line of \"points\": N starts at \"start\", a list of points is "
           "where it says");
  }
  Positions points;
  Segments segments;
  if (rod.contains("mesh") && rod["mesh"].is_string() &&
      mesh::is_tet_mesh_file(rod["mesh"].get<std::string>())) {
    // Every edge of the tets, inside too, as paper 002's rods bunny.
    mesh::TetMesh tets = read_recipe_tets(r, rod, where, files);
    points = std::move(tets.vertices);
    segments = mesh_edges(tets.tets);
  } else if (rod.contains("mesh")) {
    mesh::SurfaceMesh surface = read_recipe_surface(r, rod, where, files);
    points = std::move(surface.vertices);
    segments = mesh_edges(surface.triangles);
  } else if (rod.contains("points") && rod["points"].is_array()) {
    // The polyline through the listed points, curved or not.
    for (const char* key : {"length", "start"}) {
      if (rod.contains(key)) {
        r.fail(where + "." + key,
               "places a straight line of \"points\": N; a list of points is where it says");
      }
    }
    const json& list = rod["points"];
    if (list.size() < 2 || list.size() > static_cast<std::size_t>(kMaxRodPoints)) {
      r.fail(where + ".points",
             "must list 2 to " + std::to_string(kMaxRodPoints) + " points [x, y, z]");
    }
    points.resize(static_cast<Eigen::Index>(list.size()), 3);
    for (std::size_t i = 0; i < list.size(); ++i) {
      points.row(static_cast<Eigen::Index>(i)) =
          r.position(list[i], where + ".points[" + std::to_string(i) + "]");
    }
    segments = polyline_segments(static_cast<int>(points.rows()));
  } else {
    if (!rod.contains("points")) r.fail(where, "needs \"points\" or \"mesh\"");
    if (!rod["points"].is_number_integer()) {
      r.fail(where + ".points", "must be a count of points or a list of [x, y, z]");
    }
    const auto n = static_cast<int>(r.integer(rod["points"], where + ".points", 2, kMaxRodPoints));
    points = rod_line(n, r.positive(rod, where, "length"));
    points.rowwise() += r.point(rod, where, "start");
    segments = polyline_segments(n);
  }
  const auto n = static_cast<int>(points.rows());

  const RodMaterial defaults;
  RodMaterial material;
  material.radius = r.length(rod, where, "radius", defaults.radius);
  material.youngs = r.number(rod, where, "youngs", defaults.youngs);
  material.poisson = r.number(rod, where, "poisson", defaults.poisson);
  material.density = r.number(rod, where, "density", defaults.density);
  // A mesh's edges bend only when asked: paper 002's rods bunny has no bending, and welded
  // joints (bending.hpp) make a net of them far stiffer.
  material.bending = r.flag(rod, where, "bending", defaults.bending && !rod.contains("mesh"));
  const bool line = !rod.contains("mesh");
  const std::vector<int> pins =
      r.pins(rod, where, line ? "\"first\", \"ends\"" : "", [&](const std::string& name) {
        if (line && name == "first") return std::optional(std::vector<int>{0});
        if (line && name == "ends") return std::optional(std::vector<int>{0, n - 1});
        return std::optional<std::vector<int>>();
      });
  try {
    return make_rods(points, segments, material, pins);
  } catch (const std::invalid_argument& error) {
    r.fail(where, error.what());
  }
}

ThinBody read_volume(const RecipeReader& r, const json& volume, const std::string& where,
                     const RecipeFiles& files) {
  r.require_keys(volume, where,
                 {"mesh", "scale", "center", "youngs", "poisson", "density", "pins"});
  if (!volume.contains("mesh")) r.fail(where, "needs \"mesh\": a tet mesh file (.mesh, .msh)");
  const mesh::TetMesh tets = read_recipe_tets(r, volume, where, files);
  const VolumeMaterial defaults;
  VolumeMaterial material;
  material.youngs = r.number(volume, where, "youngs", defaults.youngs);
  material.poisson = r.number(volume, where, "poisson", defaults.poisson);
  material.density = r.number(volume, where, "density", defaults.density);
  const std::vector<int> pins = r.pins(
      volume, where, "", [](const std::string&) { return std::optional<std::vector<int>>(); });
  try {
    return make_volume(tets.vertices, tets.tets, material, pins);
  } catch (const std::invalid_argument& error) {
    r.fail(where, error.what());
  }
}

// The kinds of body a recipe names, each read by its own reader.
constexpr std::array<const char*, 3> kBodyKinds = {"shell", "rod", "volume"};

ThinBody read_body(const RecipeReader& r, const json& body, const std::string& where,
                   const char* kind, const RecipeFiles& files) {
  const std::string at = where.empty() ? kind : where + "." + kind;
  const json& spec = body[kind];
  if (std::string_view(kind) == "shell") return read_shell(r, spec, at, files);
  if (std::string_view(kind) == "rod") return read_rod(r, spec, at, files);
  return read_volume(r, spec, at, files);
}

// "parts": [{"shell" | "rod" | "volume": {...}}, ...], combined into one body; `parts` says
// where each is in it.
ThinBody read_parts(const RecipeReader& r, const json& bodies, const RecipeFiles& files,
                    std::vector<ThinRecipe::Part>& parts) {
  if (!bodies.is_array() || bodies.empty()) {
    r.fail("parts", "must be a list of bodies, each {\"shell\" | \"rod\" | \"volume\": {...}}");
  }
  std::vector<ThinBody> read;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const std::string where = "parts[" + std::to_string(i) + "]";
    r.require_keys(bodies[i], where, {"shell", "rod", "volume"});
    if (bodies[i].size() != 1)
      r.fail(where, "needs exactly one of \"shell\", \"rod\" and \"volume\"");
    const char* kind = bodies[i].contains("shell") ? "shell"
                       : bodies[i].contains("rod") ? "rod"
                                                   : "volume";
    read.push_back(read_body(r, bodies[i], where, kind, files));
    const int first = parts.empty() ? 0 : parts.back().first_element + parts.back().elements;
    parts.push_back({kind, first, read.back().model.element_count(), read.back().vertex_count});
  }
  return combine_bodies(read);
}

void read_contact(const RecipeReader& r, const json& recipe, ThinRecipe& out) {
  out.contact = default_contact_parameters(out.body, out.body.model.defaults.timestep);
  out.contact.friction = multibody::read_friction(recipe, "", r.source(), 0.0);
  if (recipe.contains("obstacles")) {
    const json& obstacles = recipe["obstacles"];
    if (!obstacles.is_array()) r.fail("obstacles", "must be an array");
    for (std::size_t i = 0; i < obstacles.size(); ++i) {
      const std::string where = "obstacles[" + std::to_string(i) + "]";
      // read_obstacle names the source and the key.
      out.obstacles.push_back(multibody::read_obstacle(obstacles[i], where + ".", r.source()));
    }
  }
  if (recipe.contains("contact")) {
    const json& contact = recipe["contact"];
    r.require_keys(contact, "contact", {"activation_distance", "stiffness"});
    out.contact.activation =
        r.number(contact, "contact", "activation_distance", out.contact.activation);
    out.contact.stiffness = r.number(contact, "contact", "stiffness", out.contact.stiffness);
    // The stiffness at most the stiffest material's modulus, as a scene file's.
    if (!(out.contact.activation > 0.0) ||
        !(out.contact.stiffness > 0.0 && out.contact.stiffness <= sim::kMaxYoungs)) {
      r.fail("contact", "activation_distance must be positive, stiffness positive and at most " +
                            smfem::json::format_number(sim::kMaxYoungs) + " Pa");
    }
  }
}

bool pins_every_vertex(const ThinBody& body) {
  std::vector<char> pinned(static_cast<std::size_t>(body.vertex_count), 0);
  for (const int node : body.model.pinned) {
    if (node < body.vertex_count) pinned[static_cast<std::size_t>(node)] = 1;
  }
  return std::find(pinned.begin(), pinned.end(), 0) == pinned.end();
}

// The recipe's solver settings within the stepper's ranges (sim/solver_limits.json), refused
// outside them as a body recipe's are. Clamped, a timestep of 0 ran at 1e-5 s while the contact
// stiffness made from it (mass over area over h^2) was infinite, and every step failed.
void require_solver_ranges(const RecipeReader& reader, const sim::SolverSettings& settings) {
  const std::pair<const char*, std::string> problems[] = {
      {"solver.timestep",
       sim::outside_limits(settings.timestep, sim::kMinTimestep, sim::kMaxTimestep, "s")},
      {"solver.iterations",
       sim::outside_whole_limits(settings.iterations, sim::kMinIterations, sim::kMaxIterations)},
      {"solver.gravity", sim::gravity_outside_limits(settings.gravity)}};
  for (const auto& [key, problem] : problems) {
    if (!problem.empty()) reader.fail(key, problem);
  }
}

json parse_recipe(const RecipeReader& reader, const std::string& text) {
  try {
    return smfem::json::parse_json_text(text);
  } catch (const smfem::json::JsonTextError& error) {
    reader.fail("", error.what());
  }
}

}  // namespace

std::vector<std::string> thin_recipe_files(const std::string& text, const std::string& source) {
  const json recipe = parse_recipe(RecipeReader(source), text);
  std::vector<std::string> names;
  // The recipe's body, or each of its "parts".
  std::vector<const json*> bodies = {&recipe};
  const auto list = recipe.is_object() ? recipe.find("parts") : recipe.end();
  if (list != recipe.end() && list->is_array()) {
    for (const json& body : *list) bodies.push_back(&body);
  }
  for (const json* body : bodies) {
    for (const char* kind : kBodyKinds) {
      if (!body->is_object() || !body->contains(kind) || !(*body)[kind].is_object()) continue;
      const json& spec = (*body)[kind];
      const auto mesh = spec.find("mesh");
      if (mesh != spec.end() && mesh->is_string() &&
          std::find(names.begin(), names.end(), mesh->get<std::string>()) == names.end()) {
        names.push_back(mesh->get<std::string>());
      }
    }
  }
  return names;
}

ThinRecipe read_thin_recipe(const std::string& text, const std::string& source,
                            const RecipeFiles& files) {
  const RecipeReader reader(source);
  const json recipe = parse_recipe(reader, text);
  reader.require_keys(recipe, "recipe",
                      {"name", "description", "shell", "rod", "parts", "solver", "camera",
                       "obstacles", "contact", "friction"});
  const int kinds = static_cast<int>(recipe.contains("shell")) +
                    static_cast<int>(recipe.contains("rod")) +
                    static_cast<int>(recipe.contains("parts"));
  if (kinds != 1) reader.fail("", "needs exactly one of \"shell\", \"rod\" and \"parts\"");
  ThinRecipe out;
  if (recipe.contains("name") && !recipe["name"].is_string())
    reader.fail("name", "must be a string");
  if (recipe.contains("description") && !recipe["description"].is_string()) {
    reader.fail("description", "must be a string");
  }
  out.name = recipe.value("name", source);
  out.description = recipe.value("description", "");
  if (recipe.contains("camera")) {
    // The page frames the view from these (web/src/render/framing.js: framedCamera).
    reader.require_keys(recipe["camera"], "camera", {"position", "target"});
    out.camera = recipe["camera"];
  }
  std::string pins_key = "parts";
  if (recipe.contains("parts")) {
    out.body = read_parts(reader, recipe["parts"], files, out.parts);
  } else {
    const std::string kind = recipe.contains("shell") ? "shell" : "rod";
    out.body = read_body(reader, recipe, "", kind.c_str(), files);
    out.parts = {{kind, 0, out.body.model.element_count(), out.body.vertex_count}};
    pins_key = kind + ".pins";
  }
  // Said here, in the recipe's terms: the simulator would refuse it as pinning "every node" (a
  // rod's directors are nodes too, pinned with a segment pinned at both ends).
  if (pins_every_vertex(out.body)) {
    reader.fail(pins_key, "pins every one of its " + std::to_string(out.body.vertex_count) +
                              " vertices: nothing can move");
  }
  try {
    out.body.model.defaults =
        sim::read_solver_defaults(recipe, source, thin_body_defaults(), sim::SolverSource::recipe);
  } catch (const asset::AssetError& error) {
    // The reader names an asset's section ("meta"); a recipe's key is enough here.
    throw std::invalid_argument(source + ": " + error.problem());
  }
  require_solver_ranges(reader, out.body.model.defaults);
  out.body.model.source = source;
  read_contact(reader, recipe, out);
  return out;
}

}  // namespace smfem::thin
