#include "js_boundary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "smfem/asset/asset.hpp"
#include "smfem/json/json_text.hpp"
#include "smfem/parallel/thread_pool.hpp"
#include "smfem/sim/material_model.hpp"

namespace smfem::bindings {
namespace {

// Integers are taken into an int as they are (the settings' own clamp then warns with the value
// the caller gave: a narrower clamp here made --iters -3 warn of -1); only beyond int do they
// stop at its ends.
int integer(const json& value, const std::string& key) {
  if (!value.is_number_integer()) bad_parameter(key, "must be an integer");
  return static_cast<int>(std::clamp<std::int64_t>(
      value.get<std::int64_t>(), std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

bool boolean(const json& value, const std::string& key) {
  if (!value.is_boolean()) bad_parameter(key, "must be a boolean");
  return value.get<bool>();
}

Eigen::Vector3d vector3(const json& value, const std::string& key) {
  if (!value.is_array() || value.size() != 3) bad_parameter(key, "must be an array of 3 numbers");
  return {number(value[0], key), number(value[1], key), number(value[2], key)};
}

}  // namespace

json vector_json(const Eigen::Vector3d& v) { return json::array({v.x(), v.y(), v.z()}); }

std::vector<std::uint8_t> to_bytes(const val& bytes) {
  return emscripten::convertJSArrayToNumberVector<std::uint8_t>(bytes);
}

sim::ReducedModel model_from(const val& bytes, const std::string& source_name) {
  return sim::load_reduced_model(asset::Asset::from_bytes(to_bytes(bytes), source_name));
}

int free_workers = smfem::parallel::ThreadPool::max_thread_count() - 1;

[[noreturn]] void bad_parameter(const std::string& key, const std::string& problem) {
  throw std::invalid_argument("parameter " + key + ": " + problem);
}

void check_material_keys(const json& entry) {
  if (!entry.is_object()) return;  // the callers say what an entry must be
  for (const auto& [key, value] : entry.items()) {
    if (key != "region" && key != "youngs" && key != "poisson") {
      bad_parameter("materials",
                    "unknown key \"" + key + "\" (an entry takes region, youngs, poisson)");
    }
  }
}

double number(const json& value, const std::string& key) {
  if (!value.is_number()) bad_parameter(key, "must be a number");
  return value.get<double>();
}

void apply_parameters(const json& parameters, smfem::sim::SolverSettings& settings) {
  using namespace smfem::sim;
  if (!parameters.is_object()) throw std::invalid_argument("parameters must be an object");
  for (const auto& [key, value] : parameters.items()) {
    if (key == "solver") {
      const auto method =
          value.is_string() ? solver_method_from_name(value.get<std::string>()) : std::nullopt;
      if (!method) bad_parameter(key, "must be \"mfem\" or \"fem\"");
      settings.method = *method;
    } else if (key == "mixedVariant") {
      const auto variant =
          value.is_string() ? mixed_variant_from_name(value.get<std::string>()) : std::nullopt;
      if (!variant) bad_parameter(key, "must be \"paper\", \"projected\" or \"curvature\"");
      settings.mixed_variant = *variant;
    } else if (key == "energyCheck") {
      settings.energy_check = boolean(value, key);
    } else if (key == "eigenFit") {
      settings.eigen_fit = boolean(value, key);
    } else if (key == "eigenFitRelinearized") {
      settings.eigen_fit_relinearized = boolean(value, key);
    } else if (key == "materialModel") {
      const auto model =
          value.is_string() ? material_model_from_name(value.get<std::string>()) : std::nullopt;
      if (!model) bad_parameter(key, "must be " + smfem::sim::material_model_choices());
      settings.material_model = *model;
    } else if (key == "iterations") {
      settings.iterations = integer(value, key);
    } else if (key == "timestep") {
      settings.timestep = number(value, key);
    } else if (key == "gravity") {
      settings.gravity = vector3(value, key);
    } else if (key == "untilConverged") {
      settings.until_converged = boolean(value, key);
    } else if (key == "relativeTolerance") {
      settings.relative_tolerance = number(value, key);
    } else if (key == "absoluteTolerance") {
      settings.absolute_tolerance = number(value, key);
    } else if (key == "floatStiffness") {
      settings.single_precision_stiffness = boolean(value, key);
    } else if (key == "maxBacktracks") {
      settings.max_backtracks = integer(value, key);
    } else if (key != "materials") {
      bad_parameter(key, "is not a simulator parameter");
    }
  }
}

// A stepper's parameters in the JS API's terms (loader.d.ts: SimulatorParameters): after a
// load, the asset's defaults as the stepper read them, which the page shows.
json settings_json(const smfem::sim::SolverSettings& s, std::span<const char* const> left_out) {
  json out = {{"solver", std::string(smfem::sim::solver_method_name(s.method))},
              {"mixedVariant", std::string(smfem::sim::mixed_variant_name(s.mixed_variant))},
              {"energyCheck", s.energy_check},
              {"eigenFit", s.eigen_fit},
              {"eigenFitRelinearized", s.eigen_fit_relinearized},
              {"materialModel", std::string(smfem::sim::material_model_name(s.material_model))},
              {"iterations", s.iterations},
              {"timestep", s.timestep},
              {"gravity", vector_json(s.gravity)},
              {"untilConverged", s.until_converged},
              {"relativeTolerance", s.relative_tolerance},
              {"absoluteTolerance", s.absolute_tolerance},
              {"floatStiffness", s.single_precision_stiffness},
              {"maxBacktracks", s.max_backtracks}};
  for (const char* key : left_out) out.erase(key);
  return out;
}

void warn_inapplicable(const json& parameters, std::span<const char* const> inapplicable,
                       const std::string& stepper, std::vector<std::string>& warnings) {
  if (!parameters.is_object()) return;  // apply_parameters says so
  for (const char* key : inapplicable) {
    if (parameters.contains(key)) {
      warnings.push_back(std::string("parameter ") + key + " does not apply to " + stepper);
    }
  }
}

json diagnostics_json(const smfem::sim::Diagnostics& d) {
  return {{"energy",
           {{"kinetic", d.kinetic_energy},
            {"elastic", d.elastic_energy},
            {"stretch", d.stretch_energy},
            {"gravity", d.gravity_potential},
            {"spring", d.spring_energy},
            {"contact", d.contact_energy},
            {"total", d.total_energy}}},
          {"linearMomentum", vector_json(d.linear_momentum)},
          {"angularMomentum", vector_json(d.angular_momentum)},
          {"centroid", vector_json(d.centroid)},
          {"maxConstraintViolation", d.max_constraint_violation}};
}

json obstacle_shapes(const std::vector<smfem::contact::Obstacle>& obstacles) {
  using smfem::contact::ObstacleKind;
  json shapes = json::array();
  for (const smfem::contact::Obstacle& o : obstacles) {
    json shape{{"type", smfem::contact::obstacle_kind_name(o.kind)}};
    switch (o.kind) {
      case ObstacleKind::plane:
        shape["point"] = vector_json(o.point);
        shape["normal"] = vector_json(o.normal);
        break;
      case ObstacleKind::sphere:
        shape["center"] = vector_json(o.point);
        shape["radius"] = o.radius;
        break;
      case ObstacleKind::box:
        shape["center"] = vector_json(o.point);
        shape["halfExtents"] = vector_json(o.half_extents);
        break;
      case ObstacleKind::capsule:
        shape["from"] = vector_json(o.point);
        shape["to"] = vector_json(o.end);
        shape["radius"] = o.radius;
        break;
    }
    shapes.push_back(shape);
  }
  return shapes;
}

json report_json(const smfem::sim::StepReport& report, double time) {
  const smfem::sim::StepStats& s = report.stats;
  json out = diagnostics_json(report.diagnostics);
  out["ok"] = report.ok;
  out["retries"] = report.retries;
  out["energyGain"] = report.energy_gain;
  out["energyUnbalanced"] = report.energy_unbalanced;
  out["time"] = time;
  out["iterations"] = s.iterations;
  out["converged"] = s.converged;
  out["firstDecrement"] = s.first_decrement;
  out["decrement"] = s.decrement;
  out["lineSearchSteps"] = s.backtracks;
  out["lineSearchFailures"] = s.line_search_failures;
  out["choleskyShifts"] = s.cholesky_shifts;
  out["curvatureFallbacks"] = s.curvature_fallbacks;
  out["stepMs"] = report.step_ms;
  out["phasesMs"] = {
      {"prediction", s.times.prediction},    {"linearization", s.times.linearization},
      {"assembly", s.times.assembly},        {"solve", s.times.solve},
      {"localUpdate", s.times.local_update}, {"lineSearch", s.times.line_search}};
  return out;
}

json report_json(const full::FullStepReport& step, const sim::Diagnostics& diagnostics,
                 double time) {
  sim::StepReport report;
  report.ok = step.ok;
  report.retries = step.retries;
  report.energy_gain = step.energy_gain;
  report.stats = step.stats;
  report.step_ms = step.step_ms;
  report.diagnostics = diagnostics;
  return report_json(report, time);
}

int index_of(double value, const char* what) {
  if (!(value >= 0 && value < 2147483648.0 && std::floor(value) == value)) {
    const std::string shown = std::isnan(value) ? "NaN" : smfem::json::format_number(value);
    throw std::invalid_argument(std::string(what) + " " + shown +
                                " is not an index (a whole number from 0 to 2^31 - 1)");
  }
  return static_cast<int>(value);
}

void check_step_count(double count) {
  // A double, so that 2.7, 1e10 or NaN reach here as given, not truncated or wrapped into an int.
  if (!(count >= 0 && count <= 100000 && std::floor(count) == count)) {
    throw std::invalid_argument("step count " + smfem::json::format_number(count) +
                                " is not a whole number in [0, 100000]");
  }
}

val coordinates_f64_of(const Eigen::Ref<const Eigen::MatrixXd>& U) {
  return val::global("Float64Array")
      .new_(emscripten::typed_memory_view(static_cast<std::size_t>(U.size()), U.data()))
      .call<val>("slice");
}

// More than any machine the page runs on has; the free pthreads limit it further.
constexpr int kMaxThreads = 1024;

int requested_threads(const json& options, std::vector<std::string>& warnings) {
  int threads = SMFEM_WASM_THREADS ? 2 : 1;
  if (options.contains("threads")) {
    // A number, not only an integer: 2.5 or 1e10 is refused as given, not rounded or wrapped.
    if (!options["threads"].is_number()) bad_parameter("threads", "must be a whole number");
    const double asked = options["threads"].get<double>();
    // 0 or -1 ran on one thread, silently: a caller asking for none meant something else.
    const std::string problem = sim::outside_whole_limits(asked, 1, kMaxThreads);
    if (!problem.empty()) bad_parameter("threads", problem);
    threads = static_cast<int>(asked);
  }
  if (threads - 1 > free_workers) {
    warnings.push_back("threads " + std::to_string(threads) + ": only " +
                       std::to_string(free_workers) + " worker threads are free; using " +
                       std::to_string(1 + free_workers));
    threads = 1 + free_workers;
  }
  return threads;
}

void check_option_keys(const json& options, const char* what,
                       std::initializer_list<std::string_view> more_keys) {
  if (!options.is_object()) throw std::invalid_argument("options must be an object");
  for (const auto& [key, value] : options.items()) {
    if (key != "threads" && key != "parameters" &&
        std::find(more_keys.begin(), more_keys.end(), key) == more_keys.end()) {
      throw std::invalid_argument("option " + key + " is not a " + what + " option");
    }
  }
}

}  // namespace smfem::bindings
