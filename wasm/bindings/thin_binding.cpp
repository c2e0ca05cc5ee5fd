// A shell or a rod, or a recipe of parts (wasm/src/smfem/thin/), from its recipe, stepped by the
// full-space mixed or FEM step behind the JS API (loader.js: createThinSimulator), with the
// volumes' parameters and step reports plus each step's maxStrain (the largest edge strain), so
// that `npx smfem simulate` prints the same records for it, and with obstacles minDistance,
// activeContacts, dHat and obstacleOffsets as a contact scene's, a drag spring on any vertex, and
// obstacles the hand moves.
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "js_boundary.hpp"
#include "smfem/full/full_simulator.hpp"
#include "smfem/thin/thin_contact.hpp"
#include "smfem/thin/thin_diagnostics.hpp"
#include "smfem/thin/thin_recipe.hpp"

namespace {

using namespace smfem::bindings;
namespace thin = smfem::thin;

// Parameters that only the skinning stepper has: accepted with a warning, so that one set of
// parameters serves every stepper.
constexpr std::array<const char*, 3> kIgnoredParameters = {"eigenFit", "eigenFitRelinearized",
                                                           "floatStiffness"};

class JsThinSimulator {
 public:
  JsThinSimulator(const std::string& recipe_text, const std::string& source_name,
                  const json& options, const thin::RecipeFiles& files)
      : recipe_text_(recipe_text),
        source_name_(source_name),
        files_(files),
        recipe_(thin::read_thin_recipe(recipe_text, source_name, files)) {
    check_option_keys(options, "thin simulator");
    const json parameters = options.value("parameters", json::object());
    warn_inapplicable(parameters, kIgnoredParameters, "a shell or rod", warnings_);
    apply_materials(parameters);
    smfem::sim::SolverSettings settings = recipe_.body.model.defaults;
    apply_parameters(parameters, settings);
    threads_ = requested_threads(options, warnings_);
    simulator_ = make_simulator(settings);
    add_obstacles(*simulator_, recipe_.obstacles);
    workers_ = simulator_->thread_count() - 1;
    free_workers -= workers_;
  }
  ~JsThinSimulator() { free_workers += workers_; }
  JsThinSimulator(const JsThinSimulator&) = delete;
  JsThinSimulator& operator=(const JsThinSimulator&) = delete;

  std::string info() const {
    const thin::ThinBody& body = recipe_.body;
    json parts = json::array(), materials = json::array();
    for (std::size_t i = 0; i < recipe_.parts.size(); ++i) {
      const thin::ThinRecipe::Part& part = recipe_.parts[i];
      parts.push_back(
          {{"kind", part.kind}, {"elements", part.elements}, {"vertices", part.vertices}});
      materials.push_back({{"region", i},
                           {"name", part.kind},
                           {"youngs", body.model.youngs(part.first_element)},
                           {"poisson", body.model.poisson(part.first_element)}});
    }
    return json{{"kind", parts.size() == 1 ? parts[0]["kind"].get<std::string>() : "parts"},
                {"parts", parts},
                {"name", recipe_.name},
                {"vertices", body.vertex_count},
                {"elements", body.model.element_count()},
                {"nodes", body.model.node_count},
                {"unknowns", simulator_->dof_count()},
                {"totalMass", body.model.translational_mass.sum()},
                {"threads", simulator_->thread_count()},
                {"source", body.model.source},
                {"obstacles", obstacle_shapes(recipe_.obstacles)},
                {"description", recipe_.description},
                {"camera", recipe_.camera},
                {"materials", materials},
                {"parameters", settings_json(simulator_->settings(), kIgnoredParameters)}}
        .dump();
  }

