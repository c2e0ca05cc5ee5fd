#pragma once
// The run-time parameters of the stepper, with their admissible ranges. Out-of-range values
// are clamped (not rejected) with a warning, so a slider or a hand-edited asset can never put
// the solver into a state it cannot handle.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "smfem/sim/material_model.hpp"
#include "smfem/solver_limits.hpp"

namespace smfem::sim {

enum class SolverMethod {
  mfem,  // subspace mixed FEM (stretch DOFs at the cubature tets), mfem_step.hpp
  fem,   // subspace FEM baseline (Newton on the elastic energy in F), fem_step.hpp
};

std::string_view solver_method_name(SolverMethod method);  // "mfem", "fem"
std::optional<SolverMethod> solver_method_from_name(std::string_view name);

// How the mixed solver models the constraint's curvature in K (mfem_step.hpp).
enum class MixedVariant {
  paper,      // dropped, as in Trusty et al. 2023 (Subspace MFEM): K = sum_c w_c J_c^T H_c J_c
  projected,  // its coaxial part's PSD part (polar/stretch_curvature.hpp)
  curvature,  // its coaxial part, exact where that gives Newton a descent direction, else dropped
};

std::string_view mixed_variant_name(MixedVariant variant);  // "paper", "projected", "curvature"
std::optional<MixedVariant> mixed_variant_from_name(std::string_view name);

// Clamping ranges: kMinTimestep ... kMaxPoisson come from solver_limits.json (one owner, which
// the page reads too).
inline constexpr int kMaxBacktracks = 60;

struct SolverSettings {
  SolverMethod method = SolverMethod::mfem;
  MixedVariant mixed_variant = MixedVariant::curvature;
  MaterialModel material_model = MaterialModel::fixed_corotational;
  double timestep = 1.0 / 60.0;  // h, s
  // Solver iterations per step: at most this many. A step stops early once it has converged:
  // its Newton decrement is 0, or the decrease it predicts (delta^2 / 2) is lost in rounding
  // (lost_in_rounding, step/line_search.hpp: below 1e-12 of the magnitude of the step's
  // energies), or, when until_converged, the tolerances below are met; a line search that
  // accepts nothing ends it too. The simulator gives a step that starts with an impact, and the
  // energy check's retries, more (simulator.hpp, step/energy_check.hpp).
  int iterations = 2;
  // Iterate until the Newton decrement delta (see fem_step.hpp, mfem_step.hpp) satisfies
  //   delta <= relative_tolerance * delta_0   or   delta^2 / 2 <= absolute_tolerance,
  // delta_0 the decrement of the step's first iteration (delta^2 / 2 is the decrease of the
  // energy the Newton step predicts, in J).
  bool until_converged = false;
  double relative_tolerance = 1e-6;
  double absolute_tolerance = 1e-14;  // J
  // m/s^2; 9.8, as every shipped scene and recipe writes it.
  Eigen::Vector3d gravity{0.0, -9.8, 0.0};
  // Assemble the stiffness K in single precision (it only steers the search direction; the
  // gradients, merit and line search stay in double).
  bool single_precision_stiffness = false;
  // Check every step's energy balance and retry a step that gains energy or fails with more
  // iterations (simulator.hpp). Off: every step runs exactly as configured.
  bool energy_check = true;
  // Step-size halvings per line search before the iteration gives up (the step then ends).
  int max_backtracks = 30;
  // Apply the asset's EigenFit correction (eigenfit_term.hpp) when it carries one; no effect
  // on an asset without.
  bool eigen_fit = true;
  // Re-fit it at the state of every step's start (EigenFit, Chen et al. 2019, §3.3;
  // eigenfit_term.hpp), where the modes are not tangled; else (and off) the fit of the rest state.
  bool eigen_fit_relinearized = false;
};

// settings with every parameter clamped into its range (non-finite values replaced by the
// defaults); one message per change is appended to `warnings`.
SolverSettings clamp_settings(const SolverSettings& settings, std::vector<std::string>& warnings);

// Young's modulus and Poisson's ratio clamped to [kMinYoungs, kMaxYoungs], [kMinPoisson,
// kMaxPoisson] (non-finite: the nearest bound for E, 0.3 for nu); messages as above, naming
// `what` (e.g. "region 2").
void clamp_material(double& youngs, double& poisson, std::string_view what,
                    std::vector<std::string>& warnings);

// Why a value a file gives lies outside its range in solver_limits.json, worded once for every
// reader that refuses such a file (a body recipe, a scene file, a shell or rod recipe) where the
// stepper would clamp: "must lie in [1e-05, 0.1] s, not 0" (`unit` follows the range), "must be a
// whole number in [1, 200], not 2.5", "must be at most 1000 m/s^2 long, not 5000". Empty where
// the value lies within. The *_wanted halves, for a reader to add what it got that is no number.
std::string limits_wanted(double least, double most, std::string_view unit = "");
std::string whole_limits_wanted(int least, int most);
std::string outside_limits(double value, double least, double most, std::string_view unit = "");
std::string outside_whole_limits(double value, int least, int most);
std::string gravity_outside_limits(const Eigen::Vector3d& gravity);

}  // namespace smfem::sim
