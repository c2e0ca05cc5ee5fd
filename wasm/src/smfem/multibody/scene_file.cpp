#include "smfem/multibody/scene_file.hpp"

#include <cmath>
#include <initializer_list>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "smfem/json/json_text.hpp"
#include "smfem/sim/solver_settings.hpp"

namespace smfem::multibody {
namespace {

using nlohmann::json;

[[noreturn]] void refuse(const std::string& source, const std::string& key,
                         const std::string& problem) {
  throw std::invalid_argument(source + ": " + key + ": " + problem);
}

// Refuses a key of `object` that is not in `known`, listing the known ones.
void check_keys(const json& object, std::initializer_list<const char*> known,
                const std::string& where, const std::string& source) {
  for (const auto& [key, value] : object.items()) {
    bool found = false;
    for (const char* k : known) found = found || key == k;
    if (found) continue;
    std::string list;
    for (const char* k : known) list += std::string(list.empty() ? "" : ", ") + k;
    refuse(source, where + key, "is not a key here; the keys are " + list);
  }
}

double number_at(const json& object, const char* key, const std::string& where,
                 const std::string& source, double fallback) {
  if (!object.contains(key)) return fallback;
  const json& value = object.at(key);
  if (!value.is_number() || !std::isfinite(value.get<double>())) {
    refuse(source, where + key, "must be a finite number");
  }
  return value.get<double>();
}

Eigen::Vector3d vector_at(const json& object, const char* key, const std::string& where,
                          const std::string& source, const Eigen::Vector3d& fallback) {
  if (!object.contains(key)) return fallback;
  const json& value = object.at(key);
  if (!value.is_array() || value.size() != 3) refuse(source, where + key, "must be [x, y, z]");
  Eigen::Vector3d v;
  for (int d = 0; d < 3; ++d) {
    if (!value[d].is_number() || !std::isfinite(value[d].get<double>())) {
      refuse(source, where + key, "must hold three finite numbers");
    }
    v(d) = value[d].get<double>();
  }
  return v;
}

// A position or a length (or, in `unit` "m/s", a velocity): within contact::kMaxCoordinate.
Eigen::Vector3d place_at(const json& object, const char* key, const std::string& where,
                         const std::string& source, const Eigen::Vector3d& fallback,
                         const char* unit = "m") {
  const Eigen::Vector3d v = vector_at(object, key, where, source, fallback);
  if (!(v.cwiseAbs().maxCoeff() <= contact::kMaxCoordinate)) {
    refuse(source, where + key,
           "is beyond " + std::to_string(int(contact::kMaxCoordinate)) + " " + unit);
  }
  return v;
}

Eigen::Vector3d required_place(const json& object, const char* key, const std::string& where,
                               const std::string& source) {
  if (!object.contains(key)) refuse(source, where + key, "is missing");
  return place_at(object, key, where, source, Eigen::Vector3d::Zero());
}

double required_number(const json& object, const char* key, const std::string& where,
                       const std::string& source) {
  if (!object.contains(key)) refuse(source, where + key, "is missing");
  const double value = number_at(object, key, where, source, 0.0);
  if (!(std::abs(value) <= contact::kMaxCoordinate)) {
    refuse(source, where + key, "is beyond " + std::to_string(int(contact::kMaxCoordinate)));
  }
  return value;
}

}  // namespace

double read_friction(const json& object, const std::string& where, const std::string& source,
                     double fallback) {
  if (!object.contains("friction")) return fallback;
  const double mu = number_at(object, "friction", where, source, fallback);
  if (!(mu >= 0.0 && mu <= contact::kMaxFriction)) {
    std::ostringstream range;
    range << "must be in [0, " << contact::kMaxFriction << "]";
    refuse(source, where + "friction", range.str());
  }
  return mu;
}

contact::Obstacle read_obstacle(const json& entry, const std::string& where,
                                const std::string& source) {
  if (!entry.is_object() || !entry.contains("type") || !entry.at("type").is_string()) {
    refuse(source, where, "must be an object with a \"type\"");
  }
  const auto kind = contact::obstacle_kind_from_name(entry.at("type").get<std::string>());
  if (!kind) refuse(source, where + "type", "must be plane, sphere, box or capsule");
  contact::Obstacle o;
  o.kind = *kind;
  switch (o.kind) {
    case contact::ObstacleKind::plane: {
      check_keys(entry, {"type", "point", "normal", "friction", "path"}, where, source);
      o.point = required_place(entry, "point", where, source);
      const Eigen::Vector3d normal = required_place(entry, "normal", where, source);
      if (!(normal.norm() > 0.0)) refuse(source, where + "normal", "must not be zero");
      o.normal = normal.normalized();
      break;
    }
    case contact::ObstacleKind::sphere:
      check_keys(entry, {"type", "center", "radius", "friction", "path"}, where, source);
      o.point = required_place(entry, "center", where, source);
      o.radius = required_number(entry, "radius", where, source);
      break;
    case contact::ObstacleKind::box:
      check_keys(entry, {"type", "center", "half_extents", "friction", "path"}, where, source);
      o.point = required_place(entry, "center", where, source);
      o.half_extents = required_place(entry, "half_extents", where, source);
      break;
    case contact::ObstacleKind::capsule:
      check_keys(entry, {"type", "from", "to", "radius", "friction", "path"}, where, source);
      o.point = required_place(entry, "from", where, source);
      o.end = required_place(entry, "to", where, source);
      o.radius = required_number(entry, "radius", where, source);
      break;
  }
  o.friction = read_friction(entry, where, source, -1.0);
  if (entry.contains("path")) {
    const json& path = entry.at("path");
    if (!path.is_object() || !path.contains("times") || !path.contains("offsets") ||
        !path.at("times").is_array() || !path.at("offsets").is_array() ||
        path.at("times").size() != path.at("offsets").size() || path.at("times").empty()) {
      refuse(source, where + "path",
             "must be {\"times\": [...], \"offsets\": [[x, y, z], ...]} "
             "of equal, non-zero lengths");
    }
    check_keys(path, {"times", "offsets"}, where + "path.", source);
    for (std::size_t i = 0; i < path.at("times").size(); ++i) {
      const json keyframe = {{"t", path.at("times")[i]}, {"o", path.at("offsets")[i]}};
      o.path.times.push_back(required_number(keyframe, "t", where + "path.times.", source));
      o.path.offsets.push_back(required_place(keyframe, "o", where + "path.offsets.", source));
    }
    o.offset = o.path.offset_at(0.0);
  }
  try {
    contact::check_obstacle(o);
  } catch (const std::invalid_argument& e) {
    // `where` ends with the dot a key would follow ("obstacles[1].").
    refuse(source, where.substr(0, where.size() - (where.ends_with('.') ? 1 : 0)), e.what());
  }
  return o;
}

json parse_scene_text(std::string_view text, const std::string& source) {
  try {
    return smfem::json::parse_json_text(text);
  } catch (const smfem::json::JsonTextError& error) {
    throw std::invalid_argument(source + ": " + error.what());
  }
}

ContactSceneSpec read_contact_scene(const json& scene, const std::string& source) {
  if (!scene.is_object()) refuse(source, "scene", "must be a JSON object");
  check_keys(scene,
             {"description", "timestep", "gravity", "friction", "contact", "obstacles", "bodies"},
             "", source);
  ContactSceneSpec spec;
  spec.timestep = number_at(scene, "timestep", "", source, spec.timestep);
  // The solver would clamp it body by body while the scene's clock kept the file's value.
  if (const std::string problem =
          sim::outside_limits(spec.timestep, sim::kMinTimestep, sim::kMaxTimestep, "s");
      !problem.empty()) {
    refuse(source, "timestep", problem);
  }
  spec.gravity = vector_at(scene, "gravity", "", source, spec.gravity);
  if (const std::string problem = sim::gravity_outside_limits(spec.gravity); !problem.empty()) {
    refuse(source, "gravity", problem);
  }
  spec.friction = read_friction(scene, "", source, 0.0);
  if (scene.contains("contact")) {
    const json& contact = scene.at("contact");
    if (!contact.is_object()) refuse(source, "contact", "must be an object");
    check_keys(contact, {"activation_distance", "stiffness", "slip"}, "contact.", source);
    spec.activation = number_at(contact, "activation_distance", "contact.", source, 0.0);
    if (contact.contains("activation_distance") && !(spec.activation > 0.0)) {
      refuse(source, "contact.activation_distance", "must be positive (d_hat > 0)");
    }
    spec.stiffness = number_at(contact, "stiffness", "contact.", source, 0.0);
    // At most the stiffest material's modulus: at 1e300 Pa every line search failed and the
    // body hung frozen at d_hat, each step reported ok.
    if (contact.contains("stiffness") &&
        !(spec.stiffness > 0.0 && spec.stiffness <= sim::kMaxYoungs)) {
      refuse(source, "contact.stiffness",
             "must be positive and at most " + smfem::json::format_number(sim::kMaxYoungs) +
                 " Pa (the stiffest material's modulus)");
    }
    spec.slip = number_at(contact, "slip", "contact.", source, spec.slip);
    if (!(spec.slip > 0.0)) refuse(source, "contact.slip", "must be positive");
  }
  if (scene.contains("obstacles")) {
    if (!scene.at("obstacles").is_array()) refuse(source, "obstacles", "must be an array");
    for (std::size_t i = 0; i < scene.at("obstacles").size(); ++i) {
      spec.obstacles.push_back(
          read_obstacle(scene.at("obstacles")[i], "obstacles[" + std::to_string(i) + "].", source));
    }
  }
  if (!scene.contains("bodies") || !scene.at("bodies").is_array() || scene.at("bodies").empty()) {
    refuse(source, "bodies", "must be a non-empty array");
  }
  for (std::size_t i = 0; i < scene.at("bodies").size(); ++i) {
    const json& entry = scene.at("bodies")[i];
    const std::string where = "bodies[" + std::to_string(i) + "].";
    if (!entry.is_object()) refuse(source, where, "must be an object");
    check_keys(entry, {"asset", "recipe", "translation", "velocity", "localDeformations"}, where,
               source);
    // One source for the body: with both, which was meant is a guess. (Neither is for the caller
    // to judge: the API and smfem-scene take the assets beside the file.)
    if (entry.contains("asset") && entry.contains("recipe")) {
      refuse(source, where + "asset", "a body has an \"asset\" or a \"recipe\", not both");
    }
    SceneBodySpec body;
    body.translation = place_at(entry, "translation", where, source, body.translation);
    body.velocity = place_at(entry, "velocity", where, source, body.velocity, "m/s");
    if (entry.contains("localDeformations")) {
      if (!entry.at("localDeformations").is_boolean()) {
        refuse(source, where + "localDeformations", "must be true or false");
      }
      body.local_deformations = entry.at("localDeformations").get<bool>();
    }
    spec.bodies.push_back(body);
  }
  return spec;
}

}  // namespace smfem::multibody
