#include "smfem/scene/metadata.hpp"

#include <variant>

namespace smfem::scene {
namespace {

using Json = nlohmann::json;

Json vector_json(const Eigen::Vector3d& v) { return Json::array({v.x(), v.y(), v.z()}); }

Json force_json(const SceneForce& force) {
  Json out = std::visit(
      [](const auto& f) -> Json {
        using Kind = std::decay_t<decltype(f)>;
        if constexpr (std::is_same_v<Kind, PeriodicForce>) {
          return {{"kind", "periodic"},
                  {"amplitude", f.amplitude},
                  {"frequency", f.frequency},
                  {"direction", vector_json(f.direction)}};
        } else if constexpr (std::is_same_v<Kind, TwistForce>) {
          Json j = {{"kind", "twist"},
                    {"center", vector_json(f.center)},
                    {"axis", vector_json(f.axis)},
                    {"angle_deg", f.angle_deg},
                    {"stiffness", f.stiffness}};
          if (f.release) j["release"] = *f.release;
          return j;
        } else {
          Json j = {
              {"kind", "pull"}, {"offset", vector_json(f.offset)}, {"stiffness", f.stiffness}};
          if (f.release) j["release"] = *f.release;
          return j;
        }
      },
      force.kind);
  out["vertices"] = force.vertices.size();
  return out;
}

}  // namespace

Json scene_metadata(const SceneRecipe& recipe, const SceneMesh& scene) {
  Json materials = Json::array();
  for (std::size_t m = 0; m < recipe.materials.size(); ++m) {
    const Material& material = recipe.materials[m];
    materials.push_back({{"name", material.name},
                         {"youngs", material.youngs},
                         {"poisson", material.poisson},
                         {"density", material.density},
                         {"tets", (scene.mesh.regions.array() == static_cast<int>(m)).count()}});
  }
  Json forces = Json::array();
  for (const SceneForce& force : scene.forces) forces.push_back(force_json(force));
  Json out = {
      {"name", recipe.name},
      {"description", recipe.description},
      {"materials", materials},
      {"subspace", {{"modes", recipe.subspace.modes}, {"cubature", recipe.subspace.cubature}}},
      {"solver",
       {{"method", std::string(sim::solver_method_name(recipe.solver.method))},
        {"iterations", recipe.solver.iterations},
        {"timestep", recipe.solver.timestep},
        {"gravity", vector_json(recipe.solver.gravity)},
        {"material_model", sim::material_model_name(recipe.solver.material_model)}}},
      {"forces", forces},
      {"mesh",
       {{"vertices", scene.mesh.vertices.rows()},
        {"tets", scene.mesh.tets.rows()},
        {"pinned", scene.pinned.size()},
        {"min_dihedral_deg", scene.quality.min_dihedral_deg},
        {"max_dihedral_deg", scene.quality.max_dihedral_deg}}},
  };
  if (recipe.camera) {
    out["camera"] = {{"position", vector_json(recipe.camera->position)},
                     {"target", vector_json(recipe.camera->target)}};
  }
  return out;
}

}  // namespace smfem::scene
