// The subspace against the full space over a grid of subspace sizes (Subspace MFEM,
// Trusty et al. 2023, Fig. 11: the m x |C| Pareto front), on one recipe or mesh:
//
//   smfem-study <recipe.json | mesh> --modes 2,4,8 --cubature 0,20,80 [--steps S] [--threads T]
//
// Bakes the input at every (m, |C|) pair (|C| = 0: every tet, exact integration), runs each
// subspace and once the full space from rest for S converged steps (study/subspace_study.hpp),
// and prints one JSON object:
//
//   {"input", "tets", "vertices", "steps", "timestep",
//    "full": {"tip_sag", "iterations", "solver_ms", "converged"},
//    "runs": [{"modes", "cubature", "exact", "error", "tip_sag", "iterations",
//              "ms_per_iteration", "converged", "bake_seconds"}]}
//
// error: the subspace's vertex trajectory against the full space's, mass-weighted and relative
// (relative_error); tip_sag: the largest downward displacement at the last step, m. Progress on
// stderr. Exits 2 on bad arguments, 1 on a bake or solver failure, with the message.
#include <cstdio>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/study/subspace_study.hpp"

namespace {

using namespace smfem;

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "smfem-study: " << problem
            << "\nusage: smfem-study <recipe.json | mesh> --modes M1,M2,... --cubature C1,C2,... "
               "[--steps S] [--threads T]\n";
  std::exit(2);
}

int positive_integer(const std::string& text, const std::string& option, int lowest) {
  std::size_t used = 0;
  int value = 0;
  try {
    value = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || value < lowest)
    usage(option + ": expected an integer >= " + std::to_string(lowest) + ", got \"" + text + "\"");
  return value;
}

std::vector<int> integer_list(const std::string& text, const std::string& option, int lowest) {
  std::vector<int> values;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, ',');)
    values.push_back(positive_integer(item, option, lowest));
  if (values.empty()) usage(option + ": give at least one value");
  return values;
}

struct Options {
  std::string input;
  std::vector<int> modes, cubature;
  int steps = 30;
  int threads = 2;
};

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--modes")
      options.modes = integer_list(value(), arg, 1);
    else if (arg == "--cubature")
      options.cubature = integer_list(value(), arg, 0);
    else if (arg == "--steps")
      options.steps = positive_integer(value(), arg, 1);
    else if (arg == "--threads")
      options.threads = positive_integer(value(), arg, 1);
    else if (!arg.starts_with("-") && options.input.empty())
      options.input = arg;
    else
      usage("unknown argument " + arg);
  }
  if (options.input.empty()) usage("give a recipe or a mesh");
  if (options.modes.empty() || options.cubature.empty()) usage("give --modes and --cubature");
  return options;
}

int run(const Options& options) {
  bake::BakeSettings settings;
  settings.modes = options.modes.front();
  settings.cubature = 1;
  const study::BakedScene first = study::bake_scene(options.input, settings);
  const int tets = first.full.tet_count();
  const Eigen::VectorXd vertex_mass = full::lumped_vertex_mass(first.full);
  std::cerr << "full space: " << tets << " tets, " << options.steps << " steps\n";
  const study::StudyRun full = study::run_full_space(first.full, options.steps, options.threads);

  nlohmann::json runs = nlohmann::json::array();
  for (const int modes : options.modes) {
    for (const int requested : options.cubature) {
      const bool exact = requested == 0 || requested >= tets;
      settings.modes = modes;
      settings.cubature = exact ? tets : requested;
      std::cerr << "m = " << modes << ", |C| = " << *settings.cubature << "\n";
      const study::BakedScene scene = study::bake_scene(options.input, settings);
      const study::StudyRun run = study::run_subspace(scene, options.steps, options.threads);
      runs.push_back(
          {{"modes", modes},
           {"cubature", *settings.cubature},
           {"exact", exact},
           {"error", study::relative_error(run.trajectory, full.trajectory, vertex_mass)},
           {"tip_sag", study::tip_sag(run.trajectory)},
           {"iterations", run.iterations},
           {"ms_per_iteration", run.solver_ms / std::max(run.iterations, 1)},
           {"converged", run.converged},
           {"bake_seconds", scene.bake_seconds}});
    }
  }
  const nlohmann::json out = {{"input", options.input},
                              {"tets", tets},
                              {"vertices", first.full.vertex_count()},
                              {"steps", options.steps},
                              {"timestep", first.full.defaults.timestep},
                              {"full",
                               {{"tip_sag", study::tip_sag(full.trajectory)},
                                {"iterations", full.iterations},
                                {"solver_ms", full.solver_ms},
                                {"converged", full.converged}}},
                              {"runs", runs}};
  std::cout << out.dump() << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  try {
    return run(options);
  } catch (const std::exception& error) {
    std::cerr << "smfem-study: " << error.what() << "\n";
    return 1;
  }
}
