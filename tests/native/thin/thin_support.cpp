#include "thin/thin_support.hpp"

#include <algorithm>
#include <stdexcept>

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

void expect_converged_solvers_agree(const ThinBody& body, int steps) {
  full::FullSimulator mixed(body.model, converging(sim::SolverMethod::mfem, 0.01));
  full::FullSimulator standard(body.model, converging(sim::SolverMethod::fem, 0.01));
  const auto vertices = [&](const full::FullSimulator& simulator) {
    return sim::ReducedMatrix(simulator.displacements().topRows(body.vertex_count));
  };
  double worst = 0.0;
  for (int step = 0; step < steps; ++step) {
    ASSERT_TRUE(mixed.step().stats.converged) << "mixed, step " << step;
    ASSERT_TRUE(standard.step().stats.converged) << "FEM, step " << step;
    worst =
        std::max(worst, (vertices(mixed) - vertices(standard)).norm() / vertices(standard).norm());
  }
  EXPECT_LT(worst, 1e-6);
  EXPECT_GT(-vertices(standard).col(1).minCoeff(), 0.01) << "it should fall";
}

std::string refusal(const std::function<void()>& make) {
  try {
    make();
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "accepted";
}

}  // namespace smfem::thin::test
