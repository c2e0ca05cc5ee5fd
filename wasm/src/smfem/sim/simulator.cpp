#include "smfem/sim/simulator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include "smfem/json/json_text.hpp"
#include "smfem/polar/polar.hpp"
#include "smfem/polar/stretch_vector.hpp"
#include "smfem/sim/contact/contact_potential.hpp"
#include "smfem/sim/contact/obstacle.hpp"
#include "smfem/sim/contact/translation_correction.hpp"

namespace smfem::sim {
namespace {

constexpr double kMaxSpringStiffness = 1e12;  // N/m

ReducedModel checked(ReducedModel model) {
  if (const auto problem = check_reduced_model(model)) {
    throw std::invalid_argument(model.source + ": " + problem->section + ": " + problem->problem);
  }
  return model;
}

void check_shape(const Eigen::MatrixXd& matrix, Eigen::Index rows, Eigen::Index cols,
                 const char* what) {
  if (matrix.rows() != rows || matrix.cols() != cols || !matrix.allFinite()) {
    throw std::invalid_argument(std::string(what) + " must be " + std::to_string(rows) + " x " +
                                std::to_string(cols) + " and finite");
  }
}

// U, Udot, z and lambda into `to`, whose matrices have their sizes already (no allocation).
void copy_dynamic_state(const SimulatorState& from, SimulatorState& to) {
  to.U = from.U;
  to.Udot = from.Udot;
  to.z = from.z;
  to.lambda = from.lambda;
  to.patches = from.patches;
}

}  // namespace

Simulator::Simulator(ReducedModel model, int thread_count)
    : Simulator(std::move(model), SolverSettings{}, thread_count) {
  set_settings(model_.defaults);
}

Simulator::Simulator(ReducedModel model, const SolverSettings& settings, int thread_count)
    : Simulator(std::move(model), settings, std::make_shared<parallel::ThreadPool>(thread_count)) {}

Simulator::Simulator(ReducedModel model, const SolverSettings& settings,
                     std::shared_ptr<parallel::ThreadPool> pool)
    : model_(checked(std::move(model))),
      settings_(clamp_settings(settings, warnings_)),
      pool_(std::move(pool)),
      planned_threads_(pool_->thread_count()),
      youngs_(model_.cubature_youngs),
      poisson_(model_.cubature_poisson),
      lame_(static_cast<std::size_t>(model_.cubature_count())),
      force_(ReducedMatrix::Zero(4 * model_.mode_count(), 3)),
      springs_active_(model_.loads.size(), 0),
      dynamics_(model_.mass_block, settings_.timestep),
      deformation_(model_),
      eigenfit_(model_),
      system_(model_, dynamics_, pool_->thread_count()),
      fem_(4 * model_.mode_count(), model_.cubature_count()),
      mfem_(4 * model_.mode_count(), model_.cubature_count()),
      stretch_(StretchField::Zero(6, model_.cubature_count())),
      guess_stretch_(StretchField::Zero(6, model_.cubature_count())),
      diagnostics_workspace_(ReducedMatrix::Zero(4 * model_.mode_count(), 3)) {
  const int n = 4 * model_.mode_count();
  const int C = model_.cubature_count();
  // Clamp the materials region by region, so that one warning names each region once.
  std::vector<std::uint32_t> warned;
  for (int c = 0; c < C; ++c) {
    double youngs = youngs_(c);
    double poisson = poisson_(c);
    const std::uint32_t region = model_.cubature_region[static_cast<std::size_t>(c)];
    std::vector<std::string> messages;
    clamp_material(youngs, poisson, "region " + std::to_string(region), messages);
    if (!messages.empty() && std::find(warned.begin(), warned.end(), region) == warned.end()) {
      warned.push_back(region);
      warnings_.insert(warnings_.end(), messages.begin(), messages.end());
    }
    youngs_(c) = youngs;
    poisson_(c) = poisson;
    update_lame(c);
  }
  eigenfit_.update_materials(settings_.material_model, lame_);
  system_.set_single_precision(settings_.single_precision_stiffness);
  gravity_force_direction_ = model_.mass_vector * settings_.gravity.transpose();

  state_.U.setZero(n, 3);
  state_.Udot.setZero(n, 3);
  state_.z.setZero(6, C);
  state_.lambda.setZero(6, C);
  state_.patches.C.setZero(0, 3);
  state_.patches.Cdot.setZero(0, 3);
  state_.patches.z.setZero(6, 0);
  state_.patches.lambda.setZero(6, 0);
  patch_stretch_.setZero(6, 0);
  backup_ = state_;
  kept_ = state_;
  initial_guess_ = state_.U;
  kept_stretch_ = stretch_;
  make_stretches_consistent();
  refresh_diagnostics();
}

Simulator::~Simulator() = default;

void Simulator::update_lame(int tet) {
  lame_[static_cast<std::size_t>(tet)] =
      energies::lame_from_young_poisson(youngs_(tet), poisson_(tet));
}

void Simulator::set_settings(const SolverSettings& settings) {
  const SolverSettings previous = settings_;
  settings_ = clamp_settings(settings, warnings_);
  dynamics_.set_timestep(settings_.timestep);
  system_.set_single_precision(settings_.single_precision_stiffness);
  gravity_force_direction_ = model_.mass_vector * settings_.gravity.transpose();
  if (local_ != nullptr) local_->set_material(settings_.material_model);
  if (settings_.material_model != previous.material_model) {
    eigenfit_.update_materials(settings_.material_model, lame_);
    make_stretches_consistent();
  } else if (settings_.eigen_fit_relinearized != previous.eigen_fit_relinearized) {
    eigenfit_.update_materials(settings_.material_model, lame_);  // back to the rest fit
  }
  refresh_diagnostics();
}

void Simulator::set_region_material(std::uint32_t region, double youngs, double poisson) {
  clamp_material(youngs, poisson, "region " + std::to_string(region), warnings_);
  int count = 0;
  for (int c = 0; c < model_.cubature_count(); ++c) {
    if (model_.cubature_region[static_cast<std::size_t>(c)] != region) continue;
    youngs_(c) = youngs;
    poisson_(c) = poisson;
    update_lame(c);
    ++count;
  }
  if (count == 0) {
    warnings_.push_back("region " + std::to_string(region) +
                        " has no cubature tet; material change ignored");
  }
  eigenfit_.update_materials(settings_.material_model, lame_);
  refresh_diagnostics();
}

void Simulator::drag_start(int render_vertex, const Eigen::Vector3d& target, double stiffness) {
  // The basis first: it refuses a vertex out of range before its row is read.
  const Eigen::VectorXd basis = render_vertex_basis(model_, render_vertex);
  drag_start(basis, model_.render_positions.row(render_vertex).transpose(), target, stiffness);
}

void Simulator::drag_start(const Eigen::VectorXd& basis, const Eigen::Vector3d& rest,
                           const Eigen::Vector3d& target, double stiffness) {
  if (basis.size() != 4 * model_.mode_count()) {
    throw std::invalid_argument("drag_start: the basis has " + std::to_string(basis.size()) +
                                " entries, not 4m = " + std::to_string(4 * model_.mode_count()));
  }
  DragSpring spring;
  spring.basis = basis;
  spring.rest = rest;
  spring.target = target;
  if (!contact::within_coordinate_bound(target)) {
    // Held where it is now (the new spring's point, not the last one's).
    spring.target = spring.point(state_.U);
    warnings_.push_back(kDragTargetRefused + "; the vertex is held where it is");
  }
  if (!(stiffness >= 0.0 && stiffness <= kMaxSpringStiffness)) {
    const double clamped =
        std::isnan(stiffness) ? 0.0 : std::clamp(stiffness, 0.0, kMaxSpringStiffness);
    warnings_.push_back("drag stiffness " + json::format_number(stiffness) +
                        " is outside [0, 1e12]; using " + json::format_number(clamped));
    stiffness = clamped;
  }
  spring.stiffness = stiffness;
  if (local_ != nullptr) attach_drag_patch(rest, stiffness);
  dynamics_.set_spring(spring);
  refresh_diagnostics();
}

void Simulator::drag_move(const Eigen::Vector3d& target) {
  if (!dynamics_.has_spring()) return;
  if (!contact::within_coordinate_bound(target)) {
    warnings_.push_back(kDragTargetRefused + "; ignored");
    return;
  }
  dynamics_.set_spring_target(target);
}

void Simulator::drag_end() {
  dynamics_.clear_spring();
  // The patch stays until it comes to rest (local_deformations.hpp).
  if (local_ != nullptr) local_->set_spring_vertex(-1);
  refresh_diagnostics();
}

void Simulator::enable_local_deformations(full::FullModel mesh) {
  auto next = std::make_unique<local::LocalDeformations>(
      model_, std::move(mesh), settings_.material_model, dynamics_, system_, *pool_);
  // Enabled again: the old patches' dent carried onto the global modes first, and their contact
  // gone before the new one takes the samples.
  disable_local_deformations();
  if (contact_ != nullptr) next->set_contact(contact_, model_.contact);
  local_ = std::move(next);
  state_.patches = local::PatchState{};
  state_.patches.C.setZero(0, 3);
  state_.patches.Cdot.setZero(0, 3);
  state_.patches.z.setZero(6, 0);
  state_.patches.lambda.setZero(6, 0);
  undone_loaded_.clear();  // the new patches have undone nothing yet
  undone_wait_ = 0;
  undone_backoff_ = 1;
  // A drag in progress loads the body from now on.
  if (dynamics_.has_spring()) {
    attach_drag_patch(dynamics_.spring().rest, dynamics_.spring().stiffness);
  }
  refresh_diagnostics();
}

void Simulator::disable_local_deformations() {
  if (local_ == nullptr) return;
  set_loaded({});
  local_.reset();
  refresh_diagnostics();
}

void Simulator::attach_drag_patch(const Eigen::Vector3d& rest, double stiffness) {
  // The grabbed point loads the body: a patch there (the state carried over exactly: the new
  // basis holds the old). Where none can be made (pinned all round) or its dent would not show
  // (LocalDeformations::drag_dents), the drag goes on without.
  int vertex = local_->nearest_surface_vertex(rest);
  if (!local_->drag_dents(vertex, stiffness)) {
    local_->set_spring_vertex(-1);
    return;
  }
  std::vector<int> loaded = state_.patches.loaded;
  loaded.push_back(vertex);
  try {
    set_loaded(std::move(loaded));
  } catch (const std::invalid_argument& error) {
    warnings_.push_back(std::string("no local deformation where the drag grabs: ") + error.what());
    vertex = -1;
  }
  local_->set_spring_vertex(vertex);
}

void Simulator::change_patches(std::vector<int> loaded) {
  // The change projects the state onto the new basis (basis_change.hpp), moving what that basis
  // cannot hold: a sample can land in an obstacle, where the barrier is infinite and every later
  // step is stuck. A change that keeps less than CCD's share of the closest distance waits for a
  // later step (the loads are gathered again after it).
  const double before = contact_ != nullptr ? contact_measure().min_distance : 0.0;
  const SimulatorState kept = state_;
  const auto wait_before_trying_again = [&] {
    undone_backoff_ = loaded == undone_loaded_ ? 2 * undone_backoff_ : 1;
    undone_wait_ = undone_backoff_;
    undone_loaded_ = std::move(loaded);
  };
  try {
    set_loaded(loaded);
  } catch (const std::invalid_argument& error) {
    // Nothing changed (local_deformations.hpp): the patches stay as they were.
    warnings_.push_back("step " + std::to_string(state_.step_count) +
                        ": the patches stay as they were: " + error.what());
    wait_before_trying_again();
    return;
  }
  refresh_diagnostics();
  if (contact_ == nullptr ||
      contact_measure().min_distance >= contact_->parameters().keep * before) {
    undone_loaded_.clear();
    undone_backoff_ = 1;
    return;
  }
  restore(kept);
  wait_before_trying_again();
}

void Simulator::set_loaded(std::vector<int> loaded) {
  local_->set_cubature_lame(lame_);  // the current materials, before z and lambda are made
  local_->set_loaded(std::move(loaded), state_.U, state_.Udot, state_.patches);
  patch_stretch_.setZero(6, local_->patches().tet_count());
  make_stretches_consistent();
}

void Simulator::set_pool(std::shared_ptr<parallel::ThreadPool> pool) {
  if (pool == nullptr || pool->thread_count() > planned_threads_) {
    throw std::invalid_argument("Simulator::set_pool: a pool of at most " +
                                std::to_string(planned_threads_) + " threads");
  }
  if (pool == pool_) return;
  if (local_ != nullptr) {
    throw std::logic_error("Simulator::set_pool: local deformations keep their pool");
  }
  pool_ = std::move(pool);
  if (contact_ != nullptr) contact_->set_pool(pool_.get());
}

void Simulator::set_contact(contact::ContactPotential* contact,
                            const Eigen::VectorXd& translation) {
  if (local_ != nullptr) local_->set_contact(contact, model_.contact);
  contact_ = contact;
  if (contact_ != nullptr) contact_->set_pool(pool_.get());
  translation_ = translation;
  system_.set_contact(contact);
}

void Simulator::dent_samples(contact::SurfacePositions& positions) {
  if (!patched() || contact_ == nullptr) return;
  local_->gather(state_.U, state_.patches.C, extended_U_);
  local_->contact()->dented_positions(extended_U_, positions);
}

contact::ContactMeasure Simulator::contact_measure() {
  if (contact_ == nullptr) return {};
  if (!patched()) return contact_->measure(state_.U);
  local_->gather(state_.U, state_.patches.C, extended_U_);
  return local_->contact()->measure(extended_U_);
}

std::vector<Eigen::Vector3d> Simulator::obstacle_forces() {
  if (contact_ == nullptr) return {};
  if (!patched()) return contact_->obstacle_forces(state_.U);
  local_->gather(state_.U, state_.patches.C, extended_U_);
  return local_->contact()->obstacle_forces(extended_U_);
}

const StepReport& Simulator::step() {
  Stopwatch clock;
  copy_dynamic_state(state_, backup_);

  const double end_time = state_.time + settings_.timestep;
  force_ = gravity_force_direction_;
  add_periodic_loads(model_.loads, end_time, force_);
  apply_scene_springs(end_time);
  dynamics_.begin_step(backup_.U, backup_.Udot, force_);
  if (patched()) {
    // The patches turn with the body: the state is carried to this step's rotations, and the
    // energy check starts from it. Where they kept their rotations, the stretches of the last
    // step's end still hold.
    if (local_->begin_step(backup_.U, backup_.Udot, backup_.patches, force_, settings_.gravity,
                           lame_)) {
      copy_dynamic_state(backup_, state_);
      refresh_stretches();
    }
  }
  // With patches, their dented contact (local_->begin_step started it). Its pairs are gathered
  // for this step's moving bodies.
  if (contact_ != nullptr) contact_->set_moving_parts(awake_);
  // Towards the prediction as far as contact allows.
  initial_guess_ = patched() ? local_->prediction() : dynamics_.prediction();
  for (std::size_t b = 0; b < awake_.size(); ++b) {
    if (awake_[b]) continue;
    const ReducedModel::Body& body = model_.bodies[b];
    initial_guess_.middleRows(4 * body.first_mode, 4 * body.modes) =
        backup_.U.middleRows(4 * body.first_mode, 4 * body.modes);
  }
  initial_guess_limited_ = false;
  impact_ = false;
  impact_moving_ = awake_;
  impact_moving_tets_ = awake_tets_;
  if (contact_ != nullptr) {
    if (patched()) local_->gather(backup_.U, backup_.patches.C, extended_U_n_);
    const ReducedMatrix& start = patched() ? extended_U_n_ : backup_.U;
    initial_guess_ -= start;
    // Friction frozen at the start, and the first segment's pairs gathered once for both.
    if (!patched()) contact_->begin_step(start, initial_guess_);
    const double start_step = patched() ? local_->contact()->max_step(start, initial_guess_)
                                        : contact_->max_step(start, initial_guess_);
    initial_guess_ = start + start_step * initial_guess_;
    initial_guess_limited_ = start_step < 1.0;
    const double activation = contact_->parameters().activation;
    const double approach =
        patched() ? local_->contact()->largest_approach() : contact_->largest_approach();
    impact_ = initial_guess_limited_ && approach > activation;
    if (impact_ && model_.bodies.size() > 1) {
      hold_bodies_not_approaching(contact_->parts_approaching(activation));
    }
    // Where contact cut the prediction short, the bodies stop a tenth of their distance from
    // what they were falling onto, deep in the barrier, and 1 or 2 iterations from there end
    // far from equilibrium: a body resting on the ground gained energy every step and the
    // energy check retried half the steps of a pile to convergence. The start of the step may
    // be the better guess (a resting body is at equilibrium there): the one of lower step
    // energy is taken. With patches the start is taken: the dented samples are soft, the cut
    // prediction pressed them a tenth of their distance from the obstacle while the rest of the
    // body slid on (it has the lower energy), and without the translation correction that
    // makes up for it without patches, 2 iterations from there left them closer each step: a
    // dented block sliding down a slope closed to 1e-12 m of the floor, where from the start
    // it held 1.4-2.3e-5 m as converged steps do (SceneLocalDeformations.Friction...).
    if (initial_guess_limited_ &&
        (patched() || step_energy(start) <= step_energy(initial_guess_))) {
      initial_guess_ = start;
    }
  }
  // The re-linearized fit of this step (eigenfit_term.hpp), before anything measures C.
  report_.eigen_fit_tangled = false;
  if (eigen_fit_active() && settings_.eigen_fit_relinearized) {
    report_.eigen_fit_tangled = !eigenfit_.relinearize(backup_.U, backup_.z, *pool_);
  }
  // With this step's springs, so that a moved drag target or a released spring counts as
  // energy put in (or taken out) before the step, not as a gain of the step.
  const double energy_before = mechanical_energy(backup_, stretch_, patch_stretch_);
  const double friction_before = friction_energy(backup_);

  report_.stats = StepStats{};
  report_.retries = 0;
  report_.energy_gain = 0.0;
  report_.energy_unbalanced = false;
  report_.step_ms = 0.0;  // the stopwatch adds to it
  // The fallbacks of a step that gained energy or failed (step/energy_check.hpp).
  const SolverMethod method = settings_.method;
  const int iterations = settings_.iterations;
  const int first = impact_ ? std::min(kMoreIterations * iterations, kMaxIterations) : iterations;
  const std::array<StepAttempt, 4> attempts = step_attempts(settings_, first);
  bool ok = false;
  bool have_kept = false;   // kept_: the last finite attempt, which gained energy
  bool gaining = false;     // the attempt in state_ (or kept_) gained energy and did not converge
  int budget = 0;           // the iterations given to the attempts the current one goes on from
  int failed_searches = 0;  // the last attempt's iterations whose line search accepted nothing
  // Whether the attempt in state_ keeps the energy balance (the gain goes to report_).
  const auto balanced = [&](const TetKinematics& kinematics) {
    double work = force_.cwiseProduct(state_.U - backup_.U).sum();
    if (patched()) {
      local_->scatter_tets(kinematics.s, stretch_, patch_stretch_);
      work += local_->local_force().cwiseProduct(state_.patches.C - backup_.patches.C).sum();
    } else {
      stretch_ = kinematics.s;
    }
    work += friction_work(friction_before, friction_energy(state_));
    const double energy_after = mechanical_energy(state_, stretch_, patch_stretch_);
    report_.energy_gain = energy_after - energy_before - work;
    return report_.energy_gain <= allowed_energy_gain(energy_before, energy_after, work);
  };
  for (std::size_t attempt = 0; attempt < attempts.size(); ++attempt) {
    const StepAttempt& a = attempts[attempt];
    // The first iterations run on the whole model (the rest: an impact's moving bodies).
    const int whole = attempt == 0 ? iterations : a.iterations;
    bool go_on = false;
    if (attempt > 0) {
      if (!settings_.energy_check) break;
      // A converged step is implicit Euler itself: kept, however it came out.
      if (ok && report_.stats.converged) {
        gaining = false;
        break;
      }
      // An attempt that cannot do better than the last is skipped; FEM is only the mixed
      // solver's fallback.
      if (attempt_adds_nothing(a, settings_, first)) continue;
      if (a.method != method && method == SolverMethod::fem) break;
      ++report_.retries;
      // More iterations of the same solver go on from where the last attempt stopped, so its
      // iterations are not spent twice. They carry U, z and lambda over, but not the mixed
      // step's merit penalties (MfemStep's nu, which restart at 0 with each solve), so the
      // iterations after them need not be bit for bit those of one longer attempt. A failed
      // attempt, or another solver, starts again from the step's start (z and lambda warm-started
      // there, U from initial_guess_).
      go_on = ok && a.method == attempts[attempt - 1].method;
      if (!go_on) {
        copy_dynamic_state(backup_, state_);
        budget = 0;
      }
    }
    const int failed_before = report_.stats.line_search_failures;
    // An attempt that goes on from the last runs its iterations one at a time and stops at the
    // first that dissipates (step/energy_check.hpp), else runs them all and is judged by the
    // balance. Run whole, a creeping pile of 20 jelly cubes spent 6 iterations of its 20-body
    // island on every retry, and a retry to convergence once took 45 (793 ms in wasm); measured
    // natively (2 iterations, 1 thread, body-iterations: each step's island iterations summed over
    // the bodies): the pile of 20, 600 steps, 23,377 -> 14,202 (asleep whole from step 544 ->
    // 331); the bench's pile of 30, 400 steps, 44,636 -> 27,253 (never asleep whole -> from step
    // 268); rain-100, 600 steps, 43,182 -> 36,485 (88 -> 95 asleep). Single bodies retry more
    // often for fewer iterations each: jelly-drop 233 -> 251, creature-ramp 844 -> 904,
    // bunny-drop 200 -> 209 (400 steps).
    const int remaining = a.iterations - budget;
    const int solves = go_on ? remaining : 1;
    bool passes = false;
    for (int k = 0; k < solves; ++k) {
      const int searches_before = report_.stats.line_search_failures;
      const TetKinematics& kinematics =
          go_on ? solve_step(a.method, 1, 1, a.until_converged, true)
                : solve_step(a.method, remaining, whole - budget, a.until_converged, false);
      ok = !report_.stats.failed && state_.U.allFinite() && state_.Udot.allFinite() &&
           state_.z.allFinite() && state_.lambda.allFinite();
      if (!ok) break;
      passes = balanced(kinematics);
      // A line search that accepted nothing ends the attempt where it stands, as it ends a solve.
      if (dissipates(report_.energy_gain) || report_.stats.converged ||
          report_.stats.line_search_failures > searches_before) {
        break;
      }
    }
    failed_searches = report_.stats.line_search_failures - failed_before;
    budget = a.iterations;
    gaining = false;
    if (!ok) continue;
    if (passes) break;
    gaining = !report_.stats.converged;
    copy_dynamic_state(state_, kept_);
    kept_stretch_ = stretch_;
    kept_patch_stretch_ = patch_stretch_;
    kept_gain_ = report_.energy_gain;
    have_kept = true;
  }
  // Every retry failed: the last finite attempt is still a step (it only gained energy).
  if (!ok && have_kept) {
    copy_dynamic_state(kept_, state_);
    stretch_ = kept_stretch_;
    patch_stretch_ = kept_patch_stretch_;
    report_.energy_gain = kept_gain_;
    ok = true;
    gaining = true;
  }
  report_.ok = ok;
  report_.energy_unbalanced = ok && gaining && report_.retries > 0;
  if (report_.energy_unbalanced) {
    // Not implicit Euler's step but the last of its approximations: say so, and what helps.
    char gain[32];
    std::snprintf(gain, sizeof gain, "%.3g", report_.energy_gain);
    warnings_.push_back("step " + std::to_string(state_.step_count + 1) + ": gained " + gain +
                        " J beyond the loads' work in every retry, none of which converged: "
                        "the motion is not to be trusted at these settings (a smaller time step "
                        "or a stiffer material helps)");
  } else if (report_.retries > 0) {
    warnings_.push_back("step " + std::to_string(state_.step_count + 1) + ": " +
                        (ok ? "retried " + std::to_string(report_.retries) +
                                  " time(s) with more iterations (energy grew beyond the "
                                  "loads' work, or the step failed)"
                            : std::string("failed in every retry")));
  }
  if (ok && failed_searches > 0 && !report_.stats.converged) {
    // An iteration whose line search finds no decrease ends the step where it stands: with few
    // backtracks allowed that can hold a body still (ok, and nothing else says why). With the
    // default's, what stops it is the direction, which more halvings would not mend.
    const bool few = settings_.max_backtracks < SolverSettings{}.max_backtracks;
    warnings_.push_back("step " + std::to_string(state_.step_count + 1) +
                        ": the line search found no decrease within " +
                        std::to_string(settings_.max_backtracks) +
                        " halvings (maxBacktracks), and the step ended there unconverged" +
                        (few ? " (more backtracks let it go on)" : ""));
  }
  if (ok) {
    state_.time = end_time;
    ++state_.step_count;
    update_diagnostics(stretch_);
    // Contact loads the body where its samples are within dhat (local_deformations.hpp).
    if (local_ != nullptr && contact_ != nullptr) {
      local_->gather(state_.U, state_.patches.C, extended_U_);
      local_->set_contact_loads(local_->contact()->loads(extended_U_));
    }
    // Patches whose load left and that came to rest leave; new loads bring new ones.
    if (local_ != nullptr) {
      std::vector<int> loaded = local_->still_loaded(state_.patches, settings_.timestep);
      if (loaded != state_.patches.loaded) {
        if (loaded == undone_loaded_ && undone_wait_ > 0) {
          --undone_wait_;
        } else {
          change_patches(std::move(loaded));
        }
      }
    }
  } else {
    copy_dynamic_state(backup_, state_);
    warnings_.push_back("step " + std::to_string(state_.step_count + 1) +
                        " produced non-finite values and was undone");
    refresh_diagnostics();
  }
  clock.lap(report_.step_ms);
  return report_;
}

void Simulator::hold_bodies(std::vector<char> held) {
  if (!held.empty() && held.size() != model_.bodies.size()) {
    throw std::invalid_argument("hold_bodies: one flag per body");
  }
  const auto count = std::count(held.begin(), held.end(), 1);
  if (count > 0 && count == static_cast<std::ptrdiff_t>(held.size())) {
    throw std::invalid_argument("hold_bodies: every body held (a step would move none)");
  }
  std::vector<char> awake;
  std::vector<int> tets;
  if (count > 0) {
    for (std::size_t b = 0; b < held.size(); ++b) {
      awake.push_back(held[b] ? 0 : 1);
      if (held[b]) continue;
      const ReducedModel::Body& body = model_.bodies[b];
      for (int t = 0; t < body.tets; ++t) tets.push_back(body.first_tet + t);
    }
  }
  awake_ = std::move(awake);
  awake_tets_ = std::move(tets);
}

void Simulator::hold_bodies_not_approaching(std::vector<char> moving) {
  for (std::size_t b = 0; b < awake_.size(); ++b) moving[b] = moving[b] && awake_[b];
  const int count = static_cast<int>(std::count(moving.begin(), moving.end(), 1));
  const int awake = awake_.empty() ? static_cast<int>(moving.size())
                                   : static_cast<int>(std::count(awake_.begin(), awake_.end(), 1));
  if (count == 0 || count == awake) return;
  impact_moving_tets_.clear();
  for (std::size_t b = 0; b < moving.size(); ++b) {
    if (!moving[b]) continue;
    const ReducedModel::Body& body = model_.bodies[b];
    for (int t = 0; t < body.tets; ++t) impact_moving_tets_.push_back(body.first_tet + t);
  }
  impact_moving_ = std::move(moving);
}

void Simulator::move_only(StepContext& context, const std::vector<char>& moving,
                          const std::vector<int>& tets) {
  context.moving_tets = tets;
  system_.set_moving_bodies(moving);
  if (contact_ != nullptr) contact_->set_moving_parts(moving);
}

const TetKinematics& Simulator::solve_step(SolverMethod method, int iterations, int whole,
                                           bool until_converged, bool go_on) {
  SolverSettings attempt = settings_;
  attempt.method = method;
  attempt.iterations = impact_moving_ == awake_ ? iterations : std::min(iterations, whole);
  attempt.until_converged = until_converged;
  StepStats stats;
  if (go_on) {
    // The step's first decrement stays the measure of convergence.
    stats.first_decrement = report_.stats.first_decrement;
    stats.contact_limited = report_.stats.contact_limited;
  } else if (!patched()) {
    state_.U = initial_guess_;
    stats.contact_limited = initial_guess_limited_;
  }
  if (patched()) return solve_patched(attempt, stats, go_on);
  EigenFitTerm* const fit = eigen_fit_active() ? &eigenfit_ : nullptr;
  system_.set_eigenfit(fit);
  StepContext step_context{deformation_,
                           model_.cubature_weights,
                           settings_.material_model,
                           lame_,
                           attempt,
                           dynamics_,
                           system_,
                           *pool_,
                           contact_,
                           fit};
  const auto solve = [&]() {
    if (method == SolverMethod::mfem) {
      mfem_.solve(step_context, state_.U, state_.z, state_.lambda, stats);
    } else {
      fem_.solve(step_context, state_.U, stats);
    }
  };
  move_only(step_context, awake_, awake_tets_);
  solve();
  // An impact's further iterations (simulator.hpp) move its approaching bodies only.
  if (attempt.iterations < iterations && !stats.failed && !stats.converged) {
    attempt.iterations = iterations - attempt.iterations;
    move_only(step_context, impact_moving_, impact_moving_tets_);
    solve();
    move_only(step_context, awake_, awake_tets_);
  }
  const TetKinematics* kinematics = nullptr;
  if (method == SolverMethod::mfem) {
    kinematics = &mfem_.kinematics();
  } else {
    kinematics = &fem_.kinematics();
    // Keep the stretch DOFs meaningful, so that the solver can be switched at any step; the held
    // bodies' stay as they were.
    held_z_ = state_.z;
    held_lambda_ = state_.lambda;
    state_.z = kinematics->s;
    consistent_multipliers(settings_.material_model, lame_, state_.z, state_.lambda);
    add_fit_multipliers(state_.z, state_.lambda);
    for (std::size_t b = 0; b < awake_.size(); ++b) {
      if (awake_[b]) continue;
      const ReducedModel::Body& body = model_.bodies[b];
      state_.z.middleCols(body.first_tet, body.tets) =
          held_z_.middleCols(body.first_tet, body.tets);
      state_.lambda.middleCols(body.first_tet, body.tets) =
          held_lambda_.middleCols(body.first_tet, body.tets);
    }
  }
  // Translations leave every tet's F, hence the kinematics and z, as they are.
  if (stats.contact_limited && contact_ != nullptr && translation_.size() > 0 && !stats.failed) {
    awake_translation_ = translation_;
    for (std::size_t b = 0; b < awake_.size(); ++b) {
      const ReducedModel::Body& body = model_.bodies[b];
      if (!awake_[b]) awake_translation_.segment(4 * body.first_mode, 4 * body.modes).setZero();
    }
    stats.translation_corrections += contact::minimize_along_translation(
        dynamics_, *contact_, awake_translation_, model_.bodies, state_.U);
  }
  state_.Udot = (state_.U - backup_.U) / settings_.timestep;
  // A retried step reports every attempt's work.
  const StepStats& previous = report_.stats;
  stats.iterations += previous.iterations;
  stats.add_work(previous);
  report_.stats = stats;
  return *kinematics;
}

const TetKinematics& Simulator::solve_patched(const SolverSettings& attempt, StepStats& stats,
                                              bool go_on) {
  // From where the last attempt stopped, or from the step's (extended) initial guess.
  if (go_on) {
    local_->gather(state_.U, state_.patches.C, extended_U_);
  } else {
    extended_U_ = initial_guess_;
  }
  local_->gather_tets(state_.z, state_.patches.z, extended_z_);
  local_->gather_tets(state_.lambda, state_.patches.lambda, extended_lambda_);
  system_.set_eigenfit(nullptr);
  StepContext context = local_->context(attempt);
  const TetKinematics* kinematics = nullptr;
  if (attempt.method == SolverMethod::mfem) {
    local_->mfem().solve(context, extended_U_, extended_z_, extended_lambda_, stats);
    kinematics = &local_->mfem().kinematics();
  } else {
    local_->fem().solve(context, extended_U_, stats);
    kinematics = &local_->fem().kinematics();
    extended_z_ = kinematics->s;
    consistent_multipliers(settings_.material_model, local_->lame(), extended_z_, extended_lambda_);
  }
  local_->scatter(extended_U_, state_.U, state_.patches.C);
  local_->scatter_tets(extended_z_, state_.z, state_.patches.z);
  local_->scatter_tets(extended_lambda_, state_.lambda, state_.patches.lambda);
  state_.Udot = (state_.U - backup_.U) / settings_.timestep;
  state_.patches.Cdot = (state_.patches.C - backup_.patches.C) / settings_.timestep;
  const StepStats& previous = report_.stats;
  stats.iterations += previous.iterations;
  stats.add_work(previous);
  report_.stats = stats;
  return *kinematics;
}

double Simulator::step_energy(const ReducedMatrix& U) {
  if (patched()) return local_->step_energy(U);
  parallel_for_tets(*pool_, model_.cubature_count(), [&](int c) {
    guess_stretch_.col(c) = polar::symmetric_stretch(
        Matrix3<double>(Matrix3<double>::Identity() + deformation_.displacement_gradient(c, U)));
  });
  return dynamics_.energy(U) + elastic_energy(guess_stretch_) + fit_energy(guess_stretch_) +
         contact_->energy(U);
}

double Simulator::elastic_energy(const StretchField& stretch) const {
  double elastic = 0.0;
  for (int c = 0; c < model_.cubature_count(); ++c) {
    elastic +=
        model_.cubature_weights(c) * psi(settings_.material_model, Vector6<double>(stretch.col(c)),
                                         lame_[static_cast<std::size_t>(c)]);
  }
  return elastic;
}

double Simulator::mechanical_energy(const SimulatorState& state, const StretchField& stretch,
                                    const StretchField& patch_stretch) {
  dynamics_.mass_times(state.Udot, diagnostics_workspace_);
  const double kinetic = 0.5 * state.Udot.cwiseProduct(diagnostics_workspace_).sum();
  if (!patched()) {
    const double contact = contact_ != nullptr ? contact_->potential_energy(state.U) : 0.0;
    return kinetic + elastic_energy(stretch) + fit_energy(stretch) +
           dynamics_.spring_energy(state.U) + contact;
  }
  local_->gather(state.U, state.patches.C, extended_U_);
  local_->gather(state.Udot, state.patches.Cdot, extended_Udot_);
  const double contact =
      contact_ != nullptr ? local_->contact()->potential_energy(extended_U_) : 0.0;
  const double global = kinetic + elastic_energy(stretch) + fit_energy(stretch) + contact;
  return global + local_->kinetic_energy(extended_Udot_) + local_->elastic_energy(patch_stretch) +
         local_->spring_energy(extended_U_);
}

double Simulator::friction_energy(const SimulatorState& state) {
  if (contact_ == nullptr) return 0.0;
  if (!patched()) return contact_->friction_energy(state.U);
  local_->gather(state.U, state.patches.C, extended_U_);
  return local_->contact()->friction_energy(extended_U_);
}

void Simulator::add_fit_multipliers(const StretchField& z, StretchField& lambda) {
  if (!eigen_fit_active()) return;
  eigenfit_.measure(z, fit_measure_);
  const Vector6<double> metric = polar::stretch_metric<double>();
  for (int c = 0; c < model_.cubature_count(); ++c) {
    lambda.col(c) += eigenfit_.stress(c, fit_measure_).cwiseQuotient(metric);
  }
}

double Simulator::fit_energy(const StretchField& stretch) {
  if (!eigen_fit_active()) return 0.0;
  eigenfit_.measure(stretch, fit_measure_);
  return eigenfit_.energy(fit_measure_);
}

void Simulator::update_diagnostics(const StretchField& stretch) {
  compute_diagnostics(model_, settings_.material_model, lame_, settings_.gravity, dynamics_,
                      state_.U, state_.Udot, stretch, state_.z, diagnostics_workspace_,
                      report_.diagnostics);
  if (patched()) {
    local_->gather(state_.U, state_.patches.C, extended_U_);
    local_->gather(state_.Udot, state_.patches.Cdot, extended_Udot_);
    local_->add_to_diagnostics(extended_U_, extended_Udot_, patch_stretch_, state_.patches.z,
                               settings_.gravity, report_.diagnostics);
  }
  if (!eigen_fit_active()) return;
  Diagnostics& d = report_.diagnostics;
  const double elastic = fit_energy(stretch);
  d.elastic_energy += elastic;
  d.total_energy += elastic;
  d.stretch_energy += fit_energy(state_.z);
}

void Simulator::apply_scene_springs(double time) {
  bool changed = false;
  for (std::size_t i = 0; i < model_.loads.size(); ++i) {
    const char active = model_.loads[i].pulling(time);
    changed = changed || active != springs_active_[i];
    springs_active_[i] = active;
  }
  if (!changed) return;
  Eigen::MatrixXd block;
  ReducedMatrix pull;
  if (active_anchors(model_.loads, time, block, pull)) {
    dynamics_.set_anchors(block, pull);
  } else {
    dynamics_.clear_anchors();
  }
}

void Simulator::make_stretches_consistent() {
  if (patched()) {
    local_->gather(state_.U, state_.patches.C, extended_U_);
    local_->gather_tets(state_.z, state_.patches.z, extended_z_);  // sizes them
    local_->gather_tets(state_.lambda, state_.patches.lambda, extended_lambda_);
    sim::make_stretches_consistent(local_->deformation(), settings_.material_model, local_->lame(),
                                   extended_U_, extended_z_, extended_lambda_);
    local_->scatter_tets(extended_z_, state_.z, state_.patches.z);
    local_->scatter_tets(extended_lambda_, state_.lambda, state_.patches.lambda);
    return;
  }
  sim::make_stretches_consistent(deformation_, settings_.material_model, lame_, state_.U, state_.z,
                                 state_.lambda);
  add_fit_multipliers(state_.z, state_.lambda);
}

void Simulator::refresh_diagnostics() {
  refresh_stretches();
  update_diagnostics(stretch_);
}

void Simulator::refresh_stretches() {
  // On the pool: a patched step calls this at its start (each tet writes its own column, so the
  // result does not depend on the thread count).
  parallel_for_tets(*pool_, model_.cubature_count(), [&](int c) {
    stretch_.col(c) = polar::symmetric_stretch(Matrix3<double>(
        Matrix3<double>::Identity() + deformation_.displacement_gradient(c, state_.U)));
  });
  if (patched()) {
    local_->gather(state_.U, state_.patches.C, extended_U_);
    const int C = model_.cubature_count();
    parallel_for_tets(*pool_, static_cast<int>(patch_stretch_.cols()), [&](int e) {
      patch_stretch_.col(e) = polar::symmetric_stretch(
          Matrix3<double>(Matrix3<double>::Identity() +
                          local_->deformation().displacement_gradient(C + e, extended_U_)));
    });
  }
}

void Simulator::set_state(const ReducedMatrix& U, const ReducedMatrix& Udot) {
  const Eigen::Index n = 4 * model_.mode_count();
  check_shape(U, n, 3, "U");
  check_shape(Udot, n, 3, "Udot");
  state_.U = U;
  state_.Udot = Udot;
  state_.patches.C.setZero();  // no dent
  state_.patches.Cdot.setZero();
  make_stretches_consistent();
  refresh_diagnostics();
}

void Simulator::reset() {
  state_.U.setZero();
  state_.Udot.setZero();
  state_.patches.C.setZero();
  state_.patches.Cdot.setZero();
  state_.time = 0.0;
  state_.step_count = 0;
  make_stretches_consistent();
  refresh_diagnostics();
}

void Simulator::restore(const SimulatorState& state) {
  const Eigen::Index n = 4 * model_.mode_count();
  const Eigen::Index C = model_.cubature_count();
  check_shape(state.U, n, 3, "U");
  check_shape(state.Udot, n, 3, "Udot");
  check_shape(state.z, 6, C, "z");
  check_shape(state.lambda, 6, C, "lambda");
  if (!std::isfinite(state.time)) throw std::invalid_argument("time must be finite");
  if (local_ == nullptr && !state.patches.loaded.empty()) {
    throw std::invalid_argument("the state has local patches; local deformations are off");
  }
  const std::vector<int>& loaded = state.patches.loaded;
  if (std::adjacent_find(loaded.begin(), loaded.end(), std::greater_equal<int>()) != loaded.end()) {
    throw std::invalid_argument("the patches' loaded vertices must be ascending and distinct");
  }
  if (state.patches.unloaded_for.size() != loaded.size() ||
      !std::all_of(state.patches.unloaded_for.begin(), state.patches.unloaded_for.end(),
                   [](double t) { return t >= 0.0 && std::isfinite(t); })) {
    throw std::invalid_argument(
        "the patches' unloaded times must be one per loaded vertex, finite and not negative");
  }
  const local::PatchState& patches = state.patches;
  if (!patches.C.allFinite() || !patches.Cdot.allFinite() || !patches.z.allFinite() ||
      !patches.lambda.allFinite()) {
    throw std::invalid_argument(
        "the patches' coefficients, velocities, z and lambda must be finite");
  }
  if (local_ != nullptr)
    local::LocalDeformations::check_rotations(patches.rotations, patches.C.rows());
  const std::vector<int> previous = state_.patches.loaded;
  if (local_ != nullptr && loaded != previous) {
    // The patches the state was taken with (their coefficients are overwritten below).
    SimulatorState scratch = state_;
    local_->set_loaded(loaded, scratch.U, scratch.Udot, scratch.patches);
    const Eigen::Index P = scratch.patches.C.rows(), S = scratch.patches.z.cols();
    const bool fits = patches.C.rows() == P && patches.Cdot.rows() == P && patches.z.cols() == S &&
                      patches.lambda.cols() == S;
    if (!fits) {
      // Back to the patches of before, from the scratch state that fits the new ones.
      local_->set_loaded(previous, scratch.U, scratch.Udot, scratch.patches);
      local_->set_rotations(state_.patches.rotations);
    }
  }
  const Eigen::Index P = local_ != nullptr ? local_->patch_count() : 0;
  const Eigen::Index S = local_ != nullptr ? local_->patches().tet_count() : 0;
  check_shape(patches.C, P, 3, "the patches' coefficients");
  check_shape(patches.Cdot, P, 3, "the patches' velocities");
  check_shape(patches.z, 6, S, "the patches' z");
  check_shape(patches.lambda, 6, S, "the patches' lambda");
  // The patches turned as they were when the state was taken (its C and Cdot hold in them).
  if (local_ != nullptr) local_->set_rotations(patches.rotations);
  patch_stretch_.setZero(6, S);
  state_ = state;
  refresh_diagnostics();
}

std::vector<std::uint8_t> Simulator::save_state() const { return encode_state(state_); }

void Simulator::load_state(std::span<const std::uint8_t> bytes) {
  restore(decode_state(bytes, model_.mode_count(), model_.cubature_count()));
}

}  // namespace smfem::sim
