#include "smfem/displacement/displacement_simulator.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include "smfem/energies/lame.hpp"
#include "smfem/polar/polar.hpp"

namespace smfem::displacement {
namespace {

full::FullModel checked(full::FullModel model) {
  if (const auto problem = full::check_full_model(model)) {
    throw std::invalid_argument(model.source + ": " + problem->section + ": " + problem->problem);
  }
  return model;
}

BasisRows checked_basis(const full::FullModel& model,
                        const Eigen::Ref<const Eigen::MatrixXd>& basis) {
  const std::string where = model.source + ": displacement basis: ";
  if (basis.rows() != 3 * model.vertex_count() || basis.cols() < 1) {
    throw std::invalid_argument(where + std::to_string(basis.rows()) + " x " +
                                std::to_string(basis.cols()) + ", expected " +
                                std::to_string(3 * model.vertex_count()) +
                                " rows (3 per vertex) "
                                "and at least one column");
  }
  if (!basis.allFinite()) throw std::invalid_argument(where + "not finite");
  for (const int v : model.pinned) {
    if (!basis.middleRows<3>(3 * v).isZero(0.0)) {
      throw std::invalid_argument(where + "moves pinned vertex " + std::to_string(v));
    }
  }
  return basis;
}

Quadrature checked_quadrature(const full::FullModel& model, Quadrature quadrature) {
  const std::string where = model.source + ": cubature: ";
  if (quadrature.tets.empty() ||
      quadrature.weights.size() != static_cast<Eigen::Index>(quadrature.tets.size())) {
    throw std::invalid_argument(where + std::to_string(quadrature.tets.size()) + " tets and " +
                                std::to_string(quadrature.weights.size()) +
                                " weights, expected at least one tet and a weight each");
  }
  std::vector<bool> seen(static_cast<std::size_t>(model.tet_count()), false);
  for (std::size_t i = 0; i < quadrature.tets.size(); ++i) {
    const int tet = quadrature.tets[i];
    if (tet < 0 || tet >= model.tet_count()) {
      throw std::invalid_argument(where + "tet " + std::to_string(tet) + " is not a tet of the " +
                                  std::to_string(model.tet_count()) + " of the mesh");
    }
    if (seen[static_cast<std::size_t>(tet)]) {
      throw std::invalid_argument(where + "tet " + std::to_string(tet) + " appears twice");
    }
    seen[static_cast<std::size_t>(tet)] = true;
    const double weight = quadrature.weights(static_cast<Eigen::Index>(i));
    if (!std::isfinite(weight) || weight <= 0.0) {
      throw std::invalid_argument(where + "the weight of tet " + std::to_string(tet) + " is " +
                                  std::to_string(weight) + ", expected finite and positive");
    }
  }
  return quadrature;
}

// Phi^T M Phi, refused unless positive definite (the columns independent in the mass norm).
Eigen::MatrixXd reduced_mass(const BasisRows& basis, const Eigen::VectorXd& vertex_mass,
                             const std::string& source) {
  const Eigen::VectorXd M = vertex_mass.replicate(1, 3).transpose().reshaped();
  const Eigen::MatrixXd mass = basis.transpose() * M.asDiagonal() * basis;
  if (Eigen::LLT<Eigen::MatrixXd>(mass).info() != Eigen::Success) {
    throw std::invalid_argument(source +
                                ": displacement basis: the reduced mass is not positive definite "
                                "(dependent columns?)");
  }
  return mass;
}

}  // namespace

DisplacementSimulator::DisplacementSimulator(full::FullModel model,
                                             const Eigen::Ref<const Eigen::MatrixXd>& basis,
                                             const sim::SolverSettings& settings, int thread_count,
                                             std::optional<Quadrature> quadrature)
    : model_(checked(std::move(model))),
      settings_(sim::clamp_settings(settings, warnings_)),
      basis_(checked_basis(model_, basis)),
      vertex_mass_(full::lumped_vertex_mass(model_)),
      pool_(std::make_unique<parallel::ThreadPool>(thread_count)),
      mesh_deformation_(model_),
      quadrature_(quadrature ? checked_quadrature(model_, std::move(*quadrature))
                             : exact_quadrature(mesh_deformation_)),
      lame_(static_cast<std::size_t>(quadrature_.size())),
      deformation_(mesh_deformation_, basis_, quadrature_),
      dynamics_(reduced_mass(basis_, vertex_mass_, model_.source), settings_.timestep),
      system_(deformation_, dynamics_),
      fem_(coordinate_count(), quadrature_.size()),
      mfem_(coordinate_count(), quadrature_.size()),
      q_(sim::ReducedMatrix::Zero(coordinate_count(), 3)),
      qdot_(q_),
      z_(sim::StretchField::Zero(6, quadrature_.size())),
      lambda_(z_) {
  for (int i = 0; i < quadrature_.size(); ++i) {
    const int tet = quadrature_.tets[static_cast<std::size_t>(i)];
    double youngs = model_.youngs(tet);
    double poisson = model_.poisson(tet);
    sim::clamp_material(youngs, poisson, "tet " + std::to_string(tet), warnings_);
    lame_[static_cast<std::size_t>(i)] = energies::lame_from_young_poisson(youngs, poisson);
  }
  set_settings(settings_);
  set_state(q_.col(0), qdot_.col(0));
}

void DisplacementSimulator::set_settings(const sim::SolverSettings& settings) {
  const sim::MaterialModel previous = settings_.material_model;
  settings_ = sim::clamp_settings(settings, warnings_);
  dynamics_.set_timestep(settings_.timestep);
  gravity_force_ = sim::ReducedMatrix::Zero(coordinate_count(), 3);
  for (int v = 0; v < model_.vertex_count(); ++v) {
    gravity_force_.col(0) +=
        vertex_mass_(v) * basis_.middleRows<3>(3 * v).transpose() * settings_.gravity;
  }
  // The multipliers belong to the material model.
  if (settings_.material_model != previous) {
    sim::make_stretches_consistent(deformation_, settings_.material_model, lame_, q_, z_, lambda_);
  }
}

void DisplacementSimulator::reset() {
  set_state(Eigen::VectorXd::Zero(coordinate_count()), Eigen::VectorXd::Zero(coordinate_count()));
}

DisplacementSimulator::~DisplacementSimulator() = default;

void DisplacementSimulator::set_state(const Eigen::Ref<const Eigen::VectorXd>& q,
                                      const Eigen::Ref<const Eigen::VectorXd>& qdot) {
  const Eigen::Index k = coordinate_count();
  if (q.size() != k || qdot.size() != k || !q.allFinite() || !qdot.allFinite()) {
    throw std::invalid_argument("set_state: q and qdot must have " + std::to_string(k) +
                                " finite entries");
  }
  q_.setZero();
  qdot_.setZero();
  q_.col(0) = q;
  qdot_.col(0) = qdot;
  sim::make_stretches_consistent(deformation_, settings_.material_model, lame_, q_, z_, lambda_);
}

sim::StepContext DisplacementSimulator::context() {
  return sim::StepContext{deformation_,
                          deformation_.weights(),
                          settings_.material_model,
                          lame_,
                          settings_,
                          dynamics_,
                          system_,
                          *pool_};
}

const full::FullStepReport& DisplacementSimulator::step() {
  sim::Stopwatch clock;
  q_backup_ = q_;
  qdot_backup_ = qdot_;
  z_backup_ = z_;
  lambda_backup_ = lambda_;
  dynamics_.begin_step(q_, qdot_, gravity_force_);
  q_ = dynamics_.prediction();

  report_.stats = sim::StepStats{};
  report_.step_ms = 0.0;
  sim::StepContext step_context = context();
  if (settings_.method == sim::SolverMethod::mfem) {
    mfem_.solve(step_context, q_, z_, lambda_, report_.stats);
  } else {
    fem_.solve(step_context, q_, report_.stats);
    // Keep the stretch DOFs meaningful, so that the solver can be switched at any step.
    z_ = fem_.kinematics().s;
    sim::consistent_multipliers(settings_.material_model, lame_, z_, lambda_);
  }
  qdot_ = (q_ - q_backup_) / settings_.timestep;
  report_.ok = !report_.stats.failed && q_.allFinite() && qdot_.allFinite() && z_.allFinite() &&
               lambda_.allFinite();
  if (!report_.ok) {
    q_ = q_backup_;
    qdot_ = qdot_backup_;
    z_ = z_backup_;
    lambda_ = lambda_backup_;
    warnings_.push_back("a displacement-basis step produced non-finite values and was undone");
  }
  clock.lap(report_.step_ms);
  return report_;
}

sim::ReducedMatrix DisplacementSimulator::displacements() const {
  const Eigen::VectorXd u = basis_ * q_.col(0);
  return u.reshaped(3, model_.vertex_count()).transpose();
}

sim::ReducedMatrix DisplacementSimulator::vertex_velocities() const {
  const Eigen::VectorXd udot = basis_ * qdot_.col(0);
  return udot.reshaped(3, model_.vertex_count()).transpose();
}

Eigen::Vector3d DisplacementSimulator::linear_momentum() const {
  return vertex_velocities().transpose() * vertex_mass_;
}

double DisplacementSimulator::elastic_energy() const {
  double energy = 0.0;
  for (int i = 0; i < quadrature_.size(); ++i) {
    const Matrix3<double> F =
        Matrix3<double>::Identity() + deformation_.displacement_gradient(i, q_);
    energy +=
        quadrature_.weights(i) * sim::psi(settings_.material_model, polar::symmetric_stretch(F),
                                          lame_[static_cast<std::size_t>(i)]);
  }
  return energy;
}

double DisplacementSimulator::kinetic_energy() const {
  return 0.5 * qdot_.col(0).dot(dynamics_.reduced_mass() * qdot_.col(0));
}

}  // namespace smfem::displacement

