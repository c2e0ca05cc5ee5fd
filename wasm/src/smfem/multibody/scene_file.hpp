#pragma once
// The scene file of a contact scene (assets/scenes/README.md, "Scenes with contact"), without
// its assets: the caller resolves each body's "asset" or "recipe" path. This reader owns the
// format: it refuses a key it does not know, naming the key and the keys that belong there.
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json_fwd.hpp>

#include "smfem/sim/contact/friction.hpp"
#include "smfem/sim/contact/obstacle.hpp"
#include "smfem/sim/solver_settings.hpp"

namespace smfem::multibody {

struct SceneBodySpec {
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();  // m, added to the rest positions
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();     // m/s, initial, of the whole body
  // Local deformations (paper 001, local/local_deformations.hpp): its asset must carry its tet
  // mesh (smfem-bake --full-mesh); contact_scene.hpp says where they act.
  bool local_deformations = false;
};

struct ContactSceneSpec {
  double timestep = sim::SolverSettings{}.timestep;
  Eigen::Vector3d gravity = sim::SolverSettings{}.gravity;
  double friction = 0.0;
  double activation = 0.0;              // dhat; 0: the scene's default (contact_scene.hpp)
  double stiffness = 0.0;               // kappa; 0: adaptive (contact_scene.hpp)
  double slip = contact::kDefaultSlip;  // eps_v, m/s (friction.hpp)
  std::vector<contact::Obstacle> obstacles;
  std::vector<SceneBodySpec> bodies;
};

// One entry of a scene's "obstacles" (assets/scenes/README.md), `where` naming it in messages
// ("obstacles[2]."); throws std::invalid_argument as read_contact_scene does. Also read by the
// thin bodies' recipes (thin/thin_recipe.hpp).
contact::Obstacle read_obstacle(const nlohmann::json& entry, const std::string& where,
                                const std::string& source);

// The Coulomb coefficient at object's "friction" (`fallback` where it has none), `where` naming
// the object in messages; throws std::invalid_argument outside [0, contact::kMaxFriction].
// Scenes, their obstacles and the thin bodies' recipes read theirs here.
double read_friction(const nlohmann::json& object, const std::string& where,
                     const std::string& source, double fallback);

// A scene file's text as JSON (json/json_text.hpp: a key given twice is refused); throws
// std::invalid_argument naming `source`.
nlohmann::json parse_scene_text(std::string_view text, const std::string& source);

// Parses a scene file's JSON; throws std::invalid_argument naming `source` and the key at fault.
// Out-of-range values are refused, not clamped: d_hat <= 0, friction outside [0,
// contact::kMaxFriction], a non-positive timestep, a coordinate beyond contact::kMaxCoordinate.
ContactSceneSpec read_contact_scene(const nlohmann::json& scene, const std::string& source);

}  // namespace smfem::multibody