  // A new simulator with the changed settings, from the current displacements and velocities.
  void set_parameters(const std::string& parameters_json) {
    js_errors([&] {
      const json parameters = json::parse(parameters_json);
      warn_inapplicable(parameters, kIgnoredParameters, "a shell or rod", warnings_);
      // The settings first: a refused one must leave the materials (the recipe) as they were.
      smfem::sim::SolverSettings settings = simulator_->settings();
      apply_parameters(parameters, settings);
      apply_materials(parameters);
      auto next = make_simulator(settings);
      next->set_state(simulator_->displacements(), simulator_->velocities());
      next->set_time(simulator_->time());
      // Where the obstacles are now, and where the hand holds them.
      if (const smfem::full::ObstacleContact* contact = simulator_->contact()) {
        add_obstacles(*next, contact->obstacles());
      }
      if (const auto& spring = simulator_->drag_spring()) {
        next->drag_start(spring->node, spring->rest, spring->target, spring->stiffness);
      }
      // The old simulator's warnings are still the caller's to take.
      warnings_.insert(warnings_.end(), simulator_->warnings().begin(),
                       simulator_->warnings().end());
      simulator_ = std::move(next);
      return 0;
    });
  }

  std::string step(double count) {
    return js_errors([&] {
      check_step_count(count);
      json reports = json::array();
      for (int i = 0; i < count; ++i) {
        const smfem::full::FullStepReport& step = simulator_->step();
        json out = report_json(step, thin::thin_diagnostics(recipe_.body, *simulator_),
                               simulator_->time());
        out["maxStrain"] = thin::max_edge_strain(recipe_.body, simulator_->displacements());
        add_contact(out);
        if (simulator_->contact() != nullptr) out["pushedVertices"] = step.pushed;
        reports.push_back(std::move(out));
        if (!step.ok) break;
      }
      return reports.dump();
    });
  }

  // The vertices' displacements (vertex_count x 3, column-major: all x, then y, then z), a copy.
  val coordinates_f64() const {
    return coordinates_f64_of(
        simulator_->displacements().topRows(recipe_.body.vertex_count).eval());
  }

  // What the page draws: the rest positions (x y z per vertex, f32), and the triangles (shells'
  // and volumes' boundaries) and the rods' segments as vertex ids (ThinBody's lines).
  val rest_positions() const {
    const thin::ThinBody& body = recipe_.body;
    std::vector<float> positions(static_cast<std::size_t>(3 * body.vertex_count));
    for (int v = 0; v < body.vertex_count; ++v) {
      for (int d = 0; d < 3; ++d) {
        positions[static_cast<std::size_t>(3 * v + d)] = static_cast<float>(body.rest(v, d));
      }
    }
    return typed_array_copy(positions, "Float32Array");
  }
  val triangles() const { return ids(recipe_.body.triangles); }
  val edges() const { return ids(recipe_.body.lines); }
  // Each rod segment's radius (f32, one per edge()), m.
  val edge_radii() const {
    const Eigen::VectorXf radii = recipe_.body.line_radii.cast<float>();
    return typed_array_copy(std::vector<float>(radii.data(), radii.data() + radii.size()),
                            "Float32Array");
  }

  std::string diagnostics() const {
    json out = diagnostics_json(thin::thin_diagnostics(recipe_.body, *simulator_));
    out["time"] = simulator_->time();
    out["maxStrain"] = thin::max_edge_strain(recipe_.body, simulator_->displacements());
    return out.dump();
  }

  // The start again, the obstacles where the recipe puts them (those the hand moved too).
  void reset() {
    const auto zero = smfem::sim::ReducedMatrix::Zero(recipe_.body.model.node_count, 3);
    simulator_->set_state(zero, zero);
    simulator_->set_time(0.0);
    add_obstacles(*simulator_, recipe_.obstacles);
  }

  // The force the body presses on each obstacle now (ObstacleContact::obstacle_forces): [] without
  // obstacles.
  std::string obstacle_forces() const {
    json forces = json::array();
    if (const smfem::full::ObstacleContact* contact = simulator_->contact()) {
      for (const Eigen::Vector3d& force : contact->obstacle_forces(simulator_->displacements()))
        forces.push_back(vector_json(force));
    }
    return forces.dump();
  }

