// The JS boundary of the WebAssembly module (embind). Kept narrow: plain values, JSON text and
// copies in and out, never views into the wasm heap. wasm/js/loader.js wraps it in the public
// API (loader.d.ts documents the shapes of the JSON).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "js_boundary.hpp"
#include "smfem/asset/asset.hpp"
#include "smfem/asset/cubature_markers.hpp"
#include "smfem/asset/render_surface.hpp"
#include "smfem/config.hpp"
#include "smfem/full/full_model.hpp"
#include "smfem/json/json_text.hpp"
#include "smfem/local/render_dent.hpp"
#include "smfem/multibody/contact_scene.hpp"
#include "smfem/parallel/thread_pool.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/model/reduced_model_writer.hpp"
#include "smfem/sim/simulator.hpp"

namespace {

using namespace smfem::bindings;

std::string build_flavour() { return SMFEM_WASM_THREADS ? "threads" : "single"; }

// What the page draws of an asset, read by the stepper's own reader (the page parses no
// asset itself): the metadata, the render surface (loader.d.ts: PageAsset) and the cubature
// markers (null where the asset has none).
val page_asset(const val& bytes, const std::string& source_name) {
  return js_errors([&] {
    const auto asset = smfem::asset::Asset::from_bytes(to_bytes(bytes), source_name);
    const smfem::asset::RenderSurface surface = smfem::asset::read_render_surface(asset);
    const smfem::asset::CubatureMarkers markers = smfem::asset::read_cubature_markers(asset);
    val render = val::object();
    render.set("vertexCount", surface.vertex_count);
    render.set("triangleCount", surface.triangle_count);
    render.set("modeCount", surface.mode_count);
    render.set("positions", typed_array_copy(surface.positions, "Float32Array"));
    render.set("triangles", typed_array_copy(surface.triangles, "Uint32Array"));
    render.set("weights", typed_array_copy(surface.weights, "Float32Array"));
    if (!surface.normals.empty())
      render.set("normals", typed_array_copy(surface.normals, "Float32Array"));
    if (!surface.clusters.empty())
      render.set("clusters", typed_array_copy(surface.clusters, "Uint32Array"));
    if (!surface.regions.empty())
      render.set("regions", typed_array_copy(surface.regions, "Uint32Array"));
    val marked = val::null();
    if (markers.count > 0) {
      marked = val::object();
      marked.set("count", markers.count);
      marked.set("modeCount", markers.mode_count);
      marked.set("centroids", typed_array_copy(markers.centroids, "Float32Array"));
      marked.set("weights", typed_array_copy(markers.weights, "Float32Array"));
    }
    val page = val::object();
    page.set("meta", val::global("JSON").call<val>("parse", asset.meta().dump()));
    page.set("surface", render);
    page.set("markers", marked);
    return page;
  });
}

// Validates asset bytes with the reader the stepper uses; returns the table of contents and
// the metadata as JSON text.
std::string inspect_asset(const val& bytes, const std::string& source_name) {
  return js_errors([&] {
    auto asset = smfem::asset::Asset::from_bytes(to_bytes(bytes), source_name);
    json sections = json::array();
    for (const auto& s : asset.sections()) {
      sections.push_back({{"name", s.name},
                          {"dtype", smfem::asset::dtype_name(s.dtype)},
                          {"shape", s.shape},
                          {"offset", s.offset},
                          {"length", s.length}});
    }
    return json{{"meta", asset.meta()}, {"sections", sections}}.dump();
  });
}

// The threads of distinct_worker_threads, `count` of them at once.
int run_on_threads(int count) {
  if (!SMFEM_WASM_THREADS) return 1;
  std::mutex mutex;
  std::set<std::thread::id> seen;
  std::vector<std::thread> threads;
  for (int i = 0; i < count; ++i) {
    threads.emplace_back([&] {
      std::lock_guard lock(mutex);
      seen.insert(std::this_thread::get_id());
    });
  }
  for (auto& t : threads) t.join();
  return static_cast<int>(seen.size());
}

// Runs `count` threads and returns how many distinct threads did the work: proves that the
// threaded flavour really runs in parallel workers (1 in the single-threaded flavour). At most
// the pool's threads: one beyond Emscripten's fixed pool never starts, and joining it hung.
int distinct_worker_threads(double count) {
  return js_errors([&] {
    // (The single-threaded build starts none: any count gives 1.)
    const int most = SMFEM_WASM_THREADS ? smfem::parallel::ThreadPool::max_thread_count() : 1024;
    if (!(count >= 1 && count <= most && std::floor(count) == count)) {
      throw std::invalid_argument("distinctWorkerThreads: count " +
                                  smfem::json::format_number(count) +
                                  " is not a whole number in [1, " + std::to_string(most) + "]");
    }
    return run_on_threads(static_cast<int>(count));
  });
}

// The material regions some cubature tet samples, ascending: only their materials reach the
// solver (a region without one is invisible to it, whatever its modulus).
json cubature_regions(const smfem::sim::ReducedModel& model) {
  const std::set<std::uint32_t> regions(model.cubature_region.begin(), model.cubature_region.end());
  return json(std::vector<std::uint32_t>(regions.begin(), regions.end()));
}

// The asset's EigenFit (sim/eigenfit.hpp) in the JS API's terms, or null without one.
json eigen_fit_json(const smfem::sim::EigenFitData& fit) {
  if (fit.empty()) return nullptr;
  constexpr double kTwoPi = 6.283185307179586;
  json coarse = json::array(), fine = json::array();
  for (int i = 0; i < fit.mode_count(); ++i) {
    coarse.push_back(std::sqrt(fit.coarse_eigenvalues(i)) / kTwoPi);
    fine.push_back(std::sqrt(fit.fine_eigenvalues(i)) / kTwoPi);
  }
  return {{"modes", fit.mode_count()},
          {"ratios", std::vector<double>(fit.ratios.data(), fit.ratios.data() + fit.ratios.size())},
          {"coarseHz", coarse},
          {"fineHz", fine}};
}

// One simulator behind the JS API (loader.js: Simulator).
class JsSimulator {
 public:
  // Throws C++ exceptions (create_simulator turns them into JS Errors after unwinding, so a
  // half-built simulator never keeps its threads).
  JsSimulator(const std::vector<std::uint8_t>& bytes, const std::string& source_name,
              const json& options) {
    check_option_keys(options, "simulator", {"localDeformations"});
    const json parameters = options.value("parameters", json::object());
    const smfem::asset::Asset asset = smfem::asset::Asset::from_bytes(bytes, source_name);
    smfem::sim::ReducedModel model = smfem::sim::load_reduced_model(asset);
    smfem::sim::SolverSettings settings = model.defaults;
    apply_parameters(parameters, settings);
    simulator_ = std::make_unique<smfem::sim::Simulator>(std::move(model), settings,
                                                         requested_threads(options, warnings_));
    apply_materials(parameters);
    // Local deformations (issue 26) need the asset's tet mesh and its weights.
    const json local = options.value("localDeformations", json(false));
    if (!local.is_boolean()) throw std::invalid_argument("localDeformations must be true or false");
    if (local.get<bool>())
      simulator_->enable_local_deformations(smfem::full::load_full_model(asset));
    workers_ = simulator_->thread_count() - 1;
    free_workers -= workers_;
  }
  ~JsSimulator() { free_workers += workers_; }
  JsSimulator(const JsSimulator&) = delete;
  JsSimulator& operator=(const JsSimulator&) = delete;

