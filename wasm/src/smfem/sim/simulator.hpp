#pragma once
// The reduced stepper behind one façade: a ReducedModel, the solver settings, the dynamic
// state and the run-time inputs (drag spring, materials; gravity and the scene's baked loads,
// scene_loads.hpp, act by themselves), stepped by implicit Euler with subspace mixed FEM or
// subspace FEM (mfem_step.hpp, fem_step.hpp).
//
// State: U, Udot (4m x 3 each, reduced_model.hpp), the stretch DOFs z and multipliers lambda
// (6 x C), the time and the step count. Each step starts from the inertial prediction
// u~ = u_n + h udot_n (a step that cannot make progress thus keeps the momentum rather than
// freezing the body), warm-starts z and lambda, runs the solver and sets
// udot_{n+1} = (u_{n+1} - u_n) / h. Under FEM, z and lambda track s(F(u)) and
// D^-1 grad psi(z), so the solver can be switched at any step.
// EigenFit: an asset that carries a fit (eigenfit.hpp) steps with the correction of
// eigenfit_term.hpp while SolverSettings::eigen_fit is on (the default); its energy C counts as
// elastic energy everywhere (the multipliers' D^-1 dC/dz too, the energy check, the diagnostics).
// Re-linearized (SolverSettings::eigen_fit_relinearized), the fit is made at the start of each
// step, before the energy check's first balance, so each step is checked against its own C.
//
// Robustness: parameters are clamped with warnings (solver_settings.hpp); a step that gains
// energy beyond the loads' work or fails is retried with more iterations (StepReport); one that
// still meets a non-finite value or an unsolvable system is undone (the state is the last good
// one, time does not advance), reported (StepReport::ok = false) and warned about.
// Allocation: everything is allocated at construction (and when the thread count, the spring
// or the set of active scene springs changes); step() allocates nothing
// unless it fails.
// Determinism: results depend only on the state and the inputs: bit-identical for any thread
// count and across snapshot/restore (see stiffness_assembly.hpp for why).
// Local deformations (issue 26, local/local_deformations.hpp): with them on, the drag spring
// dents the body where it grabs it, and contact where it presses: patches of local fields attach at
// the grabbed point and where samples are within dhat of an obstacle, the samples see the dent, and
// the steps run on the extended coordinates (the patches' state in SimulatorState::patches).
// Without a patch attached the step is the one without them, bit for bit. Not yet with EigenFit
// (off while a patch is attached) or a model of several bodies.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "smfem/full/full_model.hpp"
#include "smfem/local/local_deformations.hpp"
#include "smfem/parallel/thread_pool.hpp"
#include "smfem/sim/diagnostics.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/simulator_state.hpp"
#include "smfem/sim/solver_settings.hpp"
#include "smfem/sim/step/cubature_deformation.hpp"
#include "smfem/sim/step/dynamics.hpp"
#include "smfem/sim/step/eigenfit_term.hpp"
#include "smfem/sim/step/energy_check.hpp"
#include "smfem/sim/step/fem_step.hpp"
#include "smfem/sim/step/mfem_step.hpp"
#include "smfem/sim/step/reduced_system.hpp"
#include "smfem/sim/step/step_context.hpp"

