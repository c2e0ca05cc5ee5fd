#include "smfem/full/full_simulator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "smfem/energies/lame.hpp"
#include "smfem/json/json_text.hpp"
#include "smfem/polar/polar.hpp"
#include "smfem/sim/contact/obstacle.hpp"
#include "smfem/sim/simulator.hpp"
#include "smfem/sim/step/energy_check.hpp"

namespace smfem::full {
namespace {

ElementModel checked(ElementModel model) {
  if (const auto problem = check_element_model(model)) {
    throw std::invalid_argument(model.source + ": " + problem->section + ": " + problem->problem);
  }
  return model;
}

ElementModel checked_tets(const FullModel& model) {
  if (const auto problem = check_full_model(model)) {
    throw std::invalid_argument(model.source + ": " + problem->section + ": " + problem->problem);
  }
  return element_model(model);
}

std::vector<char> pinned_flags(const ElementModel& model) {
  std::vector<char> pinned(static_cast<std::size_t>(model.node_count), 0);
  for (const int v : model.pinned) pinned[static_cast<std::size_t>(v)] = 1;
  return pinned;
}

}  // namespace

FullSimulator::FullSimulator(ElementModel model, const sim::SolverSettings& settings,
                             int thread_count)
    : model_(checked(std::move(model))),
      settings_(sim::clamp_settings(settings, warnings_)),
      pool_(std::make_unique<parallel::ThreadPool>(thread_count)),
      lame_(static_cast<std::size_t>(model_.element_count())),
      deformation_(model_),
      dynamics_(model_.node_mass, pinned_flags(model_), settings_.timestep, model_.bending,
                model_.hinges),
      system_(deformation_, dynamics_),
      fem_(model_.node_count, model_.element_count()),
      mfem_(model_.node_count, model_.element_count()),
      relaxation_(std::make_unique<LocalNodeRelaxation>(model_, std::vector<int>{})),
      U_(sim::ReducedMatrix::Zero(model_.node_count, 3)),
      Udot_(U_),
      z_(sim::StretchField::Zero(6, model_.element_count())),
      lambda_(z_) {
  for (int t = 0; t < model_.element_count(); ++t) {
    double youngs = model_.youngs(t);
    double poisson = model_.poisson(t);
    sim::clamp_material(youngs, poisson, "element " + std::to_string(t), warnings_);
    lame_[static_cast<std::size_t>(t)] = energies::lame_from_young_poisson(youngs, poisson);
  }
  set_state(U_, Udot_);
  gravity_force_ = model_.translational_mass * settings_.gravity.transpose();
}

FullSimulator::FullSimulator(const FullModel& model, const sim::SolverSettings& settings,
                             int thread_count)
    : FullSimulator(checked_tets(model), settings, thread_count) {}

FullSimulator::~FullSimulator() = default;

void FullSimulator::set_state(const sim::ReducedMatrix& U, const sim::ReducedMatrix& Udot) {
  const Eigen::Index n = model_.node_count;
  if (U.rows() != n || Udot.rows() != n || !U.allFinite() || !Udot.allFinite()) {
    throw std::invalid_argument("set_state: U and Udot must be " + std::to_string(n) +
                                " x 3 and finite");
  }
  for (const int v : model_.pinned) {
    if (!U.row(v).isZero(0.0) || !Udot.row(v).isZero(0.0)) {
      throw std::invalid_argument("set_state: pinned node " + std::to_string(v) + " moves");
    }
  }
  U_ = U;
  Udot_ = Udot;
  sim::make_stretches_consistent(deformation_, settings_.material_model, lame_, U_, z_, lambda_);
}

sim::StepContext FullSimulator::context(const sim::SolverSettings& attempt) {
  return sim::StepContext{deformation_,
                          deformation_.volumes(),
                          settings_.material_model,
                          lame_,
                          attempt,
                          dynamics_,
                          system_,
                          *pool_,
                          contact_.get()};
}

void FullSimulator::set_contact(std::unique_ptr<ObstacleContact> contact) {
  if (contact != nullptr) {
    for (const ObstacleContact::Point& p : contact->points()) {
      if (p.node >= model_.node_count) {
        throw std::invalid_argument("contact point at node " + std::to_string(p.node) +
                                    ": out of range");
      }
    }
    const double closest = contact->closest(U_).first;
    if (!(closest > 0.0)) {
      throw std::invalid_argument(
          "a contact point is not clear of the obstacles (distance " +
          json::format_number(closest) +
          " m, a rod's radius or half a shell's thickness taken off): place the body outside them");
    }
  }
  contact_ = std::move(contact);
  system_.set_contact(contact_.get());
  std::vector<int> contact_nodes;
  if (contact_ != nullptr) {
    for (const ObstacleContact::Point& p : contact_->points()) contact_nodes.push_back(p.node);
  }
  relaxation_ = std::make_unique<LocalNodeRelaxation>(model_, contact_nodes);
}

void FullSimulator::drag_start(int node, const Eigen::Vector3d& rest, const Eigen::Vector3d& target,
                               double stiffness) {
  if (node < 0 || node >= model_.node_count || !rest.allFinite() ||
      !(stiffness >= 0.0 && std::isfinite(stiffness))) {
    throw std::invalid_argument("drag: node " + std::to_string(node) +
                                " out of range, or a rest position or stiffness not finite");
  }
  if (dynamics_.pinned()[static_cast<std::size_t>(node)]) {  // held still: it would pull nothing
    warnings_.push_back("drag: node " + std::to_string(node) + " is pinned; nothing is dragged");
  }
  FullDynamics::Spring spring{node, rest, target, stiffness};
  if (!contact::within_coordinate_bound(target)) {  // as the reduced stepper: warned, not thrown
    spring.target = rest + U_.row(node).transpose();
    warnings_.push_back(sim::kDragTargetRefused + "; the node is held where it is");
  }
  dynamics_.set_spring(spring);
}

void FullSimulator::drag_move(const Eigen::Vector3d& target) {
  if (!dynamics_.spring()) return;
  if (!contact::within_coordinate_bound(target)) {
    warnings_.push_back(sim::kDragTargetRefused + "; ignored");
    return;
  }
  FullDynamics::Spring spring = *dynamics_.spring();
  spring.target = target;
  dynamics_.set_spring(spring);
}

void FullSimulator::drag_end() { dynamics_.set_spring(std::nullopt); }

double FullSimulator::step_energy(const sim::ReducedMatrix& U) {
  return dynamics_.energy(U) + elastic_energy_at(U) +
         (contact_ != nullptr ? contact_->energy(U) + contact_->friction_energy(U) : 0.0);
}

void FullSimulator::relax_local_nodes() {
  if (!U_.allFinite()) return;
  relaxation_->relax(deformation_, settings_.material_model, lame_, dynamics_.prediction(),
                     settings_.timestep, *pool_, U_);
}

bool FullSimulator::attempt_step(const sim::StepAttempt& attempt, int iterations, bool go_on,
                                 double energy_before) {
  sim::SolverSettings settings = settings_;
  settings.method = attempt.method;
  settings.until_converged = attempt.until_converged;
  sim::StepStats stats;
  if (go_on) {
    stats.first_decrement = report_.stats.first_decrement;
  } else {
    U_ = initial_guess_;
    z_ = z_backup_;
    lambda_ = lambda_backup_;
  }
  // With local nodes, the mixed step runs one iteration at a time and the local nodes are
  // relaxed after each, so that they have turned with their elements before the next
  // linearization. Its z and lambda are kept as the iteration left them (made consistent with
  // the relaxed F, a stiff cloth strayed 4.9 mm from the converged run at 2 iterations, not 0.5).
  // FEM does without: its line search is on the true energy, and on a net of rods it gained as
  // little without the relaxation as with it (and took 3 times as long with it).
  const bool relax = !relaxation_->empty() && attempt.method == sim::SolverMethod::mfem;
  // An attempt that goes on from the last (step(): only where the energy check is on) stops at
  // its first iteration that dissipates (sim/step/energy_check.hpp), so it too runs them one at a
  // time.
  const bool one_at_a_time = relax || go_on;
  settings.iterations = one_at_a_time ? 1 : iterations;
  sim::StepContext step_context = context(settings);
  for (int k = 0; k < (one_at_a_time ? iterations : 1); ++k) {
    if (attempt.method == sim::SolverMethod::mfem) {
      mfem_.solve(step_context, U_, z_, lambda_, stats);
    } else {
      fem_.solve(step_context, U_, stats);
    }
    if (relax) {
      relax_local_nodes();
    } else if (!stats.failed) {
      // The solver's stretches at the U it returned serve the energy check and the diagnostics.
      const sim::TetKinematics& kinematics =
          attempt.method == sim::SolverMethod::mfem ? mfem_.kinematics() : fem_.kinematics();
      stretches_ = kinematics.s;
      stretches_U_ = U_;
    }
    if (stats.failed || (attempt.until_converged && stats.converged)) break;
    if (go_on && k + 1 < iterations && U_.allFinite()) {
      Udot_ = (U_ - U_backup_) / settings_.timestep;
      if (passes_energy_check(energy_before) && sim::dissipates(report_.energy_gain)) break;
    }
  }
  // The mixed solver's fallback: its next step starts from these stretches.
  if (attempt.method == sim::SolverMethod::fem && settings_.method == sim::SolverMethod::mfem) {
    sim::make_stretches_consistent(deformation_, settings_.material_model, lame_, U_, z_, lambda_);
  }
  Udot_ = (U_ - U_backup_) / settings_.timestep;
  // A retried step reports every attempt's work.
  stats.iterations += report_.stats.iterations;
  stats.add_work(report_.stats);
  report_.stats = stats;
  return !stats.failed && U_.allFinite() && Udot_.allFinite() && z_.allFinite() &&
         lambda_.allFinite();
}

const FullStepReport& FullSimulator::step() {
  sim::Stopwatch clock;
  // The obstacles move first, pushing the points they sweep: that push, and the barrier's
  // energy at their new places, are put in before the step, not gained by it, and the step
  // starts (and a failed one ends) where the push left the body. Friction against a moving
  // obstacle holds each point to where it was before, carried with the obstacle.
  const bool moving = contact_ != nullptr && contact_->obstacles_move();
  const sim::ReducedMatrix before_push = moving ? U_ : sim::ReducedMatrix();
  const int pushed =
      moving ? contact_->advance_obstacles(U_, Udot_, time_ + settings_.timestep,
                                           settings_.timestep, dynamics_.pinned(), model_.node_mass)
             : 0;
  U_backup_ = U_;
  Udot_backup_ = Udot_;
  z_backup_ = z_;
  lambda_backup_ = lambda_;
  const double energy_before = mechanical_energy();
  dynamics_.begin_step(U_, Udot_, gravity_force_);
  initial_guess_ = dynamics_.prediction();
  friction_before_ = 0.0;
  if (contact_ != nullptr) {
    contact_->begin_step(moving ? before_push : U_, U_, settings_.timestep);
    friction_before_ = contact_->friction_energy(U_);
    // Each point's own bound: a vertex resting on the ground does not hold back the rest.
    const sim::ReducedMatrix motion = initial_guess_ - U_backup_;
    const sim::ReducedMatrix limited = contact_->limit_each(U_backup_, motion);
    initial_guess_ = U_backup_ + limited;
    if (limited != motion && step_energy(U_backup_) <= step_energy(initial_guess_)) {
      initial_guess_ = U_backup_;
    }
  }

  report_ = FullStepReport{};
  report_.pushed = pushed;
  const std::array<sim::StepAttempt, 4> attempts =
      sim::step_attempts(settings_, settings_.iterations);
  bool ok = false;
  int budget = 0;  // the iterations given to the attempts the current one goes on from
  for (std::size_t k = 0; k < attempts.size(); ++k) {
    const sim::StepAttempt& attempt = attempts[k];
    bool go_on = false;
    if (k > 0) {
      if (!settings_.energy_check || (ok && report_.stats.converged)) break;
      if (sim::attempt_adds_nothing(attempt, settings_, settings_.iterations)) continue;
      if (attempt.method != settings_.method && settings_.method == sim::SolverMethod::fem) break;
      ++report_.retries;
      go_on = ok && attempt.method == attempts[k - 1].method;
      if (!go_on) budget = 0;
    }
    ok = attempt_step(attempt, attempt.iterations - budget, go_on, energy_before);
    budget = attempt.iterations;
    if (ok && passes_energy_check(energy_before)) break;
  }
  report_.ok = ok;
  if (ok) time_ += settings_.timestep;
  if (!ok) {
    U_ = U_backup_;
    Udot_ = Udot_backup_;
    z_ = z_backup_;
    lambda_ = lambda_backup_;
    warnings_.push_back("a full-space step produced non-finite values and was undone");
  }
  clock.lap(report_.step_ms);
  return report_;
}

Eigen::Vector3d FullSimulator::linear_momentum() const {
  return Udot_.transpose() * model_.translational_mass;
}

const sim::StretchField& FullSimulator::stretches_at(const sim::ReducedMatrix& U) const {
  // The same bits of U give the same stretches; a NaN never compares equal, so it is not kept.
  if (stretches_U_.size() == U.size() && stretches_U_ == U) return stretches_;
  stretches_U_.resize(0, 3);
  stretches_.resize(6, model_.element_count());
  sim::parallel_for_tets(*pool_, model_.element_count(), [&](int t) {
    stretches_.col(t) = polar::symmetric_stretch(
        Matrix3<double>(Matrix3<double>::Identity() + deformation_.displacement_gradient(t, U)));
  });
  stretches_U_ = U;
  return stretches_;
}

double FullSimulator::bending_energy() const {
  const double constant =
      model_.bending.size() > 0 ? 0.5 * U_.cwiseProduct(model_.bending * U_).sum() : 0.0;
  return constant + dynamics_.hinges().energy(U_);
}

double FullSimulator::elastic_energy() const { return elastic_energy_at(U_); }

double FullSimulator::elastic_energy_at(const sim::ReducedMatrix& U) const {
  const sim::StretchField& stretches = stretches_at(U);
  // Summed in element order: the same bits on any thread count.
  double energy = 0.0;
  for (int t = 0; t < model_.element_count(); ++t) {
    energy += deformation_.volumes()(t) * sim::psi(settings_.material_model, stretches.col(t),
                                                   lame_[static_cast<std::size_t>(t)]);
  }
  return energy;
}

bool FullSimulator::passes_energy_check(double energy_before) {
  double work = gravity_force_.cwiseProduct(U_ - U_backup_).sum();
  if (contact_ != nullptr)
    work += sim::friction_work(friction_before_, contact_->friction_energy(U_));
  const double energy_after = mechanical_energy();
  report_.energy_gain = energy_after - energy_before - work;
  return report_.energy_gain <= sim::allowed_energy_gain(energy_before, energy_after, work);
}

double FullSimulator::mechanical_energy() const {
  const double kinetic = 0.5 * (model_.node_mass.asDiagonal() * Udot_).cwiseProduct(Udot_).sum();
  const double barrier = contact_ != nullptr ? contact_->energy(U_) : 0.0;
  return kinetic + elastic_energy() + bending_energy() + barrier + dynamics_.spring_energy(U_);
}

}  // namespace smfem::full
