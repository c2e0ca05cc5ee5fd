// A displacement basis baked into an asset (smfem-bake --comparison-basis), stepped behind the
// JS API (loader.js: createDisplacementSimulator) with the same parameters and the same step
// reports as the skinning stepper, so `npx smfem simulate --subspace` prints the same records
// for both. No drag spring and no render surface: the comparison subspaces are for measuring.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "js_boundary.hpp"
#include "smfem/asset/asset.hpp"
#include "smfem/displacement/displacement_model.hpp"
#include "smfem/displacement/displacement_simulator.hpp"

namespace {

using namespace smfem::bindings;

// Parameters of the skinning stepper that a displacement basis has no use for: it has no
// EigenFit, no float stiffness and no energy check. Accepted with a warning, so that one set
// of parameters serves both steppers; "materials" is refused (a basis keeps its baked ones).
constexpr std::array<const char*, 4> kIgnoredParameters = {"eigenFit", "eigenFitRelinearized",
                                                           "floatStiffness", "energyCheck"};

void check_parameters(const json& parameters, std::vector<std::string>& warnings) {
  if (parameters.is_object() && parameters.contains("materials")) {
    bad_parameter("materials", "a displacement basis keeps its baked materials");
  }
  warn_inapplicable(parameters, kIgnoredParameters, "a displacement basis", warnings);
}

class JsDisplacementSimulator {
 public:
  JsDisplacementSimulator(const std::vector<std::uint8_t>& bytes, const std::string& source_name,
                          const json& options) {
    check_option_keys(options, "displacement simulator");
    const json parameters = options.value("parameters", json::object());
    check_parameters(parameters, warnings_);
    smfem::displacement::DisplacementModel model = smfem::displacement::load_displacement_model(
        smfem::asset::Asset::from_bytes(bytes, source_name));
    smfem::sim::SolverSettings settings = model.mesh.defaults;
    apply_parameters(parameters, settings);
    basis_name_ = model.basis_name;
    simulator_ = std::make_unique<smfem::displacement::DisplacementSimulator>(
        std::move(model.mesh), model.basis, settings, requested_threads(options, warnings_),
        std::move(model.quadrature));
    workers_ = simulator_->thread_count() - 1;
    free_workers -= workers_;
  }
  ~JsDisplacementSimulator() { free_workers += workers_; }
  JsDisplacementSimulator(const JsDisplacementSimulator&) = delete;
  JsDisplacementSimulator& operator=(const JsDisplacementSimulator&) = delete;

  std::string info() const {
    return json{{"basis", basis_name_},
                {"coordinates", simulator_->coordinate_count()},
                {"cubature", simulator_->quadrature_count()},
                {"tets", simulator_->model().tet_count()},
                {"vertices", simulator_->model().vertex_count()},
                {"threads", simulator_->thread_count()},
                {"source", simulator_->model().source},
                {"parameters", settings_json(simulator_->settings(), kIgnoredParameters)}}
        .dump();
  }

  void set_parameters(const std::string& parameters_json) {
    js_errors([&] {
      const json parameters = json::parse(parameters_json);
      check_parameters(parameters, warnings_);
      smfem::sim::SolverSettings settings = simulator_->settings();
      apply_parameters(parameters, settings);
      simulator_->set_settings(settings);
      return 0;
    });
  }

  std::string step(double count) {
    return js_errors([&] {
      check_step_count(count);
      json reports = json::array();
      for (int i = 0; i < count; ++i) {
        const smfem::full::FullStepReport& step = simulator_->step();
        time_ += step.ok ? simulator_->settings().timestep : 0.0;
        reports.push_back(report_json(step, simulator_->diagnostics(), time_));
        if (!step.ok) break;
      }
      return reports.dump();
    });
  }

  // q (k doubles), a copy.
  val coordinates_f64() const { return coordinates_f64_of(simulator_->coordinates()); }

  std::string diagnostics() const {
    json out = diagnostics_json(simulator_->diagnostics());
    out["time"] = time_;
    return out.dump();
  }

  void reset() {
    simulator_->reset();
    time_ = 0.0;
  }

  std::string take_warnings() { return take_warnings_of(warnings_, *simulator_); }

 private:
  std::vector<std::string> warnings_;
  std::string basis_name_;
  std::unique_ptr<smfem::displacement::DisplacementSimulator> simulator_;
  int workers_ = 0;
  double time_ = 0.0;
};

JsDisplacementSimulator* create_displacement_simulator(const val& bytes,
                                                       const std::string& source_name,
                                                       const std::string& options_json) {
  return js_errors([&] {
    return new JsDisplacementSimulator(to_bytes(bytes), source_name, json::parse(options_json));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(smfem_displacement) {
  emscripten::class_<JsDisplacementSimulator>("DisplacementSimulator")
      .constructor(&create_displacement_simulator, emscripten::allow_raw_pointers())
      .function("info", &JsDisplacementSimulator::info)
      .function("setParameters", &JsDisplacementSimulator::set_parameters)
      .function("step", &JsDisplacementSimulator::step)
      .function("coordinatesF64", &JsDisplacementSimulator::coordinates_f64)
      .function("diagnostics", &JsDisplacementSimulator::diagnostics)
      .function("reset", &JsDisplacementSimulator::reset)
      .function("takeWarnings", &JsDisplacementSimulator::take_warnings);
}
