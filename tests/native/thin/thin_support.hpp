#pragma once
// What the thin bodies' tests share: static equilibria (implicit Euler, converged, until the
// body stops: it damps every mode whose period is not far longer than the step), the two solvers
// side by side, and refusals.
#include <functional>
#include <string>

#include "smfem/full/full_simulator.hpp"
#include "smfem/thin/thin_body.hpp"

namespace smfem::thin::test {

// The magnitude of the solver's default gravity, m/s^2.
double gravity();

// Converged steps of `method` at h = 0.1 s.
sim::SolverSettings converging(sim::SolverMethod method, double timestep = 0.1);

// Steps until no vertex moves faster than `speed` (m/s); fails the calling test (gtest) if a step
// fails or it has not stopped after `max_steps`. Returns the vertices' displacements.
sim::ReducedMatrix settle(full::FullSimulator& simulator, const ThinBody& body, double speed,
                          int max_steps = 400);

// Steps the body by converged mixed FEM and converged FEM (h = 0.01 s) side by side and expects
// their vertices to agree to 1e-6 (relative) at every step, and the body to have fallen 1 cm.
void expect_converged_solvers_agree(const ThinBody& body, int steps);

// The message of the std::invalid_argument `make` throws, or "accepted".
std::string refusal(const std::function<void()>& make);

}  // namespace smfem::thin::test
