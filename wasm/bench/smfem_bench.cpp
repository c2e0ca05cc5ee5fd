// Times the reduced stepper, or the full-space references, per solver iteration and per phase.
//
//   smfem-bench <asset.smfem> [options]
//   smfem-bench --synthetic <m> <C> [options]
//
//   --solver S          mfem | fem (the subspace solvers; default: the asset's, or mfem) or
//                       full-mfem | full-fem (full_simulator.hpp, on the whole tet mesh: the
//                       asset must be baked with --full-mesh)
//   --iters N           iterations per step (fixed count; default 2)
//   --steps S           timed steps (default 200), after untimed warm-up steps (5; 1 for the
//                       full-space solvers)
//   --threads T         threads in all (default 1)
//   --float             single-precision stiffness assembly
//   --local-deformations  the drag dents the body where it grabs (a patch at render vertex 0;
//                       the asset must be baked with --full-mesh)
//   --json              one line of JSON (default: the same, indented)
//   --write-asset FILE  with --synthetic: write the model as an asset and exit
//   --eigenfit off|S    off: step without the asset's EigenFit (sim/step/eigenfit_term.hpp); S:
//                       give the model an EigenFit of its S leading rest modes (ratios 0.7),
//                       to time the correction (with --write-asset, the asset has it)
//   --eigenfit-relinearized  re-fit it at every step (EigenFit, Chen et al. 2019, §3.3)
//
// The synthetic model is the procedural box of sim/fixtures/box_model.hpp (synthetic_box_options: m
// polynomial weight functions, C evenly spaced cubature tets, two regions of 1e5 and 1e7 Pa),
// the same model the wasm CLI builds (`npx smfem bench --synthetic m C`). The scene, also the
// same: gravity and a drag spring (1e4 N/m) pulling render vertex 0 up by 0.2 m, so that every
// iteration has work to do. The full-space solvers have gravity and pins only. Per-iteration
// times are the phases of the solver iterations
// divided by the iterations run; the prediction (one kinematics pass per step) is per step.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/asset/asset.hpp"
#include "smfem/full/full_simulator.hpp"
#include "smfem/sim/eigenfit.hpp"
#include "smfem/sim/fixtures/box_model.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/model/reduced_model_writer.hpp"
#include "smfem/sim/simulator.hpp"

namespace {

using namespace smfem;

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "smfem-bench: " << problem << "\n"
            << "usage: smfem-bench <asset.smfem> | --synthetic <m> <C>  "
               "[--solver mfem|fem|full-mfem|full-fem] "
               "[--iters N] [--steps S] [--threads T] [--float] [--local-deformations] [--json] "
               "[--write-asset FILE] "
               "[--eigenfit off|S] [--eigenfit-relinearized]\n";
  std::exit(2);
}

struct Summary {
  double median = 0.0, min = 0.0, max = 0.0;
};

Summary summarize(std::vector<double> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  return {values[values.size() / 2], values.front(), values.back()};
}

nlohmann::json to_json(const Summary& summary) {
  return {{"median", summary.median}, {"min", summary.min}, {"max", summary.max}};
}

// The timed steps' figures, per iteration and per phase.
struct Samples {
  std::vector<double> per_iteration, step_ms, prediction, linearization, assembly, solve,
      local_update, line_search;
  long iterations = 0, backtracks = 0, curvature_fallbacks = 0, failures = 0;

  void add(const sim::StepStats& stats, double step, bool ok) {
    if (!ok) ++failures;
    const sim::PhaseTimes& t = stats.times;
    step_ms.push_back(step);
    prediction.push_back(t.prediction);
    iterations += stats.iterations;
    backtracks += stats.backtracks;
    curvature_fallbacks += stats.curvature_fallbacks;
    if (stats.iterations == 0) return;
    const double k = stats.iterations;
    per_iteration.push_back((t.total() - t.prediction) / k);
    linearization.push_back(t.linearization / k);
    assembly.push_back(t.assembly / k);
    solve.push_back(t.solve / k);
    local_update.push_back(t.local_update / k);
    line_search.push_back(t.line_search / k);
  }