namespace smfem::displacement {

sim::Diagnostics DisplacementSimulator::diagnostics() const {
  sim::Diagnostics out;
  const sim::ReducedMatrix x = model_.positions + displacements();
  const sim::ReducedMatrix v = vertex_velocities();
  const double M = vertex_mass_.sum();
  out.kinetic_energy = kinetic_energy();
  out.elastic_energy = elastic_energy();
  // FEM keeps no stretch DOFs: its stretch energy is the elastic energy.
  const bool mixed = settings_.method == sim::SolverMethod::mfem;
  out.stretch_energy = mixed ? 0.0 : out.elastic_energy;
  for (int i = 0; mixed && i < quadrature_.size(); ++i) {
    out.stretch_energy += quadrature_.weights(i) * sim::psi(settings_.material_model, z_.col(i),
                                                            lame_[static_cast<std::size_t>(i)]);
  }
  out.centroid = x.transpose() * vertex_mass_ / M;
  out.gravity_potential = -M * settings_.gravity.dot(out.centroid);
  out.total_energy = out.kinetic_energy + out.elastic_energy + out.gravity_potential;
  out.linear_momentum = v.transpose() * vertex_mass_;
  for (int vertex = 0; vertex < model_.vertex_count(); ++vertex) {
    const Eigen::Vector3d position = x.row(vertex).transpose();
    out.angular_momentum += vertex_mass_(vertex) * position.cross(v.row(vertex).transpose());
  }
  for (int i = 0; mixed && i < quadrature_.size(); ++i) {
    const Matrix3<double> F =
        Matrix3<double>::Identity() + deformation_.displacement_gradient(i, q_);
    out.max_constraint_violation =
        std::max(out.max_constraint_violation,
                 (polar::symmetric_stretch(F) - z_.col(i)).cwiseAbs().maxCoeff());
  }
  return out;
}

}  // namespace smfem::displacement