  // Obstacle `index` held at offset (x, y, z) from where the recipe puts it: each step moves it
  // there as far as the vertices let it. A plane, an index out of range or a non-finite offset
  // throw.
  void move_obstacle(double index, double x, double y, double z) {
    js_errors([&] {
      smfem::full::ObstacleContact* contact = simulator_->contact();
      if (contact == nullptr) throw std::invalid_argument("the recipe has no obstacles");
      contact->hold_obstacle(static_cast<std::size_t>(index_of(index, "obstacle")), {x, y, z});
      return 0;
    });
  }

  // A drag spring from vertex `vertex` to (x, y, z) with `stiffness` N/m; a vertex out of range
  // or non-finite values throw.
  void drag_start(double index, double x, double y, double z, double stiffness) {
    js_errors([&] {
      const int vertex = index_of(index, "drag: vertex");
      if (vertex >= recipe_.body.vertex_count) {
        throw std::invalid_argument("drag: vertex " + std::to_string(vertex) +
                                    " is not one of the " +
                                    std::to_string(recipe_.body.vertex_count));
      }
      simulator_->drag_start(vertex, recipe_.body.rest.row(vertex).transpose(), {x, y, z},
                             stiffness);
      return 0;
    });
  }
  void drag_move(double x, double y, double z) {
    js_errors([&] {
      simulator_->drag_move({x, y, z});
      return 0;
    });
  }
  void drag_end() { simulator_->drag_end(); }

  std::string take_warnings() { return take_warnings_of(warnings_, *simulator_); }

 private:
  template <class Rows>
  static val ids(const Rows& rows) {
    std::vector<std::uint32_t> out;
    out.reserve(static_cast<std::size_t>(rows.size()));
    for (Eigen::Index r = 0; r < rows.rows(); ++r) {
      for (Eigen::Index c = 0; c < rows.cols(); ++c)
        out.push_back(static_cast<std::uint32_t>(rows(r, c)));
    }
    return typed_array_copy(out, "Uint32Array");
  }

  // "materials": [{"region": i, "youngs", "poisson"}]: body i of the recipe (0 for a lone shell
  // or rod) is one material, its recipe's. A new value makes the body again from the recipe with
  // it (the recipe reader is the one owner of how a material enters, bending included, and of its
  // admissible range).
  void apply_materials(const json& parameters) {
    const auto found = parameters.find("materials");
    if (found == parameters.end()) return;
    if (!found->is_array()) bad_parameter("materials", "must be an array");
    json recipe = json::parse(recipe_text_);
    const smfem::full::ElementModel& model = recipe_.body.model;
    const std::size_t count = recipe_.parts.size();
    bool changed = false;
    for (const json& entry : *found) {
      if (!entry.is_object() || !entry.contains("region") ||
          !entry["region"].is_number_unsigned() || entry["region"].get<std::size_t>() >= count) {
        bad_parameter("materials", "each entry needs a region: a body of the recipe, 0 to " +
                                       std::to_string(count - 1));
      }
      check_material_keys(entry);
      const auto region = entry["region"].get<std::size_t>();
      const thin::ThinRecipe::Part& part = recipe_.parts[region];
      json& material =
          recipe.contains("parts") ? recipe["parts"][region][part.kind] : recipe[part.kind];
      const int element = part.first_element;
      for (const auto& [key, now] : {std::pair{"youngs", model.youngs(element)},
                                     std::pair{"poisson", model.poisson(element)}}) {
        if (!entry.contains(key)) continue;
        const double value = number(entry[key], std::string("materials.") + key);
        if (value == now) continue;
        material[key] = value;
        changed = true;
      }
    }
    if (!changed) return;
    recipe_ = thin::read_thin_recipe(recipe.dump(), source_name_, files_);
    recipe_text_ = recipe.dump();
  }

  // The simulator of the recipe's body with these settings (add_obstacles gives it its
  // obstacles once its state is set).
  std::unique_ptr<smfem::full::FullSimulator> make_simulator(
      const smfem::sim::SolverSettings& settings) const {
    return std::make_unique<smfem::full::FullSimulator>(recipe_.body.model, settings, threads_);
  }