  void write_to(nlohmann::json& out) const {
    out["iterations_run"] = iterations;
    out["backtracks"] = backtracks;
    out["curvature_fallbacks"] = curvature_fallbacks;
    out["failed_steps"] = failures;
    out["per_iteration_ms"] = to_json(summarize(per_iteration));
    out["step_ms"] = to_json(summarize(step_ms));
    out["phases_ms"] = {{"prediction_per_step", summarize(prediction).median},
                        {"linearization", summarize(linearization).median},
                        {"assembly", summarize(assembly).median},
                        {"solve", summarize(solve).median},
                        {"local_update", summarize(local_update).median},
                        {"line_search", summarize(line_search).median}};
  }
};

// The full-space reference on the asset's tet mesh.
nlohmann::json bench_full_space(const std::string& asset_path, sim::SolverMethod method,
                                int iterations, int steps, int threads) {
  full::FullModel model = full::load_full_model(asset::Asset::from_file(asset_path));
  sim::SolverSettings settings = model.defaults;
  settings.method = method;
  settings.iterations = iterations;
  settings.until_converged = false;
  const int T = model.tet_count();
  full::FullSimulator simulator(std::move(model), settings, threads);
  simulator.step();  // warm-up
  Samples samples;
  for (int step = 0; step < steps; ++step) {
    const full::FullStepReport& report = simulator.step();
    samples.add(report.stats, report.step_ms, report.ok);
  }
  nlohmann::json out = {{"build", "native"},
                        {"solver", "full-" + std::string(sim::solver_method_name(method))},
                        {"modes", nullptr},
                        {"cubature", T},
                        {"tets", T},
                        {"dofs", simulator.dof_count()},
                        {"matrix_nonzeros", simulator.matrix_nonzeros()},
                        {"threads", threads},
                        {"iterations_per_step", iterations},
                        {"steps", steps}};
  samples.write_to(out);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string asset_path;
  int synthetic_m = 0, synthetic_C = 0;
  std::string solver, write_asset;
  int iterations = 2, steps = 200, threads = 1;
  int eigenfit_modes = 0;  // --eigenfit S
  bool local_deformations = false;
  bool single_precision = false, json = false, eigenfit_off = false, relinearized = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const auto next_int = [&](const char* what) {
      if (i + 1 >= args.size()) usage(std::string(what) + " needs a value");
      return std::atoi(args[++i].c_str());
    };
    if (arg == "--synthetic") {
      synthetic_m = next_int("--synthetic");
      synthetic_C = next_int("--synthetic");
    } else if (arg == "--solver") {
      if (i + 1 >= args.size()) usage("--solver needs a value");
      solver = args[++i];
    } else if (arg == "--iters") {
      iterations = next_int("--iters");
    } else if (arg == "--steps") {
      steps = next_int("--steps");
    } else if (arg == "--threads") {
      threads = next_int("--threads");
    } else if (arg == "--local-deformations") {
      local_deformations = true;
    } else if (arg == "--float") {
      single_precision = true;
    } else if (arg == "--write-asset") {
      if (i + 1 >= args.size()) usage("--write-asset needs a file");
      write_asset = args[++i];
    } else if (arg == "--json") {
      json = true;
    } else if (arg == "--eigenfit-relinearized") {
      relinearized = true;
    } else if (arg == "--eigenfit") {
      if (i + 1 >= args.size()) usage("--eigenfit needs off or a mode count");
      if (args[i + 1] == "off") {
        eigenfit_off = true;
        ++i;
      } else {
        eigenfit_modes = next_int("--eigenfit");
        if (eigenfit_modes < 1) usage("--eigenfit needs off or a mode count >= 1");
      }
    } else if (!arg.empty() && arg[0] != '-' && asset_path.empty()) {
      asset_path = arg;
    } else {
      usage("unknown argument " + arg);
    }
  }
  if (asset_path.empty() == (synthetic_m == 0)) usage("give an asset or --synthetic m C");
  if (synthetic_m != 0 && (synthetic_m < 1 || synthetic_C < 1))
    usage("--synthetic needs m, C >= 1");
  if (steps < 1) usage("--steps must be at least 1");
  const bool full_space = solver.rfind("full-", 0) == 0;
  if (full_space && asset_path.empty()) usage(solver + " needs an asset baked with --full-mesh");
  if (!write_asset.empty() && synthetic_m == 0) usage("--write-asset needs --synthetic m C");

  try {
    if (full_space) {
      const auto method = sim::solver_method_from_name(solver.substr(5));
      if (!method) usage("--solver must be mfem, fem, full-mfem or full-fem");
      const nlohmann::json out = bench_full_space(asset_path, *method, iterations, steps, threads);
      std::cout << (json ? out.dump() : out.dump(2)) << "\n";
      return 0;
    }
    sim::ReducedModel model =
        asset_path.empty()
            ? sim::make_box_model(sim::synthetic_box_options(synthetic_m, synthetic_C)).model
            : sim::load_reduced_model(asset::Asset::from_file(asset_path));
    if (eigenfit_modes > 0) {
      const sim::ReducedModes rest = sim::reduced_rest_modes(
          model, sim::rest_stiffness(model, model.defaults.material_model, sim::baked_lame(model)),
          eigenfit_modes);
      model.eigenfit.modes = rest.vectors;
      model.eigenfit.coarse_eigenvalues = rest.eigenvalues;
      model.eigenfit.ratios = Eigen::VectorXd::Constant(eigenfit_modes, 0.7);
      model.eigenfit.fine_eigenvalues = 0.7 * rest.eigenvalues;
    }
    if (!write_asset.empty()) {
      const std::vector<std::uint8_t> bytes = sim::reduced_model_asset_bytes(model);
      std::ofstream file(write_asset, std::ios::binary);
      file.write(reinterpret_cast<const char*>(bytes.data()),
                 static_cast<std::streamsize>(bytes.size()));
      if (!file.flush()) throw std::runtime_error("cannot write " + write_asset);
      return 0;
    }
    sim::SolverSettings settings = model.defaults;
    if (!solver.empty()) {
      const auto method = sim::solver_method_from_name(solver);
      if (!method) usage("--solver must be mfem, fem, full-mfem or full-fem");
      settings.method = *method;
    }
    settings.iterations = iterations;
    settings.until_converged = false;
    settings.single_precision_stiffness = single_precision;
    if (eigenfit_off) settings.eigen_fit = false;
    settings.eigen_fit_relinearized = relinearized;
    const int m = model.mode_count();
    const int C = model.cubature_count();
    sim::Simulator simulator(std::move(model), settings, threads);
    if (local_deformations) {
      if (asset_path.empty()) usage("--local-deformations needs an asset baked with --full-mesh");
      simulator.enable_local_deformations(
          full::load_full_model(asset::Asset::from_file(asset_path)));
    }
    for (const std::string& warning : simulator.warnings()) {
      std::cerr << "smfem-bench: warning: " << warning << "\n";
    }
    // Pull render vertex 0 up (as the wasm CLI does), so that every iteration has work to do.
    if (simulator.model().render_positions.rows() > 0) {
      const Eigen::Vector3d rest = simulator.model().render_positions.row(0).transpose();
      simulator.drag_start(0, rest + Eigen::Vector3d(0.0, 0.2, 0.0), 1e4);
    }
    constexpr int kWarmUp = 5;
    for (int step = 0; step < kWarmUp; ++step) simulator.step();
    Samples samples;
    for (int step = 0; step < steps; ++step) {
      const sim::StepReport& report = simulator.step();
      samples.add(report.stats, report.step_ms, report.ok);
    }
    nlohmann::json out = {
        {"build", "native"},
        {"solver", std::string(sim::solver_method_name(simulator.settings().method))},
        {"modes", m},
        {"cubature", C},
        {"threads", simulator.thread_count()},
        {"float_stiffness", single_precision},
        {"local_patches", simulator.local_deformations() != nullptr
                              ? simulator.local_deformations()->patch_count()
                              : 0},
        {"eigenfit_modes",
         simulator.eigen_fit_active() ? simulator.model().eigenfit.mode_count() : 0},
        {"iterations_per_step", iterations},
        {"steps", steps}};
    samples.write_to(out);
    std::cout << (json ? out.dump() : out.dump(2)) << "\n";
  } catch (const std::exception& error) {
    std::cerr << "smfem-bench: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
