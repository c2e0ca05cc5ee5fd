#include "smfem/sim/step/fem_step.hpp"

#include <cmath>

#include "smfem/polar/polar_derivatives.hpp"
#include "smfem/polar/stretch_curvature.hpp"
#include "smfem/sim/step/eigenfit_term.hpp"
#include "smfem/sim/step/line_search.hpp"

namespace smfem::sim {

Matrix9<double> fem_tet_hessian(MaterialModel material, const polar::SignedSvd<double>& svd,
                                const Lame& lame, const Vector6<double>* fit_stress) {
  Matrix9<double> hessian = d2psi_dF2_psd(material, svd, lame);
  if (fit_stress != nullptr) {
    hessian += polar::coaxial_stretch_curvature(svd, *fit_stress, polar::CurvatureProjection::psd);
  }
  return hessian;
}

FemStep::FemStep(int coordinate_rows, int tet_count)
    : current_(tet_count),
      trial_(tet_count),
      psi_(Eigen::VectorXd::Zero(tet_count)),
      psi_trial_(Eigen::VectorXd::Zero(tet_count)),
      dynamics_gradient_(ReducedMatrix::Zero(coordinate_rows, 3)),
      du_(ReducedMatrix::Zero(coordinate_rows, 3)),
      U_trial_(ReducedMatrix::Zero(coordinate_rows, 3)),
      contact_gradient_(ReducedMatrix::Zero(coordinate_rows, 3)),
      gradient_(ReducedMatrix::Zero(coordinate_rows, 3)) {}

void FemStep::solve(StepContext& context, ReducedMatrix& U, StepStats& stats) {
  const int tet_count = static_cast<int>(context.weights.size());
  const Eigen::VectorXd& w = context.weights;
  const MaterialModel material = context.material;
  StepSystem& system = context.system;
  StepContact* const contact = context.contact;
  EigenFitTerm* const fit = context.eigenfit;

  Stopwatch clock;
  parallel_for_tets(context.pool, tet_count, [&](int c) {
    current_.evaluate(c, deformation_gradient(context, c, U));
    psi_(c) = w(c) * psi(material, Vector6<double>(current_.s.col(c)),
                         context.lame[static_cast<std::size_t>(c)]);
  });
  // EigenFit: C(s(F(u))) and its measure at the iterate.
  double fit_energy = 0.0;
  if (fit != nullptr) {
    fit->measure(current_.s, fit_measure_);
    fit_energy = fit->energy(fit_measure_);
  }
  if (!context.moving_tets.empty()) {
    // The held tets (step_context.hpp) keep their kinematics and energy through every trial.
    psi_trial_ = psi_;
    trial_ = current_;
  }
  clock.lap(stats.times.prediction);

  // An attempt that goes on from an earlier one of the step (simulator.hpp) keeps that one's
  // first decrement as the measure of convergence.
  const bool going_on = stats.first_decrement > 0.0;
  for (int iteration = 0; iteration < context.settings.iterations; ++iteration) {
    parallel_for_moving_tets(context, [&](int c) {
      const auto index = static_cast<std::size_t>(c);
      const Lame& lame = context.lame[index];
      const Vector6<double> s = current_.s.col(c);
      const Matrix6x9<double> J = polar::dstretch_dF(current_.svd[index]);
      Vector6<double> stress = dpsi_ds(material, s, lame);
      Vector6<double> fit_stress;
      if (fit != nullptr) {
        // EigenFit (eigenfit_term.hpp): the stress e_c of C; its rank-s Hessian the system adds.
        fit_stress = fit->stress(c, fit_measure_);
        stress += fit_stress;
        fit->set_tet_jacobian(c, J);
      }
      const Matrix9<double> hessian = fem_tet_hessian(material, current_.svd[index], lame,
                                                      fit != nullptr ? &fit_stress : nullptr);
      const Vector9<double> dpsi_dF = J.transpose() * stress;
      system.set_tet_gradient(c, Eigen::Map<const Matrix3<double>>(dpsi_dF.data()));
      system.set_tet_hessian(c, hessian);
    });
    clock.lap(stats.times.linearization);

    system.assemble(context.pool);
    if (fit != nullptr) fit->assemble(context.pool);
    clock.lap(stats.times.assembly);

    context.dynamics.gradient(U, dynamics_gradient_);
    gradient_ = dynamics_gradient_;
    if (contact != nullptr) {
      contact->linearize(U, contact_gradient_);
      gradient_ += contact_gradient_;
    }
    const int shifts = system.solve(gradient_, du_);
    clock.lap(stats.times.solve);
    if (shifts < 0 || !du_.allFinite()) {
      stats.failed = true;
      return;
    }
    stats.cholesky_shifts += shifts;
    ++stats.iterations;

    // du^T (H_u + K) du = du . rhs; the slope grad E . du is its negative.
    const double decrement_squared = system.rhs().cwiseProduct(du_).sum();
    const double slope = -decrement_squared;
    const double du_curvature = context.dynamics.curvature(du_);
    const double du_slope = dynamics_gradient_.cwiseProduct(du_).sum();
    // A direction whose curvature or slope overflowed (absurd forces, say) is unusable.
    if (!std::isfinite(decrement_squared) || !std::isfinite(slope)) {
      stats.failed = true;
      return;
    }
    const double decrement = std::sqrt(std::max(decrement_squared, 0.0));
    if (iteration == 0 && !going_on) stats.first_decrement = decrement;
    stats.decrement = decrement;
    // Nothing left to do (at rest, say): converged whatever the mode.
    if (decrement_squared == 0.0) {
      stats.converged = true;
      return;
    }
    if (context.settings.until_converged &&
        (((iteration > 0 || going_on) &&
          decrement <= context.settings.relative_tolerance * stats.first_decrement) ||
         0.5 * decrement_squared <= context.settings.absolute_tolerance)) {
      stats.converged = true;
      return;
    }

    // Contact: the largest intersection-free step, and Psi_c's change at each trial.
    const double max_step = contact != nullptr ? contact->max_step(U, du_) : 1.0;
    const double contact_energy = contact != nullptr ? contact->energy_along(0.0, U) : 0.0;
    const auto energy_change = [&](double alpha) {
      U_trial_ = U + alpha * du_;
      parallel_for_moving_tets(context, [&](int c) {
        trial_.evaluate_near(c, deformation_gradient(context, c, U_trial_), current_);
        psi_trial_(c) = w(c) * psi(material, Vector6<double>(trial_.s.col(c)),
                                   context.lame[static_cast<std::size_t>(c)]);
      });
      double change = alpha * du_slope + 0.5 * alpha * alpha * du_curvature;
      for (int c = 0; c < tet_count; ++c) change += psi_trial_(c) - psi_(c);
      if (contact != nullptr) change += contact->energy_along(alpha, U_trial_) - contact_energy;
      if (fit != nullptr) {
        fit->measure(trial_.s, fit_measure_trial_);
        change += fit->energy(fit_measure_trial_) - fit_energy;
      }
      return change;
    };
    // A step CCD shortened is never taken unjudged.
    const bool lost =
        max_step == 1.0 &&
        lost_in_rounding(0.5 * decrement_squared,
                         std::abs(context.dynamics.energy(U)) + psi_.cwiseAbs().sum() +
                             std::abs(contact_energy) + std::abs(fit_energy));
    const LineSearchResult search =
        lost ? unjudged_full_step(energy_change)
             : backtracking_line_search(energy_change, slope, context.settings.max_backtracks,
                                        max_step);
    stats.backtracks += search.backtracks;
    clock.lap(stats.times.line_search);
    if (!search.accepted) {
      record_rejected_search(search, lost, stats);
      return;
    }
    stats.contact_limited = search.step < 1.0 && (stats.contact_limited || max_step < 1.0);
    U.swap(U_trial_);
    psi_.swap(psi_trial_);
    current_.swap(trial_);
    if (fit != nullptr) {
      fit_measure_.swap(fit_measure_trial_);
      fit_energy = fit->energy(fit_measure_);
    }
    if (lost) {
      stats.converged = true;
      return;
    }
  }
}

}  // namespace smfem::sim
