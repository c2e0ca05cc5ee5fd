// The claims suite and the convergence study behind the JS boundary (loader.js:
// evaluateClaims, convergenceStudy), for `npx smfem claims` and the report under Node: in the
// tools module only, which the page never loads (bindings/CMakeLists.txt).
#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "js_boundary.hpp"
#include "smfem/claims/scene_claims.hpp"

namespace {

using namespace smfem::bindings;

// Threads for a claims run: two where a worker is free (the runs create and end their own
// simulators, so the workers are back in the budget when it returns).
int claims_threads() { return 1 + std::min(1, std::max(free_workers, 0)); }

// claims/scene_claims.hpp's evaluate_scene; options {"quick": bool}. Returns JSON text.
std::string evaluate_claims(const val& bytes, const std::string& name,
                            const std::string& options_json) {
  return js_errors([&] {
    const json options = json::parse(options_json);
    smfem::claims::SceneOptions scene;
    scene.quick = options.value("quick", false);
    scene.threads = claims_threads();
    return smfem::claims::evaluate_scene(name, model_from(bytes, name), scene).dump();
  });
}

// claims/scene_claims.hpp's convergence_study; options {"region": material name, and
// optionally "ratios", "loadTime", "iterations" (ConvergenceOptions' defaults)}. Returns JSON.
std::string convergence_study(const val& bytes, const std::string& name,
                              const std::string& options_json) {
  return js_errors([&] {
    const json options = json::parse(options_json);
    smfem::claims::ConvergenceOptions convergence;
    convergence.region = options.at("region").get<std::string>();
    convergence.ratios = options.value("ratios", convergence.ratios);
    convergence.load_time = options.value("loadTime", convergence.load_time);
    convergence.iterations = options.value("iterations", convergence.iterations);
    convergence.threads = claims_threads();
    return smfem::claims::convergence_study(model_from(bytes, name), convergence).dump();
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(smfem_claims) {
  emscripten::function("evaluateClaims", &evaluate_claims);
  emscripten::function("convergenceStudy", &convergence_study);
}