namespace smfem::sim {

// A step is checked against the energy balance of implicit Euler (step/energy_check.hpp, which
// owns the tolerance and the attempts): H = kinetic + elastic + springs, with the springs as
// they act during the step and H holding the contact barrier's potential energy; f the step's
// generalized force (gravity, external and periodic loads), and friction's work where an
// obstacle that moves drags the body: a converged step minimizes the step energy, friction's
// potential D included, so it gains at most D(u_n) - D(u_{n+1}); against a resting obstacle or
// another body that is never positive (every slip is 0 at u_n, where D is least) and counts
// nothing, but a ball dragged along a soft block with friction had 97 retries in 80 steps for
// the energy its friction put in (2 iterations, 2026-12-02). A step that gains energy beyond
// that work, or fails, is retried; a converged step is kept whatever its gain, and where every
// retry fails, the last finite attempt is. A retry of the same solver goes on from where the
// finite attempt before it stopped (its iterations are the retry's first ones; measured on the
// shipped contact scenes at 2 iterations: 18 % fewer iterations in all, 40 % on ball-wall) and
// stops at its first iteration that dissipates energy (simulator.cpp); a failed attempt or FEM's
// fallback starts again from the step's start.

// An impact: the step's inertial prediction closes some contact pair by more than dhat. Each
// iteration's step is then cut by CCD a fraction of the way to the closest pair, so 1 or 2
// iterations end with the body stopped where it first touched: landings turn perfectly
// inelastic (the shipped jelly cube dropped 0.5 m rebounded with 0.05 J where the converged step
// squashes it 2 cm and it rebounds with 1.5 J). Such a step starts with kMoreIterations times the
// iterations, for both solvers, so the side by side stays fair. Measured at 2 iterations (8 on
// an impact): the jelly cube's squash and rebound match the converged step's to 5 %; a box with
// a soft end landing on an edge keeps 40 % of the converged rebound (it kept 0.3 %); at 1
// iteration (4 on an impact) that box still stops dead.
// In a model of several bodies (a contact scene's island) the further iterations move only the
// bodies of the pairs that approach by more than dhat: the others keep the state the first
// iterations gave them (their rows of the system, their tets and their pairs are left out), so
// that one body landing on a pile of thirty does not cost thirty bodies' iterations. Measured on
// a pile of 30 jelly cubes dropped into a box (steps 30-130, 2 iterations, native): an impact's
// further iterations moved 5 of the island's 15 bodies on average (2026-11-28).

// The warning a drag target that is not finite or lies beyond contact::kMaxCoordinate gets (the
// target is then not taken), worded once for the stepper and the contact scene.
inline const std::string kDragTargetRefused = "drag target is not finite or beyond 1e6 m";

struct StepReport {
  bool ok = true;
  // Re-linearized EigenFit: this step's modes were tangled, the rest fit stepped it instead.
  bool eigen_fit_tangled = false;
  int retries = 0;           // attempts after the first (see above)
  double energy_gain = 0.0;  // J, of the accepted attempt
  // Every retry gained energy and none converged: the last attempt was kept, not implicit
  // Euler's step (the warning says so; the page shows a notice).
  bool energy_unbalanced = false;
  StepStats stats;          // summed over the attempts
  Diagnostics diagnostics;  // of the state after the step
  double step_ms = 0.0;     // wall clock of the whole step() call
};

class Simulator {
 public:
  // Throws std::invalid_argument if check_reduced_model fails. Settings and the model's
  // materials are clamped (warnings()). thread_count is clamped by ThreadPool.
  Simulator(ReducedModel model, const SolverSettings& settings, int thread_count = 1);
  // On a pool shared with other simulators (a contact scene's islands,
  // multibody/contact_scene.hpp), which step one at a time on it.
  Simulator(ReducedModel model, const SolverSettings& settings,
            std::shared_ptr<parallel::ThreadPool> pool);
  // With the model's defaults as settings.
  explicit Simulator(ReducedModel model, int thread_count = 1);
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  const ReducedModel& model() const { return model_; }
  const SolverSettings& settings() const { return settings_; }
  void set_settings(const SolverSettings& settings);
  int thread_count() const { return pool_->thread_count(); }
  // Steps from now on run on `pool`: a contact scene steps several islands side by side, each on
  // one thread (multibody/contact_scene.hpp). Results do not depend on the pool's thread count.
  // Throws std::invalid_argument for a pool of more threads than the simulator was made with
  // (its per-thread workspaces are sized for those), std::logic_error with local deformations
  // enabled (they keep the pool they were made with).
  void set_pool(std::shared_ptr<parallel::ThreadPool> pool);

  // Sets the material of every cubature tet of `region` (clamped with a warning); warns if the
  // region has no cubature tet.
  void set_region_material(std::uint32_t region, double youngs, double poisson);
  // Current (E, nu) of cubature tet c.
  double tet_youngs(int tet) const { return youngs_(tet); }
  double tet_poisson(int tet) const { return poisson_(tet); }

  // A spring from render vertex `render_vertex` to `target` (stiffness in N/m, clamped to
  // [0, 1e12] with a warning). Throws std::out_of_range if the model has no such vertex (or no
  // render weights). drag_move changes the target only; drag_end removes the spring.
  void drag_start(int render_vertex, const Eigen::Vector3d& target, double stiffness);
  // The same from the point x = rest + U^T basis (basis: 4m entries), a point of a body of the
  // model whose render surface the model does not hold (an island's, multibody/island.hpp).
  void drag_start(const Eigen::VectorXd& basis, const Eigen::Vector3d& rest,
                  const Eigen::Vector3d& target, double stiffness);
  void drag_move(const Eigen::Vector3d& target);
  void drag_end();
  bool dragging() const { return dynamics_.has_spring(); }

  // Bodies held still at every step from now on (per body of a model of several, nonzero: held;
  // empty: none): a contact scene's sleeping bodies that awake ones rest on
  // (multibody/contact_scene.hpp). Their rows of U stay as they are, with zero velocity, and
  // take no part in the Newton system, the local updates or the translation correction, at
  // little cost; their contacts with the moving bodies act as ever. Their velocities must be
  // zero (set_state) before they are held. Throws std::invalid_argument where every body is.
  void hold_bodies(std::vector<char> held);