  std::string info() const {
    const smfem::sim::ReducedModel& model = simulator_->model();
    return json{{"modes", model.mode_count()},
                {"cubature", model.cubature_count()},
                {"threads", simulator_->thread_count()},
                {"renderVertices", model.render_positions.rows()},
                {"totalMass", model.total_mass},
                {"source", model.source},
                {"cubatureRegions", cubature_regions(model)},
                {"eigenFit", eigen_fit_json(model.eigenfit)},
                {"localDeformations", simulator_->local_deformations() != nullptr},
                {"parameters", settings_json(simulator_->settings())}}
        .dump();
  }

  void set_parameters(const std::string& parameters_json) {
    js_errors([&] {
      const json parameters = json::parse(parameters_json);
      smfem::sim::SolverSettings settings = simulator_->settings();
      apply_parameters(parameters, settings);
      simulator_->set_settings(settings);
      apply_materials(parameters);
      return 0;
    });
  }

  // Runs `count` steps (stopping at the first that fails) and returns their reports as JSON.
  std::string step(double count) {
    return js_errors([&] {
      check_step_count(count);
      json reports = json::array();
      for (int i = 0; i < count; ++i) {
        const smfem::sim::StepReport& report = simulator_->step();
        json out = report_json(report, simulator_->time());
        if (const auto* local = simulator_->local_deformations()) {
          out["localPatches"] = local->patch_count();
        }
        reports.push_back(std::move(out));
        if (!report.ok) break;
      }
      return reports.dump();
    });
  }

