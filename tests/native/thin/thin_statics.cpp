#include "thin/thin_statics.hpp"

#include <gtest/gtest.h>

namespace smfem::thin::test {

double gravity() { return sim::SolverSettings{}.gravity.norm(); }

sim::SolverSettings converging(sim::SolverMethod method, double timestep) {
  sim::SolverSettings settings;
  settings.method = method;
  settings.timestep = timestep;
  settings.iterations = 100;
  settings.until_converged = true;
  settings.relative_tolerance = 1e-10;
  settings.absolute_tolerance = 1e-18;
  return settings;
}

sim::ReducedMatrix settle(full::FullSimulator& simulator, const ThinBody& body, double speed,
                          int max_steps) {
  for (int step = 0; step < max_steps; ++step) {
    const full::FullStepReport& report = simulator.step();
    EXPECT_TRUE(report.ok) << "step " << step;
    if (!report.ok) break;
    if (step > 5 &&
        simulator.velocities().topRows(body.vertex_count).rowwise().norm().maxCoeff() < speed) {
      return simulator.displacements().topRows(body.vertex_count);
    }
  }
  ADD_FAILURE() << "still moving after " << max_steps << " steps";
  return simulator.displacements().topRows(body.vertex_count);
}

}  // namespace smfem::thin::test
