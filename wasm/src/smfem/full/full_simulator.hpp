#pragma once
// Implicit Euler on a whole mesh: the full-space references of the subspace stepper, and the
// solver of thin bodies (thin/). Full-space mixed FEM (Trusty et al. 2022: a stretch and a
// multiplier per element) or FEM (Newton on the elastic energy), by the very step algorithms the
// stepper runs (sim/step/mfem_step.hpp, sim/step/fem_step.hpp) on the full discretization: the
// elements' deformation map (element_model.hpp, tet_mesh_deformation.hpp), the lumped mass, the
// constant bending term and a sparse Cholesky solve (full_system.hpp). Every element is its own
// quadrature point. Gravity, pins, the drag spring and obstacles that may move (set_contact);
// no scene loads or run-time materials.
//
// State: U, Udot (n x 3 node displacements and velocities), z and lambda (6 x E). Each step
// starts from the inertial prediction, like the stepper's. With settings.energy_check, a step
// that gains energy beyond gravity's work, or fails, is retried as the stepper retries it
// (sim/simulator.hpp: more iterations, then to convergence, then FEM to convergence); a step
// that fails in every attempt is undone. As in the stepper, a retry of the same solver goes on
// from where the last attempt stopped and stops at its first iteration that dissipates
// (sim/step/energy_check.hpp; the bench's 32 x 32 cloth: its retried steps took 3 or 4
// iterations in all where they took 2 + 8).
// With contact (set_contact: points against analytic obstacles, obstacle_contact.hpp) each step
// starts, as the stepper's, from the prediction as far as CCD lets it go, or from the step's
// start where that has the lower step energy (sim/simulator.cpp says why).
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "smfem/full/element_model.hpp"
#include "smfem/full/full_dynamics.hpp"
#include "smfem/full/full_model.hpp"
#include "smfem/full/full_system.hpp"
#include "smfem/full/local_node_relaxation.hpp"
#include "smfem/full/obstacle_contact.hpp"
#include "smfem/full/tet_mesh_deformation.hpp"
#include "smfem/parallel/thread_pool.hpp"
#include "smfem/sim/solver_settings.hpp"
#include "smfem/sim/step/energy_check.hpp"
#include "smfem/sim/step/fem_step.hpp"
#include "smfem/sim/step/mfem_step.hpp"
#include "smfem/sim/step/step_context.hpp"

namespace smfem::full {

struct FullStepReport {
  bool ok = true;
  int retries = 0;           // attempts after the first
  double energy_gain = 0.0;  // J, of the accepted attempt (mechanical_energy's, less the work)
  sim::StepStats stats;      // summed over the attempts
  int pushed = 0;            // points a moving obstacle pushed before the step
  double step_ms = 0.0;
};

class FullSimulator {
 public:
  // Throws std::invalid_argument if check_element_model (check_full_model) fails; settings are
  // clamped (warnings()).
  FullSimulator(ElementModel model, const sim::SolverSettings& settings, int thread_count = 1);
  FullSimulator(const FullModel& model, const sim::SolverSettings& settings, int thread_count = 1);
  ~FullSimulator();
  FullSimulator(const FullSimulator&) = delete;
  FullSimulator& operator=(const FullSimulator&) = delete;

  const ElementModel& model() const { return model_; }
  const sim::SolverSettings& settings() const { return settings_; }
  int dof_count() const { return system_.dof_count(); }
  Eigen::Index matrix_nonzeros() const { return system_.nonzeros(); }

  // One step; with obstacles that move (obstacle_contact.hpp: advance_obstacles), each moves
  // first to where its path has it at the step's end.
  const FullStepReport& step();
  // The simulated time: the accepted steps' timesteps since the start or set_time.
  double time() const { return time_; }
  void set_time(double time) { time_ = time; }

  // The drag spring: node `node` (rest position `rest`, m) pulled towards `target` with
  // `stiffness` (N/m) from the next step on; drag_move moves the target, drag_end removes it.
  // Throws std::invalid_argument for a node out of range or non-finite or negative values; a
  // target not finite or beyond 1e6 m is warned of (warnings()) and the node held where it is.
  void drag_start(int node, const Eigen::Vector3d& rest, const Eigen::Vector3d& target,
                  double stiffness);
  void drag_move(const Eigen::Vector3d& target);
  void drag_end();
  const std::optional<FullDynamics::Spring>& drag_spring() const { return dynamics_.spring(); }
  // k/2 |x_p - t|^2 now, or 0 without a drag spring.
  double spring_energy() const { return dynamics_.spring_energy(U_); }

