#include "smfem/sim/contact/translation_correction.hpp"

#include <cmath>

#include <Eigen/Cholesky>

#include "smfem/sim/step/line_search.hpp"

namespace smfem::contact {
namespace {

// A body that can translate: its rows of U and its part of t.
struct Mover {
  int first_row = 0, rows = 0;
};

std::vector<Mover> movers_of(const Eigen::VectorXd& t,
                             const std::vector<sim::ReducedModel::Body>& bodies) {
  std::vector<Mover> movers;
  if (bodies.empty()) {
    if (!t.isZero(0.0)) movers.push_back({0, static_cast<int>(t.size())});
    return movers;
  }
  for (const sim::ReducedModel::Body& body : bodies) {
    const Mover mover{4 * body.first_mode, 4 * body.modes};
    if (!t.segment(mover.first_row, mover.rows).isZero(0.0)) movers.push_back(mover);
  }
  return movers;
}

// The mover whose rows start at `first_row`, or -1.
int mover_at(const std::vector<Mover>& movers, int first_row) {
  for (std::size_t i = 0; i < movers.size(); ++i) {
    if (movers[i].first_row == first_row) return static_cast<int>(i);
  }
  return -1;
}

// H += the contact Hessian projected on the movers' translations: entry (3i + d, 3j + e) is
// (t_i e_d)^T H_c (t_j e_e), group by group (each touches one body or two).
void add_projected_contact(const ContactHessian& hessian, const std::vector<Mover>& movers,
                           const Eigen::VectorXd& t, Eigen::MatrixXd& H) {
  for (const ContactHessian::Group& group : hessian.groups()) {
    const int w = group.width();
    const int first = mover_at(movers, group.first.first);
    const int second = group.second.count > 0 ? mover_at(movers, group.second.first) : -1;
    // The group's rows of each mover's t (zero elsewhere).
    Eigen::VectorXd v_first = Eigen::VectorXd::Zero(w), v_second = Eigen::VectorXd::Zero(w);
    v_first.head(group.first.count) = t.segment(group.first.first, group.first.count);
    if (group.second.count > 0) {
      v_second.tail(group.second.count) = t.segment(group.second.first, group.second.count);
    }
    const std::pair<int, const Eigen::VectorXd*> sides[2] = {{first, &v_first},
                                                             {second, &v_second}};
    for (const auto& [i, vi] : sides) {
      if (i < 0) continue;
      for (const auto& [j, vj] : sides) {
        if (j < 0) continue;
        for (int d = 0; d < 3; ++d) {
          for (int e = 0; e < 3; ++e) {
            H(3 * i + d, 3 * j + e) += vi->dot(group.block.block(d * w, e * w, w, w) * *vj);
          }
        }
      }
    }
  }
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
    contact.linearize(U, contact_gradient);
    gradient += contact_gradient;
    Eigen::VectorXd slope_tau(3 * k);
    Eigen::MatrixXd hessian = Eigen::MatrixXd::Zero(3 * k, 3 * k);
    for (Eigen::Index i = 0; i < k; ++i) {
      const Mover& a = movers[static_cast<std::size_t>(i)];
      slope_tau.segment<3>(3 * i) =
          gradient.middleRows(a.first_row, a.rows).transpose() * t.segment(a.first_row, a.rows);
      for (Eigen::Index j = 0; j < k; ++j) {
        hessian.block<3, 3>(3 * i, 3 * j).diagonal().setConstant(inertia(i, j));
      }
    }
    add_projected_contact(contact.hessian(), movers, t, hessian);
    const Eigen::VectorXd step = -hessian.ldlt().solve(slope_tau);
    const double slope = slope_tau.dot(step);
    if (!step.allFinite() || !(slope < 0.0)) break;
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
