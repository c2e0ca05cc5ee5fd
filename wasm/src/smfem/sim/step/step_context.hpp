#pragma once
// What the two solvers share during a step: the discretization (discretization.hpp), the
// per-tet weights and materials, the settings and the thread pool; and what they report.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "smfem/parallel/thread_pool.hpp"
#include "smfem/sim/material_model.hpp"
#include "smfem/sim/solver_settings.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"
#include "smfem/sim/step/discretization.hpp"

namespace smfem::sim {

class EigenFitTerm;

// Wall-clock milliseconds per phase, summed over a step's iterations.
struct PhaseTimes {
  double prediction = 0.0;     // kinematics (F, SVD, stretch) at the step's initial guess
  double linearization = 0.0;  // per-tet gradients and Hessians
  double assembly = 0.0;       // K and the reduced elastic force
  double solve = 0.0;          // Psi_u gradient, the global system and its Cholesky solve
  double local_update = 0.0;   // per-tet dz, lambda and the merit's slope (MFEM)
  double line_search = 0.0;    // trial states and their merits

  double total() const {
    return prediction + linearization + assembly + solve + local_update + line_search;
  }
  PhaseTimes& operator+=(const PhaseTimes& other) {
    prediction += other.prediction;
    linearization += other.linearization;
    assembly += other.assembly;
    solve += other.solve;
    local_update += other.local_update;
    line_search += other.line_search;
    return *this;
  }
};

struct StepStats {
  int iterations = 0;  // iterations that computed a direction
  // The decrement test passed (until_converged), or the decrement is 0 or lost in rounding.
  bool converged = false;
  double first_decrement = 0.0;  // delta of the first iteration
  double decrement = 0.0;        // delta of the last iteration
  int backtracks = 0;            // step halvings, all line searches
  int line_search_failures = 0;  // iterations that ended the step without an acceptable step
  int cholesky_shifts = 0;
  int curvature_fallbacks = 0;  // MFEM, curvature variant: directions redone without curvature
  double penalty = 0.0;         // MFEM: the last merit penalty nu
  // Contact shortened the step's start or a step of its (CCD, step_context.hpp) and no full
  // step has been taken since: the iterate is short of where inertia would carry it, and the
  // bodies lose momentum (a full Newton step restores the momentum the energy conserves).
  bool contact_limited = false;
  // Iterations of the translation correction such a step took (translation_correction.hpp).
  int translation_corrections = 0;
  // A non-finite direction, an unsolvable system, or a line search whose trials all overflowed.
  bool failed = false;
  PhaseTimes times;

  // Adds another solve's work: its backtracks, failures, shifts, fallbacks, corrections and phase
  // times (the iteration count and the flags are the caller's to combine).
  void add_work(const StepStats& other) {
    backtracks += other.backtracks;
    line_search_failures += other.line_search_failures;
    cholesky_shifts += other.cholesky_shifts;
    curvature_fallbacks += other.curvature_fallbacks;
    translation_corrections += other.translation_corrections;
    times += other.times;
  }
};

struct StepContext {
  const TetDeformation& deformation;
  const Eigen::VectorXd& weights;  // w_t per tet
  MaterialModel material;
  const std::vector<Lame>& lame;  // per tet
  const SolverSettings& settings;
  InertialEnergy& dynamics;
  StepSystem& system;
  parallel::ThreadPool& pool;
  // The contact term of Psi_u (discretization.hpp: StepContact), or none. With it, each iteration
  // adds its gradient and Hessian to the system, and the line search starts from the largest
  // intersection-free step and evaluates its energy at every trial.
  StepContact* contact = nullptr;
  // The EigenFit term of the stretch energy (eigenfit_term.hpp; the skinning subspace only),
  // or none. With it the step energy gains C(z) (MFEM; C(s(F(u))) in FEM): each tet's force its
  // stress e_c, the system its rank-s Hessian (which the system must add itself:
  // ReducedSystem::set_eigenfit), the merit or energy and the decrement their share.
  EigenFitTerm* eigenfit = nullptr;
  // The tets the iterations update, ascending: empty for all. Otherwise only these tets' bodies
  // move (an impact's further iterations, sim/simulator.hpp): the system holds the other bodies'
  // rows of U (ReducedSystem::set_moving_bodies), and their tets keep their state.
  std::span<const int> moving_tets = {};
};

inline Matrix3<double> deformation_gradient(const StepContext& context, int tet,
                                            const ReducedMatrix& U) {
  return Matrix3<double>::Identity() + context.deformation.displacement_gradient(tet, U);
}

// fn(tet) for every tet, the tets split into one contiguous range per thread.
template <class Fn>
void parallel_for_tets(parallel::ThreadPool& pool, int tet_count, Fn&& fn) {
  const int chunks = std::min(pool.thread_count(), std::max(tet_count, 1));
  pool.parallel_for(chunks, [&](int chunk) {
    const auto begin = static_cast<int>(std::int64_t(tet_count) * chunk / chunks);
    const auto end = static_cast<int>(std::int64_t(tet_count) * (chunk + 1) / chunks);
    for (int tet = begin; tet < end; ++tet) fn(tet);
  });
}

// fn(tet) for every tet the iterations update (StepContext::moving_tets), split as above.
template <class Fn>
void parallel_for_moving_tets(const StepContext& context, Fn&& fn) {
  if (context.moving_tets.empty()) {
    parallel_for_tets(context.pool, static_cast<int>(context.weights.size()), fn);
    return;
  }
  const std::span<const int> tets = context.moving_tets;
  parallel_for_tets(context.pool, static_cast<int>(tets.size()),
                    [&](int k) { fn(tets[static_cast<std::size_t>(k)]); });
}

// Adds the time since construction, or since the last lap, to a phase.
class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  void lap(double& phase_ms) {
    const auto now = std::chrono::steady_clock::now();
    phase_ms += std::chrono::duration<double, std::milli>(now - start_).count();
    start_ = now;
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace smfem::sim
