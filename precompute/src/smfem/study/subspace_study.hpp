#pragma once
// The subspace against the full space on one baked scene (Subspace MFEM, Trusty et al. 2023,
// §4-5, Figs. 11 and 14): both run from rest with the scene's loads, every step converged, so the
// differences are the subspace's and the cubature's and not the solver's.
#include <vector>

#include <Eigen/Core>

#include "smfem/full/full_model.hpp"
#include "smfem/sim/solver_settings.hpp"
#include "smfem/study/baked_scene.hpp"

namespace smfem::study {

// Vertex displacements (n x 3), one per step.
using VertexTrajectory = std::vector<Eigen::MatrixXd>;

struct StudyRun {
  VertexTrajectory trajectory;
  bool converged = true;   // every step converged
  int iterations = 0;      // in all steps
  double solver_ms = 0.0;  // wall clock of all steps
};

// `defaults` iterated to convergence (relative 1e-8, at most 200 iterations per step).
sim::SolverSettings converging(const sim::SolverSettings& defaults);

StudyRun run_subspace(const BakedScene& scene, int steps, int threads);
StudyRun run_full_space(const full::FullModel& model, int steps, int threads);

// sqrt(sum over steps and vertices of m_v |a - b|^2 / sum m_v |b|^2).
double relative_error(const VertexTrajectory& a, const VertexTrajectory& b,
                      const Eigen::VectorXd& vertex_mass);

// The largest downward (-y) displacement of any vertex at the last step, m.
double tip_sag(const VertexTrajectory& trajectory);

}  // namespace smfem::study
