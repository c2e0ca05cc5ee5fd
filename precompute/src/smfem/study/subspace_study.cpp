#include "smfem/study/subspace_study.hpp"

#include <cmath>

#include "smfem/full/full_simulator.hpp"
#include "smfem/sim/simulator.hpp"

namespace smfem::study {

sim::SolverSettings converging(const sim::SolverSettings& defaults) {
  sim::SolverSettings settings = defaults;
  settings.iterations = 200;
  settings.until_converged = true;
  settings.relative_tolerance = 1e-8;
  settings.absolute_tolerance = 1e-20;
  return settings;
}

StudyRun run_subspace(const BakedScene& scene, int steps, int threads) {
  sim::Simulator simulator(scene.reduced, converging(scene.reduced.defaults), threads);
  StudyRun run;
  for (int step = 0; step < steps; ++step) {
    const sim::StepReport& report = simulator.step();
    run.converged = run.converged && report.ok && report.stats.converged;
    run.iterations += report.stats.iterations;
    run.solver_ms += report.step_ms;
    run.trajectory.push_back(scene.vertex_basis * simulator.coordinates());  // row v: U^T b_v
  }
  return run;
}

StudyRun run_full_space(const full::FullModel& model, int steps, int threads) {
  full::FullSimulator simulator(model, converging(model.defaults), threads);
  StudyRun run;
  for (int step = 0; step < steps; ++step) {
    const full::FullStepReport& report = simulator.step();
    run.converged = run.converged && report.ok && report.stats.converged;
    run.iterations += report.stats.iterations;
    run.solver_ms += report.step_ms;
    run.trajectory.push_back(simulator.displacements());
  }
  return run;
}

double relative_error(const VertexTrajectory& a, const VertexTrajectory& b,
                      const Eigen::VectorXd& vertex_mass) {
  double difference = 0.0, norm = 0.0;
  for (std::size_t step = 0; step < b.size(); ++step) {
    difference += (vertex_mass.asDiagonal() * (a[step] - b[step]).rowwise().squaredNorm()).sum();
    norm += (vertex_mass.asDiagonal() * b[step].rowwise().squaredNorm()).sum();
  }
  return std::sqrt(difference / norm);
}

double tip_sag(const VertexTrajectory& trajectory) { return -trajectory.back().col(1).minCoeff(); }

}  // namespace smfem::study