  // u = vec(U) (12m, column-major 4m x 3: u[4m d + 4i + k] = (A_i)_{dk}) as a new Float32Array.
  val coordinates() const {
    const smfem::sim::ReducedMatrix& U = simulator_->coordinates();
    const Eigen::VectorXf u = Eigen::Map<const Eigen::VectorXd>(U.data(), U.size()).cast<float>();
    return val::global("Float32Array")
        .new_(emscripten::typed_memory_view(static_cast<std::size_t>(u.size()), u.data()))
        .call<val>("slice");
  }
  // The same in double precision (tests compare trajectories across builds).
  val coordinates_f64() const { return coordinates_f64_of(simulator_->coordinates()); }

  std::string diagnostics() const {
    json out = diagnostics_json(simulator_->diagnostics());
    out["time"] = simulator_->time();
    out["stepCount"] = simulator_->step_count();
    return out.dump();
  }

  void drag_start(double vertex, double x, double y, double z, double stiffness) {
    js_errors([&] {
      simulator_->drag_start(index_of(vertex, "render vertex"), Eigen::Vector3d(x, y, z),
                             stiffness);
      return 0;
    });
  }
  void drag_move(double x, double y, double z) { simulator_->drag_move(Eigen::Vector3d(x, y, z)); }
  void drag_end() { simulator_->drag_end(); }

  // The attached patches (local/local_deformations.hpp): per patch its rest centre (m), its frame
  // turned by its rotation (columns: two tangents and the inward normal), and its coefficients (m).
  std::string local_patches() const {
    json patches = json::array();
    const smfem::local::LocalDeformations* local = simulator_->local_deformations();
    for (int p = 0; local != nullptr && p < local->patch_count(); ++p) {
      const smfem::local::LoadPatch& patch = local->patches().patch(p).patch;
      const Eigen::Matrix3d frame = local->patches().rotation(p) * patch.frame;
      const Eigen::Vector3d c = simulator_->snapshot().patches.C.row(p).transpose();
      patches.push_back({{"centre", {patch.centre.x(), patch.centre.y(), patch.centre.z()}},
                         {"frame", std::vector<double>(frame.data(), frame.data() + 9)},
                         {"coefficients", {c.x(), c.y(), c.z()}}});
    }
    return patches.dump();
  }

  // How far the attached patches move the render vertices now (local::RenderDent: per vertex the
  // dent, then its gradient's rows), or null without patches.
  val dent() {
    const smfem::local::LocalDeformations* local = simulator_->local_deformations();
    if (local == nullptr || local->patch_count() == 0) return val::null();
    if (render_dent_ == nullptr) {
      render_dent_ = std::make_unique<smfem::local::RenderDent>(
          local->mesh(), simulator_->model().render_positions);
    }
    std::vector<float> out;
    render_dent_->displacements(local->patches(), simulator_->snapshot().patches.C, out);
    return typed_array_copy(out, "Float32Array");
  }

  void reset() { simulator_->reset(); }
  val snapshot() const { return typed_array_copy(simulator_->save_state(), "Uint8Array"); }
  void restore(const val& bytes) {
    js_errors([&] {
      simulator_->load_state(to_bytes(bytes));
      return 0;
    });
  }

