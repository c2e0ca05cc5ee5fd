#pragma once
// Static equilibria of thin bodies for the tests: implicit Euler at its longest step, converged,
// until the body stops (it damps every mode whose period is not far longer than the step).
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

}  // namespace smfem::thin::test
