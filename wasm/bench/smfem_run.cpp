// Runs the reduced stepper and prints the trajectory as JSON: the reference the wasm tests
// compare the WebAssembly builds against (tests/wasm/simulator.test.js), with the same inputs
// as the JS API.
//
//   smfem-run <asset.smfem> | --synthetic <m> <C>  [--steps S] [--threads T]
//             [--parameters JSON] [--drag VERTEX X Y Z K]
//
// --parameters takes the subset {"solver", "mixedVariant", "iterations", "timestep", "gravity",
// "untilConverged", "relativeTolerance", "energyCheck", "floatStiffness"} of the JS API's
// parameters. Prints {"modes", "cubature",
// "steps": [{"ok", "iterations", "decrement", "u": [12m doubles]}]}; u = vec(U).
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/asset/asset.hpp"
#include "smfem/sim/fixtures/box_model.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/simulator.hpp"

namespace {

using namespace smfem;
using nlohmann::json;

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "smfem-run: " << problem << "\n"
            << "usage: smfem-run <asset.smfem> | --synthetic <m> <C>  [--steps S] [--threads T] "
               "[--parameters JSON] [--drag VERTEX X Y Z K]\n";
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

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::string asset_path;
  int synthetic_m = 0, synthetic_C = 0, steps = 10, threads = 1;
  json parameters = json::object();
  bool drag = false;
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
      } else if (!args[i].empty() && args[i][0] != '-' && asset_path.empty()) {
        asset_path = args[i];
      } else {
        usage("unknown argument " + args[i]);
      }
    }
    if (asset_path.empty() == (synthetic_m == 0)) usage("give an asset or --synthetic m C");
    if (steps < 0) usage("--steps must be >= 0");

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
      out["steps"].push_back({{"ok", report.ok},
                              {"retries", report.retries},
                              {"energyGain", report.energy_gain},
                              {"kinetic", report.diagnostics.kinetic_energy},
                              {"iterations", report.stats.iterations},
                              {"decrement", report.stats.decrement},
                              {"firstDecrement", report.stats.first_decrement},
                              {"backtracks", report.stats.backtracks},
                              {"lineSearchFailures", report.stats.line_search_failures},
                              {"choleskyShifts", report.stats.cholesky_shifts},
                              {"u", std::vector<double>(U.data(), U.data() + U.size())}});
    }
    std::cout << out.dump() << "\n";
  } catch (const std::exception& error) {
    std::cerr << "smfem-run: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
