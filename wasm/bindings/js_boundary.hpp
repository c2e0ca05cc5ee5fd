#pragma once
// What every part of the JS boundary shares (bindings.cpp, claims_binding.cpp,
// displacement_binding.cpp):
// C++ exceptions as JS Errors, copies across the boundary, the JS API's parameters and reports
// (loader.d.ts: SimulatorParameters, StepReport) and the budget of worker threads.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <initializer_list>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "smfem/full/full_simulator.hpp"
#include "smfem/sim/contact/obstacle.hpp"
#include "smfem/sim/diagnostics.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/simulator.hpp"
#include "smfem/sim/solver_settings.hpp"

namespace smfem::bindings {

using emscripten::val;
using nlohmann::json;

// Rethrows any C++ exception as a JS Error carrying the same message.
template <class Fn>
auto js_errors(Fn&& fn) {
  try {
    return fn();
  } catch (const std::bad_alloc&) {  // what() is "std::bad_alloc", which names nothing
    val::global("Error")
        .new_(std::string("out of memory: this needs more than the WebAssembly module's memory "
                          "can hold (a smaller model, or fewer points or cells)"))
        .throw_();
  } catch (const std::exception& e) {
    val::global("Error").new_(std::string(e.what())).throw_();
  }
}

// A copy of `values` as a new typed array of JS type `type` (Uint8Array, Float32Array,
// Uint32Array): the typed_memory_view is only valid until the heap grows.
template <class T>
val typed_array_copy(const std::vector<T>& values, const char* type) {
  return val::global(type)
      .new_(emscripten::typed_memory_view(values.size(), values.data()))
      .template call<val>("slice");
}

std::vector<std::uint8_t> to_bytes(const val& bytes);

// The reduced model of an asset's bytes (source_name names it in errors).
sim::ReducedModel model_from(const val& bytes, const std::string& source_name);

// Emscripten's pthread pool is fixed (SMFEM_WASM_POOL_SIZE workers): simulators share it, and
// a pool that asked for more workers than remain would block forever. Each simulator takes
// its workers from this budget and gives them back on delete().
extern int free_workers;

[[noreturn]] void bad_parameter(const std::string& key, const std::string& problem);
// Refuses a key of a "materials" entry other than region, youngs and poisson (a misspelt
// "possion" was dropped without a word, the rest of the entry applied).
void check_material_keys(const json& entry);
double number(const json& value, const std::string& key);

// Applies the JS parameters (loader.d.ts: SimulatorParameters) to settings. Unknown keys and
// wrong types throw (naming the key); out-of-range values are clamped later with warnings.
// "materials" is left to the caller.
void apply_parameters(const json& parameters, sim::SolverSettings& settings);

json vector_json(const Eigen::Vector3d& v);
// A stepper's parameters in the JS API's terms (loader.d.ts: SimulatorParameters), without
// `left_out` (those that do not apply to it).
json settings_json(const sim::SolverSettings& s, std::span<const char* const> left_out = {});
// A warning for each key of `parameters` in `inapplicable` ("parameter floatStiffness does not
// apply to a shell or rod"): accepted, so that one set of parameters serves every stepper.
void warn_inapplicable(const json& parameters, std::span<const char* const> inapplicable,
                       const std::string& stepper, std::vector<std::string>& warnings);
json diagnostics_json(const sim::Diagnostics& d);
// The obstacles' shapes where they start (a step's report has their offsets since), in the
// scene file's terms: what the page draws.
json obstacle_shapes(const std::vector<contact::Obstacle>& obstacles);
// One step's report (loader.d.ts: StepReport) at simulated time `time`.
json report_json(const sim::StepReport& report, double time);
// The same for a full-space step (a displacement basis's, a shell's or a rod's) with the
// diagnostics of the state after it.
json report_json(const full::FullStepReport& step, const sim::Diagnostics& diagnostics,
                 double time);
// Throws unless count is a whole number in [0, 100000].
void check_step_count(double count);
// `value` as an index (a vertex, a body, an obstacle), passed from JS as a double so that NaN,
// 1.7 or 1e12 arrive as given (an int parameter made them 0, 1 and a wrapped -727379968);
// throws naming `what` unless it is a whole number in [0, 2^31).
int index_of(double value, const char* what);
// U (column-major) as a new Float64Array (tests compare trajectories across builds).
val coordinates_f64_of(const Eigen::Ref<const Eigen::MatrixXd>& U);
// options.threads (default 2 in the threaded build), within the free workers (a warning where
// fewer are free).
int requested_threads(const json& options, std::vector<std::string>& warnings);
// `own` warnings, then the stepper's (a Simulator or a DisplacementSimulator), as JSON; both
// emptied.
template <class Stepper>
std::string take_warnings_of(std::vector<std::string>& own, Stepper& stepper) {
  std::vector<std::string> all = std::move(own);
  own.clear();
  all.insert(all.end(), stepper.warnings().begin(), stepper.warnings().end());
  stepper.clear_warnings();
  return json(all).dump();
}

// Throws unless options is an object of "threads" and "parameters" only.
// Refuses keys of options other than threads, parameters and more_keys, naming `what` they are
// options of.
void check_option_keys(const json& options, const char* what,
                       std::initializer_list<std::string_view> more_keys = {});

}  // namespace smfem::bindings
