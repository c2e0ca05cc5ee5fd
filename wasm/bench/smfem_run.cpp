// Runs the reduced stepper and prints the trajectory as JSON: the reference the wasm tests
// compare the WebAssembly builds against (tests/wasm/simulator.test.js), with the same inputs
// as the JS API.
//
//   smfem-run <asset.smfem> | --synthetic <m> <C>  [--steps S] [--threads T]
//             [--parameters JSON] [--drag VERTEX X Y Z K] [--displacement-basis]
//
// --parameters takes the subset {"solver", "mixedVariant", "iterations", "timestep", "gravity",
// "untilConverged", "relativeTolerance", "energyCheck", "floatStiffness"} of the JS API's
// parameters. Prints {"modes", "cubature",
// "steps": [{"ok", "iterations", "decrement", "u": [12m doubles]}]}; u = vec(U).
// --displacement-basis runs the asset's displacement basis instead (smfem-bake
// --comparison-basis; displacement/displacement_simulator.hpp, as the JS API's
// createDisplacementSimulator): "modes" is then the basis's columns k, "cubature" its quadrature's
// tets, "u" is q (k doubles), and retries and energyGain are 0.
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/asset/asset.hpp"
#include "smfem/displacement/displacement_model.hpp"
#include "smfem/displacement/displacement_simulator.hpp"
#include "smfem/sim/fixtures/box_model.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/simulator.hpp"

namespace {

using namespace smfem;
using nlohmann::json;

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "smfem-run: " << problem << "\n"
            << "usage: smfem-run <asset.smfem> | --synthetic <m> <C>  [--steps S] [--threads T] "
               "[--parameters JSON] [--drag VERTEX X Y Z K] [--displacement-basis]\n";
  std::exit(2);
}

void apply_parameters(const json& parameters, sim::SolverSettings& settings) {
  for (const auto& [key, value] : parameters.items()) {
    if (key == "solver") {
      const auto method = sim::solver_method_from_name(value.get<std::string>());
      if (!method) usage("solver must be mfem or fem");
      settings.method = *method;
    } else if (key == "iterations") {
      settings.iterations = value.get<int>();
    } else if (key == "timestep") {
      settings.timestep = value.get<double>();
    } else if (key == "gravity") {
      for (int d = 0; d < 3; ++d) settings.gravity(d) = value.at(d).get<double>();
    } else if (key == "untilConverged") {
      settings.until_converged = value.get<bool>();
    } else if (key == "mixedVariant") {
      const auto variant = sim::mixed_variant_from_name(value.get<std::string>());
      if (!variant) usage("mixedVariant must be paper, projected or curvature");
      settings.mixed_variant = *variant;
    } else if (key == "relativeTolerance") {
      settings.relative_tolerance = value.get<double>();
    } else if (key == "energyCheck") {
      settings.energy_check = value.get<bool>();
    } else if (key == "floatStiffness") {
      settings.single_precision_stiffness = value.get<bool>();
    } else {
      usage("unsupported parameter " + key);
    }
  }
}

json step_json(bool ok, int retries, double energy_gain, double kinetic,
               const sim::StepStats& stats, const Eigen::Ref<const Eigen::MatrixXd>& u) {
  return {{"ok", ok},
          {"retries", retries},
          {"energyGain", energy_gain},
          {"kinetic", kinetic},
          {"iterations", stats.iterations},
          {"decrement", stats.decrement},
          {"firstDecrement", stats.first_decrement},
          {"backtracks", stats.backtracks},
          {"lineSearchFailures", stats.line_search_failures},
          {"choleskyShifts", stats.cholesky_shifts},
          {"u", std::vector<double>(u.data(), u.data() + u.size())}};
}

json run_displacement_basis(const std::string& asset_path, const json& parameters, int steps,
                            int threads) {
  displacement::DisplacementModel model =
      displacement::load_displacement_model(asset::Asset::from_file(asset_path));
  sim::SolverSettings settings = model.mesh.defaults;
  apply_parameters(parameters, settings);
  displacement::DisplacementSimulator simulator(std::move(model.mesh), model.basis, settings,
                                                threads, std::move(model.quadrature));
  json out = {{"modes", simulator.coordinate_count()},
              {"cubature", simulator.quadrature_count()},
              {"steps", json::array()}};
  for (int step = 0; step < steps; ++step) {
    const full::FullStepReport& report = simulator.step();
    out["steps"].push_back(step_json(report.ok, 0, 0.0, simulator.kinetic_energy(), report.stats,
                                     simulator.coordinates()));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::string asset_path;
  int synthetic_m = 0, synthetic_C = 0, steps = 10, threads = 1;
  json parameters = json::object();
  bool drag = false, displacement_basis = false;
  int drag_vertex = 0;
  Eigen::Vector3d drag_target = Eigen::Vector3d::Zero();
  double drag_stiffness = 0.0;
  try {
    for (std::size_t i = 0; i < args.size(); ++i) {
      const auto next = [&]() -> const std::string& {
        if (i + 1 >= args.size()) usage(args[i] + " needs a value");
        return args[++i];
      };
      if (args[i] == "--synthetic") {
        synthetic_m = std::stoi(next());
        synthetic_C = std::stoi(next());
      } else if (args[i] == "--steps") {
        steps = std::stoi(next());
      } else if (args[i] == "--threads") {
        threads = std::stoi(next());
      } else if (args[i] == "--parameters") {
        parameters = json::parse(next());
      } else if (args[i] == "--drag") {
        drag = true;
        drag_vertex = std::stoi(next());
        for (int d = 0; d < 3; ++d) drag_target(d) = std::stod(next());
        drag_stiffness = std::stod(next());
      } else if (args[i] == "--displacement-basis") {
        displacement_basis = true;
      } else if (!args[i].empty() && args[i][0] != '-' && asset_path.empty()) {
        asset_path = args[i];
      } else {
        usage("unknown argument " + args[i]);
      }
    }
    if (asset_path.empty() == (synthetic_m == 0)) usage("give an asset or --synthetic m C");
    if (steps < 0) usage("--steps must be >= 0");
    if (displacement_basis) {
      if (asset_path.empty() || drag) usage("--displacement-basis needs an asset and no --drag");
      std::cout << run_displacement_basis(asset_path, parameters, steps, threads).dump() << "\n";
      return 0;
    }

    sim::ReducedModel model =
        asset_path.empty()
            ? sim::make_box_model(sim::synthetic_box_options(synthetic_m, synthetic_C)).model
            : sim::load_reduced_model(asset::Asset::from_file(asset_path));
    sim::SolverSettings settings = model.defaults;
    apply_parameters(parameters, settings);
    sim::Simulator simulator(std::move(model), settings, threads);
    if (drag) simulator.drag_start(drag_vertex, drag_target, drag_stiffness);
    json out = {{"modes", simulator.model().mode_count()},
                {"cubature", simulator.model().cubature_count()},
                {"steps", json::array()}};
    for (int step = 0; step < steps; ++step) {
      const sim::StepReport& report = simulator.step();
      const sim::ReducedMatrix& U = simulator.coordinates();
      out["steps"].push_back(step_json(report.ok, report.retries, report.energy_gain,
                                       report.diagnostics.kinetic_energy, report.stats, U));
    }
    std::cout << out.dump() << "\n";
  } catch (const std::exception& error) {
    std::cerr << "smfem-run: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
