#pragma once
// The product's claim, measured on one scene (Subspace MFEM, Trusty et al. 2023, §7;
// `npx smfem claims`, and the native twin build/bin/smfem-claims): at 1-2 iterations per step,
// subspace mixed FEM keeps the motion of a heterogeneous body where subspace FEM damps it.
//
// For one baked model (with its own loads, material model, m and |C|; no drag), at
// h = kAccuracyTimestep:
//   - a converged MFEM run, the reference, and converged FEM steps from its states (they must
//     agree: converged_runs);
//   - MFEM (the curvature and paper variants, sim/solver_settings.hpp; the projected one at 2,
//     not in the quick subset) and FEM at 1 and 2 iterations, each compared with the reference:
//       angular-momentum error  RMS_n |L_n - L_ref,n| / max_n |L_ref,n|   (L about the origin)
//       peak kinetic ratio      max_n KE_n / max_n KE_ref,n
//       late kinetic ratio      mean KE over the last quarter / the reference's (the reference
//                               "moves" late when that mean is above kStillFraction of its peak)
//   - (full suite) stability runs: both solvers at 1 and 2 iterations, h = 10 and 16 ms,
//     kStabilitySteps steps: failed steps, retried steps (sim/simulator.hpp) and the largest
//     energy gained beyond the loads' work, summed from the start, over the run's peak energy.
// Every run reports iterations and backtracks per step and its wall time.
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/solver_settings.hpp"

namespace smfem::claims {

inline constexpr double kAccuracyTimestep = 0.01;  // s, as in the measurements
inline constexpr int kAccuracySteps = 100;         // 1 s
inline constexpr int kQuickAccuracySteps = 60;
inline constexpr double kStillFraction = 1e-3;
inline constexpr int kStabilitySteps = 800;
inline constexpr double kStabilityTimesteps[2] = {0.01, 0.016};  // s: the suite's and the page's
inline constexpr double kConvergedTolerance = 1e-9;  // relative Newton decrement: to rounding
inline constexpr int kConvergedIterations = 200;

struct RunSpec {
  sim::SolverMethod method = sim::SolverMethod::mfem;
  sim::MixedVariant variant = sim::MixedVariant::curvature;
  int iterations = 2;  // per step; 0 = to convergence
  double timestep = kAccuracyTimestep;
  int steps = kAccuracySteps;
  // The simulator's energy check and retries (sim/simulator.hpp). Off in the accuracy runs,
  // which measure the method itself: exactly `iterations` per step.
  bool energy_check = false;

  std::string label() const;  // "mfem-curvature-2", "fem-converged", ...
};

struct Run {
  RunSpec spec;
  std::vector<Eigen::Vector3d> angular_momentum;  // after each step
  std::vector<double> kinetic;
  std::vector<Eigen::VectorXd> coordinates;  // vec(U) after each step
  int failed_steps = 0;
  int retried_steps = 0;
  double iterations_per_step = 0.0;
  double backtracks_per_step = 0.0;
  double energy_excess = 0.0;  // max_n sum_{k<=n} gain_k / max_n H_n (see above), >= 0
  double wall_ms = 0.0;
};

// Runs the model from rest with the spec's solver settings over its defaults.
Run run(const sim::ReducedModel& model, const RunSpec& spec, int threads);

struct Comparison {
  double angular_momentum_error = 0.0;
  double peak_kinetic_ratio = 0.0;
  double late_kinetic_ratio = 0.0;
  bool reference_moves_late = false;
};
Comparison compare(const Run& run, const Run& reference);

// The converged MFEM run (the reference) and, from each of its states, one converged FEM step:
// their agreement, max_n |u_mfem,n - u_fem,n|_M / max_n |u_mfem,n|_M in the mass norm (the RMS
// displacement of the material, whatever the scale of each mode's coordinates), is per step
// (comparing two whole trajectories would also measure how the dynamics amplify the solvers'
// tolerances).
struct ConvergedRuns {
  Run mfem;
  Run fem;  // its trajectory is of single steps from the reference's states
  double agreement = 0.0;
};
ConvergedRuns converged_runs(const sim::ReducedModel& model, int steps, int threads);

struct SceneOptions {
  bool quick = false;  // fewer steps, no paper variant at 1 iteration, no stability runs
  int threads = 2;
};

// Every run and comparison of one scene, with the verdicts, as JSON (the suite's format:
// {"scene", "modes", "cubature", "material", "runs": [...], "agreement", "verdicts": {...}}).
nlohmann::json evaluate_scene(const std::string& name, const sim::ReducedModel& model,
                              const SceneOptions& options);

// Trusty et al. 2023, Fig. 9: from the same deformed start (the scene's loads applied for
// `load_time` s by converged steps), the Newton decrement of each of `iterations` iterations of one
// step, for FEM and the paper's and the curvature variant of MFEM, with the material named `region`
// set to ratio x the softest other region's Young's modulus, for each ratio.
struct ConvergenceOptions {
  std::string region;  // a material name of the model's
  std::vector<double> ratios = {1e2, 1e4, 1e6};
  double load_time = 0.3;  // s
  int iterations = 30;
  int threads = 2;
};

// JSON: {"stiffRegion", "softYoungs", "iterations", "ratios": [{"ratio", "fem": [...],
// "mfem-paper": [...], "mfem-curvature": [...], "failed": [labels]}]}; a list shorter than
// "iterations" ended where the step converged (below rounding) or, for the labels in "failed",
// where it failed. Throws std::invalid_argument if the model has no such material and
// std::runtime_error if the loading steps fail.
nlohmann::json convergence_study(const sim::ReducedModel& model, const ConvergenceOptions& options);

}  // namespace smfem::claims