  // Local deformations on the body's tet mesh (the asset's mesh group with its skinning weights:
  // smfem-bake --full-mesh). With contact, its samples see the dent and load patches. Throws
  // std::invalid_argument for a model of several bodies, a mesh that does not fit the model, or a
  // contact the patches cannot take (local_deformations.hpp).
  void enable_local_deformations(full::FullModel mesh);
  // Drops the patches (the state projected onto the global modes) and the mesh.
  void disable_local_deformations();
  const local::LocalDeformations* local_deformations() const { return local_.get(); }

  // The body's contact term (sim/contact/contact_potential.hpp, owned by the caller, which keeps
  // its environment current), or nullptr for none. With it each step starts from the largest
  // intersection-free move towards the inertial prediction, and the energy balance counts the
  // barrier's potential energy.
  // translation (4m, or empty for none): the rigid translation of the bodies that can translate,
  // along which a step contact cut short is corrected (sim/contact/translation_correction.hpp).
  void set_contact(contact::ContactPotential* contact,
                   const Eigen::VectorXd& translation = Eigen::VectorXd());
  // The contact's measure at the current state (the dent included where patches are attached).
  contact::ContactMeasure contact_measure();
  // The force the body presses on each obstacle at the current state, N (empty without contact).
  std::vector<Eigen::Vector3d> obstacle_forces();
  // The contact samples' rows of `positions` (the body's contact surface, as the contact's
  // surface indexes it) that a dent has moved set to where it has moved them now; nothing
  // without patches or contact.
  void dent_samples(contact::SurfacePositions& positions);

  // One implicit Euler step; see the header comment.
  const StepReport& step();
  const StepReport& last_report() const { return report_; }

  // The state. set_state takes U and Udot (4m x 3, finite; throws std::invalid_argument) and
  // makes z and lambda consistent with U (z = s(F(u)), lambda = D^-1 grad psi(z)).
  const ReducedMatrix& coordinates() const { return state_.U; }
  const ReducedMatrix& velocities() const { return state_.Udot; }
  const StretchField& stretches() const { return state_.z; }
  const StretchField& multipliers() const { return state_.lambda; }
  double time() const { return state_.time; }
  std::int64_t step_count() const { return state_.step_count; }
  void set_state(const ReducedMatrix& U, const ReducedMatrix& Udot);
  // Back to rest (U = Udot = 0, consistent z and lambda) at time 0, step count 0. Settings,
  // materials and the drag spring are kept.
  void reset();

  // The whole dynamic state; restore() then step() reproduces the original run bit for bit
  // (given the same inputs: settings, materials, spring).
  const SimulatorState& snapshot() const { return state_; }
  void restore(const SimulatorState& state);  // throws std::invalid_argument on size mismatch
  // The same as bytes (simulator_state.hpp), the local patches' state included.
  std::vector<std::uint8_t> save_state() const;
  void load_state(std::span<const std::uint8_t> bytes);  // throws std::invalid_argument

  // Diagnostics of the current state (the last step's, or recomputed after set_state/restore).
  // A step's come from its last line-search trial, whose SVDs started from the previous
  // iterate's; recomputed ones start cold, so the two agree to rounding, not bit for bit.
  const Diagnostics& diagnostics() const { return report_.diagnostics; }

  // The EigenFit correction steps with the current settings (the asset has a fit and
  // SolverSettings::eigen_fit is on).
  bool eigen_fit_active() const { return !eigenfit_.empty() && settings_.eigen_fit && !patched(); }

  // Accumulated warnings (clamped parameters, rolled-back steps), oldest first.
  const std::vector<std::string>& warnings() const { return warnings_; }
  void clear_warnings() { warnings_.clear(); }