  // Warnings since the last call (clamped parameters, undone steps), oldest first, as JSON.
  std::string take_warnings() { return take_warnings_of(warnings_, *simulator_); }

 private:
  // "materials": [{"region", "youngs", "poisson"}], per region (clamped by the simulator).
  void apply_materials(const json& parameters) {
    const auto found = parameters.find("materials");
    if (found == parameters.end()) return;
    if (!found->is_array()) bad_parameter("materials", "must be an array");
    for (const json& entry : *found) {
      if (!entry.is_object() || !entry.contains("region") ||
          !entry["region"].is_number_unsigned()) {
        bad_parameter("materials", "each entry needs a non-negative integer region");
      }
      check_material_keys(entry);
      const auto region = entry["region"].get<std::uint32_t>();
      double youngs = 0.0, poisson = 0.0;
      bool have_youngs = false, have_poisson = false;
      for (int c = 0; c < simulator_->model().cubature_count(); ++c) {
        if (simulator_->model().cubature_region[static_cast<std::size_t>(c)] != region) continue;
        youngs = simulator_->tet_youngs(c);
        poisson = simulator_->tet_poisson(c);
        break;
      }
      if (entry.contains("youngs")) {
        youngs = number(entry["youngs"], "materials.youngs");
        have_youngs = true;
      }
      if (entry.contains("poisson")) {
        poisson = number(entry["poisson"], "materials.poisson");
        have_poisson = true;
      }
      if (!have_youngs && !have_poisson) {
        bad_parameter("materials", "each entry needs youngs or poisson");
      }
      simulator_->set_region_material(region, youngs, poisson);
    }
  }

  std::unique_ptr<smfem::sim::Simulator> simulator_;
  std::unique_ptr<smfem::local::RenderDent> render_dent_;  // built at the first dent()
  int workers_ = 0;
  std::vector<std::string> warnings_;
};

// A scene of several bodies with contact behind the JS API (loader.js: ContactScene;
// multibody/contact_scene.hpp). Its time step and gravity are the scene file's.
class JsContactScene {
 public:
  JsContactScene(const std::string& scene_text, const val& assets, const std::string& source_name,
                 const json& options) {
    check_option_keys(options, "scene", {"sleeping"});
    const auto spec = smfem::multibody::read_contact_scene(
        smfem::multibody::parse_scene_text(scene_text, source_name), source_name);
    std::vector<smfem::asset::Asset> bodies;
    const auto count = assets["length"].as<unsigned>();
    for (unsigned i = 0; i < count; ++i) {
      bodies.push_back(smfem::asset::Asset::from_bytes(to_bytes(assets[i]["bytes"]),
                                                       assets[i]["name"].as<std::string>()));
    }
    scene_ =
        smfem::multibody::load_contact_scene(spec, bodies, requested_threads(options, warnings_));
    set_parameters(options.value("parameters", json::object()));
    if (options.contains("sleeping")) {
      if (!options["sleeping"].is_boolean()) {
        throw std::invalid_argument("option sleeping must be true or false");
      }
      scene_->set_sleeping(options["sleeping"].get<bool>());
    }
    workers_ = scene_->thread_count() - 1;
    free_workers -= workers_;
  }
  ~JsContactScene() { free_workers += workers_; }
  JsContactScene(const JsContactScene&) = delete;
  JsContactScene& operator=(const JsContactScene&) = delete;

  std::string info() const {
    const smfem::multibody::SceneLayout& layout = scene_->layout();
    json bodies = json::array();
    std::size_t samples = 0;
    for (int i = 0; i < scene_->body_count(); ++i) {
      const auto b = static_cast<std::size_t>(i);
      bodies.push_back({{"firstMode", layout.first_mode[b]},
                        {"modes", layout.mode_count[b]},
                        {"mass", scene_->body_mass(i)},
                        {"offset", vector_json(layout.offsets[b])},
                        {"localDeformations", scene_->local_deformations(i)},
                        {"cubatureRegions", cubature_regions(scene_->body_model(i))}});
      samples += static_cast<std::size_t>(scene_->body_model(i).contact.samples.size());
    }
    const smfem::contact::ContactParameters& contact = scene_->parameters();
    return json{{"bodies", bodies},
                {"modes", layout.modes},
                {"cubature", layout.tets},
                {"contactSamples", samples},
                {"threads", scene_->thread_count()},
                {"activationDistance", contact.activation},
                {"obstacles", obstacle_shapes(scene_->obstacles())},
                {"parameters", settings_json(scene_->settings())},
                {"timestep", scene_->settings().timestep}}
        .dump();
  }

