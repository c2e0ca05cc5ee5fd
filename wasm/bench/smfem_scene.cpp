// Runs a scene with contact natively: the native twin of `npx smfem simulate scene.json`, for
// benchmarks and profiling (multibody/contact_scene.hpp).
//
//   smfem-scene <scene.json> <body-0.smfem> [<body-1.smfem> ...] [--steps N] [--warmup W]
//               [--iters K] [--solver mfem|fem] [--converged] [--threads T] [--json]
//               [--no-sleep]
//
// The assets are the scene's bodies in order (baked; `npx smfem simulate` caches its bakes in
// build/bake-cache). Runs W untimed steps (default 0), then N; prints one JSON line per step
// with --json (its phaseMs: the solver's phases, sim/step/step_context.hpp, summed over the
// islands, so more than the wall time where islands step side by side), and a summary: milliseconds
// per step and per iteration (medians over the N steps), iterations per step, the smallest distance
// over the N steps. --no-sleep steps every body every step (a resting body otherwise falls asleep
// and costs nothing).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/asset/asset.hpp"
#include "smfem/multibody/contact_scene.hpp"
#include "smfem/sim/model/reduced_model.hpp"

namespace {

using namespace smfem;

[[noreturn]] void usage(const std::string& problem) {
  std::cerr
      << "smfem-scene: " << problem << "\n"
      << "usage: smfem-scene <scene.json> <body.smfem>... [--steps N] [--warmup W] [--iters K] "
         "[--solver mfem|fem] [--converged] [--threads T] [--json] [--no-sleep]\n";
  std::exit(2);
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::string scene_file;
  std::vector<std::string> assets;
  int steps = 200, warmup = 0, iterations = 0, threads = 1;
  bool converged = false, json_lines = false, sleeping = true;
  std::string solver;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--steps") {
      steps = std::atoi(value().c_str());
    } else if (arg == "--warmup") {
      warmup = std::atoi(value().c_str());
    } else if (arg == "--iters") {
      iterations = std::atoi(value().c_str());
    } else if (arg == "--threads") {
      threads = std::atoi(value().c_str());
    } else if (arg == "--solver") {
      solver = value();
    } else if (arg == "--converged") {
      converged = true;
    } else if (arg == "--json") {
      json_lines = true;
    } else if (arg == "--no-sleep") {
      sleeping = false;
    } else if (!arg.empty() && arg[0] == '-') {
      usage("unknown option " + arg);
    } else if (scene_file.empty()) {
      scene_file = arg;
    } else {
      assets.push_back(arg);
    }
  }
  if (scene_file.empty() || assets.empty()) usage("give a scene file and its bodies' assets");
  if (steps < 1) usage("--steps must be positive");
  try {
    std::ifstream in(scene_file);
    if (!in) throw std::runtime_error(scene_file + ": cannot read");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const multibody::ContactSceneSpec spec =
        multibody::read_contact_scene(multibody::parse_scene_text(text, scene_file), scene_file);
    std::vector<asset::Asset> bodies;
    for (const std::string& asset : assets) bodies.push_back(asset::Asset::from_file(asset));
    const std::unique_ptr<multibody::ContactScene> loaded =
        multibody::load_contact_scene(spec, bodies, threads);
    multibody::ContactScene& scene = *loaded;
    sim::SolverSettings settings = scene.settings();
    if (!solver.empty()) {
      const auto method = sim::solver_method_from_name(solver);
      if (!method) usage("--solver must be mfem or fem");
      settings.method = *method;
    }
    if (iterations > 0) settings.iterations = iterations;
    settings.until_converged = converged;
    scene.set_settings(settings);
    scene.set_sleeping(sleeping);

    int samples = 0;
    for (int i = 0; i < scene.body_count(); ++i) {
      samples += static_cast<int>(scene.body_model(i).contact.samples.size());
    }
    for (int step = 0; step < warmup; ++step) scene.step();
    std::vector<double> step_ms, iteration_ms;
    double iteration_total = 0.0, closest = 1e300;
    int failed = 0;
    for (int step = 1; step <= steps; ++step) {
      const multibody::StepSummary& summary = scene.step();
      const sim::StepReport& report = scene.last_report();
      step_ms.push_back(summary.step_ms);
      iteration_ms.push_back(summary.step_ms / std::max(report.stats.iterations, 1));
      iteration_total += report.stats.iterations;
      closest = std::min(closest, summary.min_distance);
      failed += summary.ok ? 0 : 1;
      if (json_lines) {
        nlohmann::json body_records = nlohmann::json::array();
        for (int b = 0; b < scene.body_count(); ++b) {
          const Eigen::Vector3d c = scene.body_centroid(b);
          body_records.push_back({{"centroid", {c.x(), c.y(), c.z()}},
                                  {"kinetic", scene.body_kinetic(b)},
                                  {"clearance", scene.body_clearance(b)},
                                  {"iterations", scene.body_iterations(b)},
                                  {"asleep", scene.body_asleep(b)},
                                  {"localPatches", scene.body_patches(b)},
                                  {"patchSets", scene.body_patch_sets(b)}});
        }
        std::cout
            << nlohmann::json{{"step", step},
                              {"bodies", body_records},
                              {"ok", summary.ok},
                              {"kinetic", report.diagnostics.kinetic_energy},
                              {"minDistance", summary.min_distance},
                              {"activeContacts", summary.active_contacts},
                              {"dHat", scene.parameters().activation},
                              {"iterations", report.stats.iterations},
                              {"retries", report.retries},
                              {"translationCorrections", report.stats.translation_corrections},
                              {"contactLimited", report.stats.contact_limited},
                              {"islands", summary.islands},
                              {"asleep", summary.asleep},
                              {"merges", summary.merges},
                              {"centroid",
                               {report.diagnostics.centroid.x(), report.diagnostics.centroid.y(),
                                report.diagnostics.centroid.z()}},
                              {"wallMs", summary.step_ms},
                              {"phaseMs",
                               {{"prediction", report.stats.times.prediction},
                                {"linearization", report.stats.times.linearization},
                                {"assembly", report.stats.times.assembly},
                                {"solve", report.stats.times.solve},
                                {"localUpdate", report.stats.times.local_update},
                                {"lineSearch", report.stats.times.line_search}}}}
                   .dump()
            << "\n";
      }
    }
    std::printf(
        "%s: %d bodies, %d modes, %d cubature tets, %d contact samples; %d steps: %.3f ms per "
        "step, %.3f ms per iteration (medians), %.2f iterations per step, %d failed, closest "
        "%.3g m\n",
        scene_file.c_str(), scene.body_count(), scene.layout().modes, scene.layout().tets, samples,
        steps, median(step_ms), median(iteration_ms), iteration_total / steps, failed, closest);
    return failed > 0 ? 1 : 0;
  } catch (const std::exception& e) {
    std::cerr << "smfem-scene: " << e.what() << "\n";
    return 1;
  }
}
