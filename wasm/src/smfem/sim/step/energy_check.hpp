#pragma once
// The energy check of a step and the attempts that follow a failed one, shared by the subspace
// stepper (sim/simulator.hpp, which explains the policy and its measurements) and the
// full-space simulator (full/full_simulator.hpp).
//
// A converged implicit Euler step never gains energy beyond the work of the loads:
//   gain = H(after) - H(before) - f . (u_{n+1} - u_n)
// (H: kinetic + elastic + springs and barrier, f: the step's generalized force; both steppers
// add friction_work, below, where a moving obstacle drags the body). A step whose gain exceeds
// allowed_energy_gain (truncated iterations overshot), or that failed, is solved again with
// kMoreIterations times the iterations, then to convergence, and where the mixed solver did not
// converge, by FEM to convergence; a converged step is kept whatever its gain. An attempt that
// goes on from the last stops at its first iteration that dissipates (below).
#include <algorithm>
#include <array>
#include <cmath>

#include "smfem/sim/solver_settings.hpp"

namespace smfem::sim {

inline constexpr double kEnergyGrowthTolerance = 1e-3;
inline constexpr double kEnergyGrowthFloor = 1e-9;  // J
inline constexpr int kMoreIterations = 4;

inline double allowed_energy_gain(double before, double after, double work) {
  return kEnergyGrowthTolerance * (std::abs(before) + std::abs(after) + std::abs(work)) +
         kEnergyGrowthFloor;
}

// Where an attempt that goes on from the last stops early: at its first iteration whose gain is at
// most 0, as a converged implicit Euler step's is. Stopping at the first within the tolerance
// instead left bodies rocking for ever, each step retried and its third iteration within the
// tolerance (rain-100 at 2 iterations, docs/performance.md#contact).
inline bool dissipates(double energy_gain) { return energy_gain <= 0.0; }

// What friction's lagged potential (sim/contact/friction.hpp) lends a step's energy balance: its
// fall over the step, the work of an obstacle that drags the body along (it is measured from
// where the obstacle carried each contact); a rise, dissipation, lends nothing.
inline double friction_work(double potential_before, double potential_after) {
  return std::max(0.0, potential_before - potential_after);
}

struct StepAttempt {
  SolverMethod method;
  int iterations;
  bool until_converged;
};

// The attempts in order, the first with `first_iterations` (the settings' iterations, or more
// where the step starts with an impact).
inline std::array<StepAttempt, 4> step_attempts(const SolverSettings& settings,
                                                int first_iterations) {
  const int more = std::min(kMoreIterations * settings.iterations, kMaxIterations);
  return {{{settings.method, first_iterations, settings.until_converged},
           {settings.method, more, settings.until_converged},
           {settings.method, kMaxIterations, true},
           {SolverMethod::fem, kMaxIterations, true}}};
}

// Whether `attempt` is to be skipped: it cannot do better than the first (same solver, no more
// iterations, no stricter convergence).
inline bool attempt_adds_nothing(const StepAttempt& attempt, const SolverSettings& settings,
                                 int first_iterations) {
  return attempt.method == settings.method &&
         (settings.until_converged || !attempt.until_converged) &&
         attempt.iterations <= first_iterations;
}

}  // namespace smfem::sim