  // Solver parameters (apply_parameters), but for the time step and gravity: the scene's.
  void set_parameters(const json& parameters) {
    if (parameters.contains("timestep") || parameters.contains("gravity")) {
      throw std::invalid_argument("timestep and gravity are the scene file's");
    }
    if (parameters.is_object() && parameters.contains("materials")) {
      bad_parameter("materials", "a contact scene's bodies keep their assets' materials");
    }
    smfem::sim::SolverSettings settings = scene_->settings();
    apply_parameters(parameters, settings);
    scene_->set_settings(settings);
  }

  std::string step(double count) {
    return js_errors([&] {
      check_step_count(count);
      json reports = json::array();
      for (int i = 0; i < count; ++i) {
        const smfem::multibody::StepSummary& summary = scene_->step();
        json report = report_json(scene_->last_report(), scene_->time());
        report["minDistance"] = summary.min_distance;
        report["dHat"] = scene_->parameters().activation;
        report["islands"] = summary.islands;
        report["asleep"] = summary.asleep;
        report["activeContacts"] = summary.active_contacts;
        report["obstaclesHeld"] = summary.obstacles_held;
        report["contactStiffness"] = scene_->parameters().stiffness;
        report["stepMs"] = summary.step_ms;
        json bodies = json::array();
        for (int b = 0; b < scene_->body_count(); ++b) {
          bodies.push_back({{"centroid", vector_json(scene_->body_centroid(b))},
                            {"linearMomentum", vector_json(scene_->body_momentum(b))},
                            {"kinetic", scene_->body_kinetic(b)},
                            {"clearance", scene_->body_clearance(b)},
                            {"iterations", scene_->body_iterations(b)},
                            {"asleep", scene_->body_asleep(b)},
                            {"localPatches", scene_->body_patches(b)},
                            {"patchSets", scene_->body_patch_sets(b)}});
        }
        report["bodies"] = bodies;
        json obstacles = json::array();
        for (const auto& obstacle : scene_->obstacles())
          obstacles.push_back(vector_json(obstacle.offset));
        report["obstacleOffsets"] = obstacles;
        reports.push_back(report);
        if (!summary.ok) break;
      }
      return reports.dump();
    });
  }

  val coordinates_f64() const { return coordinates_f64_of(scene_->coordinates()); }

  // The last step's contact points (ContactMeasure::active_points), x y z after one another.
  val contact_points() const {
    const std::vector<Eigen::Vector3d>& points = scene_->last_step().contact_points;
    std::vector<float> xyz;
    xyz.reserve(3 * points.size());
    for (const Eigen::Vector3d& p : points)
      xyz.insert(xyz.end(), {float(p.x()), float(p.y()), float(p.z())});
    return typed_array_copy(xyz, "Float32Array");
  }

  // How far body b's patches move its render vertices now (ContactScene::body_dent), or null
  // without patches.
  val body_dent(double body) {
    return js_errors([&] {
      if (!(body >= 0 && body < scene_->body_count() && std::floor(body) == body)) {
        throw std::out_of_range("bodyDent: no body " + smfem::json::format_number(body) +
                                " (the scene has " + std::to_string(scene_->body_count()) + ")");
      }
      const std::vector<float> dent = scene_->body_dent(static_cast<int>(body));
      return dent.empty() ? val::null() : typed_array_copy(dent, "Float32Array");
    });
  }

  // The force the bodies press on each obstacle now (ContactScene::obstacle_forces), on demand:
  // it passes over every body's samples, asleep or not, which a step need not.
  std::string obstacle_forces() const {
    json forces = json::array();
    for (const Eigen::Vector3d& force : scene_->obstacle_forces())
      forces.push_back(vector_json(force));
    return forces.dump();
  }