  // Contact from now on (null: none). Throws std::invalid_argument if a point is not clear of
  // every obstacle now, or names a node out of range.
  void set_contact(std::unique_ptr<ObstacleContact> contact);
  const ObstacleContact* contact() const { return contact_.get(); }
  ObstacleContact* contact() { return contact_.get(); }

  // Takes U and Udot (n x 3, finite, pinned rows 0; throws std::invalid_argument) and makes
  // z and lambda consistent with U (z = s(F(U)), lambda = D^-1 grad psi(z)).
  void set_state(const sim::ReducedMatrix& U, const sim::ReducedMatrix& Udot);
  const sim::ReducedMatrix& displacements() const { return U_; }  // n x 3
  const sim::ReducedMatrix& velocities() const { return Udot_; }  // n x 3
  const sim::StretchField& stretches() const { return z_; }       // 6 x E (MFEM's z)
  // s(F_e) of every element at the current displacements (6 x E), valid until the next call.
  // On the pool: on one thread, the energy check's polar decompositions held the other thread
  // idle (a 32 x 32 cloth's step in wasm spent 2.3 ms a step outside its solver's phases, 1.9 on
  // the pool).
  const sim::StretchField& stretches_now() const { return stretches_at(U_); }
  const std::vector<sim::Lame>& lame() const { return lame_; }  // per element
  const Eigen::VectorXd& vertex_mass() const { return dynamics_.vertex_mass(); }
  // sum_v (translational mass) Udot_v.
  Eigen::Vector3d linear_momentum() const;
  // 1/2 sum_d U_d^T B U_d + the hinges' energy at the current displacements (0 without bending).
  double bending_energy() const;
  // sum_t w_t psi(s(F_t)) at the current displacements (bending not included).
  double elastic_energy() const;
  // Kinetic (every node's mass) + elastic + bending + the contact barrier's + the drag
  // spring's, at the current state; gravity's potential is not in it (the energy check counts
  // gravity's work instead).
  double mechanical_energy() const;
  const std::vector<std::string>& warnings() const { return warnings_; }
  void clear_warnings() { warnings_.clear(); }
  int thread_count() const { return pool_->thread_count(); }

 private:
  sim::StepContext context(const sim::SolverSettings& attempt);
  double elastic_energy_at(const sim::ReducedMatrix& U) const;
  const sim::StretchField& stretches_at(const sim::ReducedMatrix& U) const;  // s(F_e(U)) per e
  // The step energy the solvers minimize (inertia, gravity, bending, elasticity, contact) at U.
  double step_energy(const sim::ReducedMatrix& U);
  // After each of a mixed attempt's iterations: relaxation_ (local_node_relaxation.hpp).
  void relax_local_nodes();
  // The energy check of a step that started at mechanical energy `energy_before`, on the state
  // now (U_, Udot_): sets report_.energy_gain; true if the gain is allowed (energy_check.hpp).
  bool passes_energy_check(double energy_before);
  // Solves the step with `iterations` of the attempt's, from the prediction and z, lambda of
  // the step's start, or, going on, from the last attempt's end; false if it failed.
  bool attempt_step(const sim::StepAttempt& attempt, int iterations, bool go_on,
                    double energy_before);

  ElementModel model_;
  std::vector<std::string> warnings_;  // before settings_: its initializer appends to it
  sim::SolverSettings settings_;
  std::unique_ptr<parallel::ThreadPool> pool_;
  std::vector<sim::Lame> lame_;
  TetMeshDeformation deformation_;
  FullDynamics dynamics_;
  FullSystem system_;
  sim::FemStep fem_;
  sim::MfemStep mfem_;
  std::unique_ptr<ObstacleContact> contact_;
  // stretches_at()'s, and the U they were made at (or the solver's, at the U it returned): a
  // step's energy check, the next step's starting energy and the diagnostics between them all
  // ask for the same U.
  mutable sim::StretchField stretches_;
  mutable sim::ReducedMatrix stretches_U_;
  std::unique_ptr<LocalNodeRelaxation> relaxation_;  // of the nodes contact does not touch
  sim::ReducedMatrix gravity_force_;
  sim::ReducedMatrix initial_guess_;
  sim::ReducedMatrix U_, Udot_, U_backup_, Udot_backup_;
  double time_ = 0.0;
  // Friction's potential at the step's start: what it gives up over the step is work done on
  // the body (a moving obstacle dragging it), which the energy check counts as the stepper does.
  double friction_before_ = 0.0;
  sim::StretchField z_, lambda_, z_backup_, lambda_backup_;
  FullStepReport report_;
};

}  // namespace smfem::full