 private:
  void update_lame(int tet);
  // Local deformations are on and some patch is attached: the steps run on [U; C].
  bool patched() const { return local_ != nullptr && local_->patch_count() > 0; }
  // The patches for `loaded` (the state carried over, z and lambda made consistent).
  void set_loaded(std::vector<int> loaded);
  // After a step: set_loaded, unless a patch cannot be made (a warning says why) or, with contact,
  // the projected state comes closer to an obstacle than CCD allows a step to; then the patches
  // stay as they were, and a change to the same set waits (undone_wait_).
  void change_patches(std::vector<int> loaded);
  // A patch where the drag grabs the rest point `rest` (with local deformations on), the spring
  // pulling its vertex; none, with a warning, where none can be made.
  void attach_drag_patch(const Eigen::Vector3d& rest, double stiffness);
  // One attempt's solve on the extended coordinates (solve_step's, with patches).
  const TetKinematics& solve_patched(const SolverSettings& attempt, StepStats& stats, bool go_on);
  // Sets dynamics_'s anchors to the scene's spring loads active at `time`, when that set changed.
  void apply_scene_springs(double time);
  // One attempt at the step from initial_guess_, or with go_on from the state the last attempt
  // left; returns the solver's kinematics.
  // The first `whole` of the iterations on the whole model, the rest (an impact's) on the bodies
  // impact_moving_ names.
  const TetKinematics& solve_step(SolverMethod method, int iterations, int whole,
                                  bool until_converged, bool go_on);
  // An impact's further iterations move the awake bodies `moving` flags (per body of a model of
  // several), when only some of them approach.
  void hold_bodies_not_approaching(std::vector<char> moving);
  // The moving bodies of the next solves (empty: all) in the system, the contact and `context`.
  void move_only(StepContext& context, const std::vector<char>& moving,
                 const std::vector<int>& tets);
  // The step's objective at U (Psi_u, the elastic energy of s(F(U)), EigenFit's C, and contact
  // over the candidates of the last max_step(): U must lie on that segment).
  double step_energy(const ReducedMatrix& U);
  // The cubature's elastic energy of the stretches (without EigenFit's C: fit_energy()).
  double elastic_energy(const StretchField& stretch) const;
  // H of the energy check (StepReport) of a state, with stretch = s(F(U)) of the cubature's tets
  // and patch_stretch of the patches'.
  double mechanical_energy(const SimulatorState& state, const StretchField& stretch,
                           const StretchField& patch_stretch);
  // Friction's potential D at a state (0 without contact): the step's, frozen at its start.
  double friction_energy(const SimulatorState& state);
  void make_stretches_consistent();  // z = s(F(u)), lambda = D^-1 grad psi(z)
  // With EigenFit: lambda += D^-1 e_c(alpha(z)), C's share of consistent multipliers.
  void add_fit_multipliers(const StretchField& z, StretchField& lambda);
  // With EigenFit: C(stretch) (0 without).
  double fit_energy(const StretchField& stretch);
  // compute_diagnostics, plus C in the elastic, stretch and total energies.
  void update_diagnostics(const StretchField& stretch);
  void refresh_diagnostics();  // recomputes s(F(u))
  void refresh_stretches();    // stretch_ and patch_stretch_ = s(F(u)) of the state, on the pool

  ReducedModel model_;
  std::vector<std::string> warnings_;  // before settings_: its initializer appends to it
  SolverSettings settings_;
  std::shared_ptr<parallel::ThreadPool> pool_;
  int planned_threads_ = 1;  // the thread count the workspaces are sized for (set_pool)

  Eigen::VectorXd youngs_;
  Eigen::VectorXd poisson_;
  std::vector<Lame> lame_;
  ReducedMatrix gravity_force_direction_;  // mass_vector * g^T, from settings
  ReducedMatrix force_;                    // workspace: the step's total external force
  // Which of model_.loads act as anchor springs in dynamics_ now (they depend on time only).
  std::vector<char> springs_active_;

  Dynamics dynamics_;
  CubatureDeformation deformation_;
  EigenFitTerm eigenfit_;
  Eigen::VectorXd fit_measure_;  // workspace
  ReducedSystem system_;
  FemStep fem_;
  MfemStep mfem_;

  SimulatorState state_;
  SimulatorState backup_;
  SimulatorState kept_;  // the step's last finite attempt that gained energy (step())
  StretchField kept_stretch_;
  double kept_gain_ = 0.0;
  StretchField stretch_;        // s(F(u)) at the current state
  StretchField patch_stretch_;  // the same of the patches' tets
  StretchField kept_patch_stretch_;
  StretchField guess_stretch_;  // step_energy()'s workspace
  ReducedMatrix diagnostics_workspace_;
  contact::ContactPotential* contact_ = nullptr;
  Eigen::VectorXd translation_;
  ReducedMatrix initial_guess_;  // the prediction, as far as contact allows
  bool initial_guess_limited_ = false;
  bool impact_ = false;  // this step's (above)
  // The bodies every iteration moves (hold_bodies) and their tets (empty: all), and a workspace
  // for translation_ without the held bodies' rows.
  std::vector<char> awake_;
  std::vector<int> awake_tets_;
  Eigen::VectorXd awake_translation_;
  StretchField held_z_, held_lambda_;  // workspaces: the held bodies' z and lambda over FEM
  // The bodies its further iterations move and their tets: awake_'s unless fewer approach.
  std::vector<char> impact_moving_;
  std::vector<int> impact_moving_tets_;
  StepReport report_;
  std::unique_ptr<local::LocalDeformations> local_;
  // A change of patches undone costs about a step, and the loads may ask for the same set at
  // every step after (the poke's sideways press: 30 steps running). It is tried again after 1,
  // 2, 4, ... steps while they do; a different set is tried at once.
  std::vector<int> undone_loaded_;
  int undone_wait_ = 0, undone_backoff_ = 1;
  // The extended coordinates and tet fields of a patched step (workspaces).
  ReducedMatrix extended_U_, extended_U_n_, extended_Udot_;
  StretchField extended_z_, extended_lambda_;
};

}  // namespace smfem::sim