  void move_obstacle(double obstacle, double x, double y, double z) {
    js_errors([&] {
      scene_->move_obstacle(index_of(obstacle, "obstacle"), Eigen::Vector3d(x, y, z));
      return 0;
    });
  }

  void drag_start(double body, double vertex, double x, double y, double z, double stiffness) {
    js_errors([&] {
      scene_->drag_start(index_of(body, "body"), index_of(vertex, "render vertex"),
                         Eigen::Vector3d(x, y, z), stiffness);
      return 0;
    });
  }
  void drag_move(double x, double y, double z) { scene_->drag_move(Eigen::Vector3d(x, y, z)); }
  void drag_end() { scene_->drag_end(); }

  void reset() { scene_->reset(); }

  std::string take_warnings() { return take_warnings_of(warnings_, *scene_); }

 private:
  std::unique_ptr<smfem::multibody::ContactScene> scene_;
  int workers_ = 0;
  std::vector<std::string> warnings_;
};

// assets: [{bytes: Uint8Array, name: string}], one per body of the scene file, in its order.
JsContactScene* create_contact_scene(const std::string& scene_text, const val& assets,
                                     const std::string& source_name,
                                     const std::string& options_json) {
  return js_errors([&] {
    return new JsContactScene(scene_text, assets, source_name, json::parse(options_json));
  });
}

JsSimulator* create_simulator(const val& bytes, const std::string& source_name,
                              const std::string& options_json) {
  return js_errors(
      [&] { return new JsSimulator(to_bytes(bytes), source_name, json::parse(options_json)); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(smfem) {
  emscripten::function(
      "version", +[] { return std::string(smfem::config::version); });
  emscripten::function("build", &build_flavour);
  emscripten::function("inspectAsset", &inspect_asset);
  emscripten::function("pageAsset", &page_asset);
  emscripten::function("distinctWorkerThreads", &distinct_worker_threads);
  emscripten::class_<JsSimulator>("Simulator")
      .constructor(&create_simulator, emscripten::allow_raw_pointers())
      .function("info", &JsSimulator::info)
      .function("setParameters", &JsSimulator::set_parameters)
      .function("step", &JsSimulator::step)
      .function("coordinates", &JsSimulator::coordinates)
      .function("coordinatesF64", &JsSimulator::coordinates_f64)
      .function("diagnostics", &JsSimulator::diagnostics)
      .function("dragStart", &JsSimulator::drag_start)
      .function("dragMove", &JsSimulator::drag_move)
      .function("dragEnd", &JsSimulator::drag_end)
      .function("localPatches", &JsSimulator::local_patches)
      .function("dent", &JsSimulator::dent)
      .function("reset", &JsSimulator::reset)
      .function("snapshot", &JsSimulator::snapshot)
      .function("restore", &JsSimulator::restore)
      .function("takeWarnings", &JsSimulator::take_warnings);
  emscripten::class_<JsContactScene>("ContactScene")
      .constructor(&create_contact_scene, emscripten::allow_raw_pointers())
      .function("info", &JsContactScene::info)
      .function(
          "setParameters",
          +[](JsContactScene& scene, const std::string& parameters) {
            js_errors([&] {
              scene.set_parameters(json::parse(parameters));
              return 0;
            });
          })
      .function("step", &JsContactScene::step)
      .function("coordinatesF64", &JsContactScene::coordinates_f64)
      .function("contactPoints", &JsContactScene::contact_points)
      .function("moveObstacle", &JsContactScene::move_obstacle)
      .function("obstacleForces", &JsContactScene::obstacle_forces)
      .function("bodyDent", &JsContactScene::body_dent)
      .function("dragStart", &JsContactScene::drag_start)
      .function("dragMove", &JsContactScene::drag_move)
      .function("dragEnd", &JsContactScene::drag_end)
      .function("reset", &JsContactScene::reset)
      .function("takeWarnings", &JsContactScene::take_warnings);
}
