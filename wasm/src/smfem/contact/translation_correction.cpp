#include "smfem/contact/translation_correction.hpp"

#include <cmath>

#include <Eigen/Cholesky>

#include "smfem/sim/step/line_search.hpp"

namespace smfem::contact {

int minimize_along_translation(sim::Dynamics& dynamics, ContactPotential& contact,
                               const Eigen::VectorXd& t, ReducedMatrix& U) {
  const Eigen::Index n = t.size();
  ReducedMatrix gradient(n, 3), contact_gradient(n, 3), direction(n, 3), trial(n, 3);
  const double inertia = t.dot(dynamics.hessian_block() * t);
  int iterations = 0;
  for (; iterations < kTranslationIterations; ++iterations) {
    dynamics.gradient(U, gradient);
    contact.linearize(U, contact_gradient);
    gradient += contact_gradient;
    const Eigen::Vector3d slope_tau = gradient.transpose() * t;
    // The Hessian in tau: inertia's t^T H_block t on the diagonal, plus the contact's blocks.
    Eigen::Matrix3d hessian = inertia * Eigen::Matrix3d::Identity();
    for (int d = 0; d < 3; ++d) {
      for (int e = 0; e < 3; ++e) {
        hessian(d, e) += contact.hessian().form(t * Eigen::RowVector3d::Unit(d),
                                                t * Eigen::RowVector3d::Unit(e));
      }
    }
    const Eigen::Vector3d step = -hessian.ldlt().solve(slope_tau);
    const double slope = slope_tau.dot(step);
    if (!step.allFinite() || !(slope < 0.0)) break;
    direction = t * step.transpose();
    const double max_step = contact.max_step(U, direction);
    const double start = dynamics.energy(U) + contact.energy_along(0.0, U);
    const auto change = [&](double alpha) {
      trial = U + alpha * direction;
      return dynamics.energy(trial) + contact.energy_along(alpha, trial) - start;
    };
    const sim::LineSearchResult search = sim::backtracking_line_search(change, slope, 30, max_step);
    if (!search.accepted) break;
    U += search.step * direction;
    // Converged: the step's predicted decrease is below rounding.
    if (sim::lost_in_rounding(-0.5 * slope, std::abs(start))) {
      ++iterations;
      break;
    }
  }
  return iterations;
}

}  // namespace smfem::contact
