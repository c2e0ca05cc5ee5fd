// Times the reduced stepper per solver iteration and per phase.
//
//   smfem-bench <asset.smfem> [options]
//   smfem-bench --synthetic <m> <C> [options]
//
//   --solver mfem|fem   solver (default: the asset's, or mfem)
//   --iters N           iterations per step (fixed count; default 2)
//   --steps S           timed steps (default 200), after 5 untimed warm-up steps
//   --threads T         threads in all (default 1)
//   --float             single-precision stiffness assembly
//   --json              one line of JSON (default: the same, indented)
//
// The synthetic model has m modes and C cubature tets with random Y_c (entries ~ N(0, 1/4), a
// realistic scale for a body about a metre across), a random SPD mass block and fixed
// corotational material (E = 1e6 Pa): the costs are those of a real model of the same size.
// Per-iteration times are the phases of the solver iterations divided by the iterations run;
// the prediction (one kinematics pass per step) is reported per step.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "smfem/asset/asset.hpp"
#include "smfem/sim/reduced_model.hpp"
#include "smfem/sim/simulator.hpp"

namespace {

using namespace smfem;

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "smfem-bench: " << problem << "\n"
            << "usage: smfem-bench <asset.smfem> | --synthetic <m> <C>  [--solver mfem|fem] "
               "[--iters N] [--steps S] [--threads T] [--float] [--json]\n";
  std::exit(2);
}

sim::ReducedModel synthetic_model(int m, int C) {
  std::mt19937 generator(2023u);
  std::normal_distribution<double> normal;
  const int n = 4 * m;
  sim::ReducedModel model;
  model.source = "synthetic";
  model.eigenvalues = Eigen::VectorXd::LinSpaced(m, 0.0, m - 1.0);
  Eigen::MatrixXd A(n, n);
  for (Eigen::Index i = 0; i < A.size(); ++i) A.data()[i] = normal(generator);
  model.mass_block = 100.0 * (A * A.transpose() / n + 0.1 * Eigen::MatrixXd::Identity(n, n));
  model.mass_vector = model.mass_block.col(0);
  model.first_moment = model.mass_block.topRows(3);
  model.total_mass = 100.0;
  model.rest_centroid.setZero();
  model.cubature_Y.resize(3 * C, n);
  for (Eigen::Index i = 0; i < model.cubature_Y.size(); ++i) {
    model.cubature_Y.data()[i] = 0.5 * normal(generator);
  }
  model.cubature_weights.setConstant(C, 1e-4);
  model.cubature_youngs.setConstant(C, 1e6);
  model.cubature_poisson.setConstant(C, 0.3);
  model.cubature_region.assign(static_cast<std::size_t>(C), 0u);
  model.cubature_tets.resize(static_cast<std::size_t>(C));
  for (int c = 0; c < C; ++c) model.cubature_tets[static_cast<std::size_t>(c)] = std::uint32_t(c);
  return model;
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

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string asset_path;
  int synthetic_m = 0, synthetic_C = 0;
  std::string solver;
  int iterations = 2, steps = 200, threads = 1;
  bool single_precision = false, json = false;
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
    } else if (arg == "--float") {
      single_precision = true;
    } else if (arg == "--json") {
      json = true;
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

  try {
    sim::ReducedModel model = asset_path.empty()
                                  ? synthetic_model(synthetic_m, synthetic_C)
                                  : sim::load_reduced_model(asset::Asset::from_file(asset_path));
    sim::SolverSettings settings = model.defaults;
    if (!solver.empty()) {
      const auto method = sim::solver_method_from_name(solver);
      if (!method) usage("--solver must be mfem or fem");
      settings.method = *method;
    }
    settings.iterations = iterations;
    settings.until_converged = false;
    settings.single_precision_stiffness = single_precision;
    const int m = model.mode_count();
    const int C = model.cubature_count();
    sim::Simulator simulator(std::move(model), settings, threads);
    for (const std::string& warning : simulator.warnings()) {
      std::cerr << "smfem-bench: warning: " << warning << "\n";
    }
    // Moving and deforming, so that the solver iterations have work to do.
    sim::ReducedMatrix velocity(4 * m, 3);
    std::mt19937 generator(7u);
    std::normal_distribution<double> normal(0.0, 0.05);
    for (Eigen::Index i = 0; i < velocity.size(); ++i) velocity.data()[i] = normal(generator);
    simulator.set_state(sim::ReducedMatrix::Zero(4 * m, 3), velocity);

    constexpr int kWarmUp = 5;
    for (int step = 0; step < kWarmUp; ++step) simulator.step();
    std::vector<double> per_iteration, step_ms, prediction, linearization, assembly, solve,
        local_update, line_search;
    long total_iterations = 0, backtracks = 0, failures = 0;
    for (int step = 0; step < steps; ++step) {
      const sim::StepReport& report = simulator.step();
      if (!report.ok) ++failures;
      const sim::StepStats& stats = report.stats;
      const sim::PhaseTimes& t = stats.times;
      step_ms.push_back(report.step_ms);
      prediction.push_back(t.prediction);
      total_iterations += stats.iterations;
      backtracks += stats.backtracks;
      if (stats.iterations == 0) continue;
      const double k = stats.iterations;
      per_iteration.push_back((t.total() - t.prediction) / k);
      linearization.push_back(t.linearization / k);
      assembly.push_back(t.assembly / k);
      solve.push_back(t.solve / k);
      local_update.push_back(t.local_update / k);
      line_search.push_back(t.line_search / k);
    }

    const Summary iteration = summarize(per_iteration);
    nlohmann::json out = {
        {"build", "native"},
        {"solver", std::string(sim::solver_method_name(simulator.settings().method))},
        {"modes", m},
        {"cubature", C},
        {"threads", simulator.thread_count()},
        {"float_stiffness", single_precision},
        {"iterations_per_step", iterations},
        {"steps", steps},
        {"iterations_run", total_iterations},
        {"backtracks", backtracks},
        {"failed_steps", failures},
        {"per_iteration_ms", to_json(iteration)},
        {"step_ms", to_json(summarize(step_ms))},
        {"phases_ms",
         {{"prediction_per_step", summarize(prediction).median},
          {"linearization", summarize(linearization).median},
          {"assembly", summarize(assembly).median},
          {"solve", summarize(solve).median},
          {"local_update", summarize(local_update).median},
          {"line_search", summarize(line_search).median}}}};
    if (json) {
      std::cout << out.dump() << "\n";
    } else {
      std::cout << out.dump(2) << "\n";
    }
  } catch (const std::exception& error) {
    std::cerr << "smfem-bench: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