  // Contact with `obstacles` (the recipe's, or where they have moved to) from now on.
  void add_obstacles(smfem::full::FullSimulator& simulator,
                     const std::vector<smfem::contact::Obstacle>& obstacles) const {
    if (obstacles.empty()) return;
    simulator.set_contact(thin::thin_obstacle_contact(recipe_.body, obstacles, recipe_.contact));
  }

  // The contact scenes' fields (loader.d.ts: ContactStepReport): minDistance (null without
  // obstacles), activeContacts, dHat, obstacleOffsets.
  void add_contact(json& out) const {
    const smfem::full::ObstacleContact* contact = simulator_->contact();
    if (contact == nullptr) return;
    const auto [closest, active] = contact->closest(simulator_->displacements());
    out["minDistance"] = closest;
    out["activeContacts"] = active;
    out["dHat"] = contact->parameters().activation;
    json offsets = json::array();
    for (const smfem::contact::Obstacle& obstacle : contact->obstacles()) {
      offsets.push_back(vector_json(obstacle.offset));
    }
    out["obstacleOffsets"] = offsets;
  }

  std::string recipe_text_;  // with the materials set since
  std::string source_name_;
  thin::RecipeFiles files_;
  thin::ThinRecipe recipe_;
  std::vector<std::string> warnings_;
  int threads_ = 1;
  std::unique_ptr<smfem::full::FullSimulator> simulator_;
  int workers_ = 0;
};

// files: [{name, bytes: Uint8Array}], the files the recipe's "mesh" keys name.
JsThinSimulator* create_thin_simulator(const std::string& recipe_text,
                                       const std::string& source_name,
                                       const std::string& options_json,
                                       const emscripten::val& files) {
  return js_errors([&] {
    thin::RecipeFiles contents;
    const auto count = files["length"].as<unsigned>();
    for (unsigned i = 0; i < count; ++i) {
      const std::vector<std::uint8_t> bytes =
          emscripten::convertJSArrayToNumberVector<std::uint8_t>(files[i]["bytes"]);
      contents[files[i]["name"].as<std::string>()] = std::string(bytes.begin(), bytes.end());
    }
    return new JsThinSimulator(recipe_text, source_name, json::parse(options_json), contents);
  });
}

// The names of the files a recipe's "mesh" keys give (thin_recipe.hpp), for the caller to read,
// as a JSON array.
std::string thin_recipe_files(const std::string& recipe_text, const std::string& source_name) {
  return js_errors([&] { return json(thin::thin_recipe_files(recipe_text, source_name)).dump(); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(smfem_thin) {
  emscripten::function("thinRecipeFiles", &thin_recipe_files);
  emscripten::class_<JsThinSimulator>("ThinSimulator")
      .constructor(&create_thin_simulator, emscripten::allow_raw_pointers())
      .function("info", &JsThinSimulator::info)
      .function("setParameters", &JsThinSimulator::set_parameters)
      .function("step", &JsThinSimulator::step)
      .function("coordinatesF64", &JsThinSimulator::coordinates_f64)
      .function("restPositions", &JsThinSimulator::rest_positions)
      .function("triangles", &JsThinSimulator::triangles)
      .function("edges", &JsThinSimulator::edges)
      .function("edgeRadii", &JsThinSimulator::edge_radii)
      .function("diagnostics", &JsThinSimulator::diagnostics)
      .function("reset", &JsThinSimulator::reset)
      .function("dragStart", &JsThinSimulator::drag_start)
      .function("dragMove", &JsThinSimulator::drag_move)
      .function("dragEnd", &JsThinSimulator::drag_end)
      .function("moveObstacle", &JsThinSimulator::move_obstacle)
      .function("obstacleForces", &JsThinSimulator::obstacle_forces)
      .function("takeWarnings", &JsThinSimulator::take_warnings);
}
