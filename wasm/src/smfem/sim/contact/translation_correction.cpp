#include "smfem/sim/contact/translation_correction.hpp"

#include <cmath>

#include <Eigen/Cholesky>

#include "smfem/sim/step/line_search.hpp"

namespace smfem::contact {
namespace {

// A body that can translate: its rows of U and its part of t.
struct Mover {
  int first_row = 0, rows = 0;
  int body = 0;  // the contact's part
};

std::vector<Mover> movers_of(const Eigen::VectorXd& t,
                             const std::vector<sim::ReducedModel::Body>& bodies) {
  std::vector<Mover> movers;
  if (bodies.empty()) {
    if (!t.isZero(0.0)) movers.push_back({0, static_cast<int>(t.size()), 0});
    return movers;
  }
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const sim::ReducedModel::Body& body = bodies[b];
    const Mover mover{4 * body.first_mode, 4 * body.modes, static_cast<int>(b)};
    if (!t.segment(mover.first_row, mover.rows).isZero(0.0)) movers.push_back(mover);
  }
  return movers;
}

}  // namespace

int minimize_along_translation(sim::Dynamics& dynamics, ContactPotential& contact,
                               const Eigen::VectorXd& t,
                               const std::vector<sim::ReducedModel::Body>& bodies,
                               ReducedMatrix& U) {
  const std::vector<Mover> movers = movers_of(t, bodies);
  const auto k = static_cast<Eigen::Index>(movers.size());
  if (k == 0) return 0;
  const Eigen::Index n = t.size();
  ReducedMatrix gradient(n, 3), contact_gradient(n, 3), direction(n, 3), trial(n, 3);
  Eigen::MatrixXd contact_hessian;  // along the bodies' translations
  // Inertia (and springs) projected: t_i^T H_block t_j, the same for each coordinate.
  const Eigen::MatrixXd& H_block = dynamics.hessian_block();
  Eigen::MatrixXd inertia(k, k);
  for (Eigen::Index i = 0; i < k; ++i) {
    const Mover& a = movers[static_cast<std::size_t>(i)];
    for (Eigen::Index j = 0; j < k; ++j) {
      const Mover& b = movers[static_cast<std::size_t>(j)];
      inertia(i, j) = t.segment(a.first_row, a.rows)
                          .dot(H_block.block(a.first_row, b.first_row, a.rows, b.rows) *
                               t.segment(b.first_row, b.rows));
    }
  }
  int iterations = 0;
  for (; iterations < kTranslationIterations; ++iterations) {
    dynamics.gradient(U, gradient);
    contact.linearize_translations(U, t, contact_gradient, contact_hessian);
    gradient += contact_gradient;
    Eigen::VectorXd slope_tau(3 * k);
    Eigen::MatrixXd hessian(3 * k, 3 * k);
    for (Eigen::Index i = 0; i < k; ++i) {
      const Mover& a = movers[static_cast<std::size_t>(i)];
      slope_tau.segment<3>(3 * i) =
          gradient.middleRows(a.first_row, a.rows).transpose() * t.segment(a.first_row, a.rows);
      for (Eigen::Index j = 0; j < k; ++j) {
        const Mover& b = movers[static_cast<std::size_t>(j)];
        hessian.block<3, 3>(3 * i, 3 * j) = contact_hessian.block<3, 3>(3 * a.body, 3 * b.body);
        hessian.block<3, 3>(3 * i, 3 * j).diagonal().array() += inertia(i, j);
      }
    }
    Eigen::VectorXd step(3 * k);
    const bool together = iterations == 0 && k > 1;
    if (together) {
      // First the bodies' common translation: along it the pairs between them keep their
      // distances, so only inertia and the obstacles' pairs count (the blocks of a pair between
      // two bodies cancel in the sum), and with no obstacle near it is exact in one step. The
      // full step can seldom take it: from a contact crushed to rounding its CCD limit let two
      // balls that met at 1e-7 m move 7-30 % of each step, and they lost 28 % of their momentum.
      Eigen::Matrix3d common = Eigen::Matrix3d::Zero();
      Eigen::Vector3d slope_common = Eigen::Vector3d::Zero();
      for (Eigen::Index i = 0; i < k; ++i) {
        slope_common += slope_tau.segment<3>(3 * i);
        for (Eigen::Index j = 0; j < k; ++j) common += hessian.block<3, 3>(3 * i, 3 * j);
      }
      step = (-common.ldlt().solve(slope_common)).replicate(k, 1);
    } else {
      step = -hessian.ldlt().solve(slope_tau);
    }
    const double slope = slope_tau.dot(step);
    if (!step.allFinite() || !(slope < 0.0)) {
      if (together) continue;  // nothing to gain together: each on its own then
      break;
    }
    direction.setZero();
    for (Eigen::Index i = 0; i < k; ++i) {
      const Mover& a = movers[static_cast<std::size_t>(i)];
      direction.middleRows(a.first_row, a.rows) =
          t.segment(a.first_row, a.rows) * step.segment<3>(3 * i).transpose();
    }
    const double max_step = contact.max_step(U, direction);
    const double start = dynamics.energy(U) + contact.energy_along(0.0, U);
    const auto change = [&](double alpha) {
      trial = U + alpha * direction;
      return dynamics.energy(trial) + contact.energy_along(alpha, trial) - start;
    };
    const sim::LineSearchResult search = sim::backtracking_line_search(change, slope, 30, max_step);
    if (!search.accepted) {
      if (together) continue;
      break;
    }
    U += search.step * direction;
    // Converged: the step's predicted decrease is below rounding (together, only the common
    // part converged).
    if (!together && sim::lost_in_rounding(-0.5 * slope, std::abs(start))) {
      ++iterations;
      break;
    }
  }
  return iterations;
}

}  // namespace smfem::contact
