#include "smfem/sim/step/mfem_step.hpp"

#include <cmath>
#include <limits>

#include "smfem/polar/polar.hpp"
#include "smfem/polar/polar_derivatives.hpp"
#include "smfem/polar/stretch_curvature.hpp"
#include "smfem/polar/stretch_vector.hpp"
#include "smfem/sim/step/eigenfit_term.hpp"
#include "smfem/sim/step/line_search.hpp"

namespace smfem::sim {
namespace {

// The constraint term's curvature in K (mfem_step.hpp).
enum class CurvatureTerm { exact, psd_part, dropped };
// Diagonal shifts (spd_solver.hpp: sigma = 1e-12, 1e-10, ... of each diagonal entry) that only
// make up for rounding, not for an indefinite system: up to 1e-6 for a float K, 1e-12 for a
// double one. A larger shift of a double K hides a truly indefinite system: on the crab with its
// shell 1e6 times stiffer than its knees, the exact curvature's negative part in the knees is
// about 1e-6 of the rows' diagonals (the stiff shell's), four shifts made it "definite", and
// the shifted direction, damped in every soft direction, stalled the step (decrement down 7 % an
// iteration, > 30 iterations, where the paper's direction converges in 15).
constexpr int kRoundingShiftsFloat = 4;
constexpr int kRoundingShiftsDouble = 1;
// The curvature variant's second choice where the exact term fails: the paper's (the PSD part
// converged far slower on the claims suite and in the tests' deformed boxes, docs/claim.md).
constexpr CurvatureTerm kFallbackTerm = CurvatureTerm::dropped;

CurvatureTerm first_term(MixedVariant variant) {
  switch (variant) {
    case MixedVariant::paper:
      return CurvatureTerm::dropped;
    case MixedVariant::projected:
      return CurvatureTerm::psd_part;
    case MixedVariant::curvature:
      break;
  }
  return CurvatureTerm::exact;
}

// ||D v||_1 with D = diag(1, 1, 1, 2, 2, 2).
double metric_l1(const Vector6<double>& v) {
  return v.head<3>().cwiseAbs().sum() + 2.0 * v.tail<3>().cwiseAbs().sum();
}

}  // namespace

void consistent_multipliers(MaterialModel material, const std::vector<Lame>& lame,
                            const StretchField& z, StretchField& lambda) {
  const Vector6<double> metric = polar::stretch_metric<double>();
  for (Eigen::Index t = 0; t < z.cols(); ++t) {
    lambda.col(t) = dpsi_ds(material, Vector6<double>(z.col(t)), lame[static_cast<std::size_t>(t)])
                        .cwiseQuotient(metric);
  }
}

void make_stretches_consistent(const TetDeformation& deformation, MaterialModel material,
                               const std::vector<Lame>& lame, const ReducedMatrix& U,
                               StretchField& z, StretchField& lambda) {
  for (Eigen::Index t = 0; t < z.cols(); ++t) {
    z.col(t) = polar::symmetric_stretch(Matrix3<double>(
        Matrix3<double>::Identity() + deformation.displacement_gradient(static_cast<int>(t), U)));
  }
  consistent_multipliers(material, lame, z, lambda);
}

MfemStep::MfemStep(int coordinate_rows, int tet_count)
    : current_(tet_count),
      trial_(tet_count),
      dstretch_dF_(static_cast<std::size_t>(tet_count)),
      constraint_curvature_(static_cast<std::size_t>(tet_count)),
      hessian_(static_cast<std::size_t>(tet_count)),
      grad_psi_(StretchField::Zero(6, tet_count)),
      violation_(StretchField::Zero(6, tet_count)),
      dz_(StretchField::Zero(6, tet_count)),
      lambda_new_(StretchField::Zero(6, tet_count)),
      z_trial_(StretchField::Zero(6, tet_count)),
      psi_(Eigen::VectorXd::Zero(tet_count)),
      penalty_(Eigen::VectorXd::Zero(tet_count)),
      curvature_(Eigen::VectorXd::Zero(tet_count)),
      slope_(Eigen::VectorXd::Zero(tet_count)),
      lambda_max_(Eigen::VectorXd::Zero(tet_count)),
      nu_(Eigen::VectorXd::Zero(tet_count)),
      nu_start_(Eigen::VectorXd::Zero(tet_count)),
      psi_trial_(Eigen::VectorXd::Zero(tet_count)),
      model_error_trial_(Eigen::VectorXd::Zero(tet_count)),
      penalty_trial_(Eigen::VectorXd::Zero(tet_count)),
      dynamics_gradient_(ReducedMatrix::Zero(coordinate_rows, 3)),
      du_(ReducedMatrix::Zero(coordinate_rows, 3)),
      U_trial_(ReducedMatrix::Zero(coordinate_rows, 3)),
      contact_gradient_(ReducedMatrix::Zero(coordinate_rows, 3)),
      gradient_(ReducedMatrix::Zero(coordinate_rows, 3)) {}

void MfemStep::solve(StepContext& context, ReducedMatrix& U, StretchField& z, StretchField& lambda,
                     StepStats& stats) {
  const int tet_count = static_cast<int>(context.weights.size());
  const Eigen::VectorXd& w = context.weights;
  const MaterialModel material = context.material;
  const Vector6<double> metric = polar::stretch_metric<double>();
  const CurvatureTerm term = first_term(context.settings.mixed_variant);
  StepSystem& system = context.system;
  StepContact* const contact = context.contact;
  // EigenFit (eigenfit_term.hpp): C(z) joins the stretch energy. fit_energy_ is C at the
  // iterate's z, fit_measure_z_ its measure there and fit_measure_s_ that of s(F(u)).
  EigenFitTerm* const fit = context.eigenfit;

  Stopwatch clock;
  parallel_for_tets(context.pool, tet_count,
                    [&](int c) { current_.evaluate(c, deformation_gradient(context, c, U)); });
  if (!context.moving_tets.empty()) {
    // The held tets (step_context.hpp) keep z, lambda and their kinematics through every trial,
    // and add nothing to the merit's changes, slopes and curvatures.
    for (Eigen::VectorXd* terms : {&psi_, &penalty_, &curvature_, &slope_, &lambda_max_,
                                   &psi_trial_, &penalty_trial_, &model_error_trial_}) {
      terms->setZero();
    }
    z_trial_ = z;
    lambda_new_ = lambda;
    trial_ = current_;
  }
  if (fit != nullptr) fit->measure(current_.s, fit_measure_s_);
  clock.lap(stats.times.prediction);

  // K's block of tet c: J^T H J plus the constraint term's curvature at the current
  // multipliers (mfem_step.hpp) as `curvature` says.
  const auto set_tet_hessian = [&](int c, CurvatureTerm curvature) {
    const auto index = static_cast<std::size_t>(c);
    const Matrix6x9<double>& J = dstretch_dF_[index];
    // Lazy (coefficient-wise) products: at these fixed sizes Eigen's default is its blocked
    // GEMM, which packs both operands on every call.
    const Eigen::Matrix<double, 6, 9> HJ = hessian_[index].lazyProduct(J);
    if (curvature == CurvatureTerm::dropped) {
      system.set_tet_hessian(c, J.transpose().lazyProduct(HJ));
      return;
    }
    constraint_curvature_[index] = polar::coaxial_stretch_curvature(
        current_.svd[index], Vector6<double>(metric.cwiseProduct(lambda.col(c))),
        curvature == CurvatureTerm::exact ? polar::CurvatureProjection::none
                                          : polar::CurvatureProjection::psd);
    system.set_tet_hessian(c, J.transpose().lazyProduct(HJ) + constraint_curvature_[index]);
  };

  // The direction from the tet Hessians set: solves for du, then per tet dz, lambda+ and the
  // terms of the decrement and the merit's slope (and raises the penalties to lambda+).
  struct Direction {
    int shifts = 0;  // of the Cholesky factorization, -1 if it failed
    double du_curvature = 0.0, du_slope = 0.0, decrement_squared = 0.0, slope = 0.0;
    // Contact: the largest intersection-free step and Psi_c at U.
    double max_step = 1.0, contact_energy = 0.0;
    // Newton's direction as the theory above wants it: from a positive definite system (to
    // the rounding of a float K, which may need small shifts) and descending the merit.
    bool usable(int rounding_shifts) const {
      return shifts >= 0 && shifts <= rounding_shifts && decrement_squared > 0.0 && slope < 0.0;
    }
  };
  CurvatureTerm in_K = term;  // the curvature term the tet Hessians set hold
  const auto direction = [&]() {
    Direction d;
    system.assemble(context.pool);
    clock.lap(stats.times.assembly);
    context.dynamics.gradient(U, dynamics_gradient_);
    gradient_ = dynamics_gradient_;
    if (contact != nullptr) gradient_ += contact_gradient_;
    d.shifts = system.solve(gradient_, du_);
    clock.lap(stats.times.solve);
    if (d.shifts < 0 || !du_.allFinite()) {
      d.shifts = -1;
      return d;
    }
    // EigenFit: the measure at z + dz, alpha(s) + B^T du (the z rows of the KKT system give
    // lambda+ the stress of C there).
    if (fit != nullptr) {
      fit->coupling_transpose_times(du_, fit_change_);
      fit_measure_new_ = fit_measure_s_ + fit_change_;
    }
    parallel_for_moving_tets(context, [&](int c) {
      const auto index = static_cast<std::size_t>(c);
      const Matrix3<double> dF = context.deformation.displacement_gradient(c, du_);
      const Eigen::Map<const Vector9<double>> dF_vector(dF.data());
      const Vector6<double> dz = violation_.col(c) + dstretch_dF_[index] * dF_vector;
      const Vector6<double> H_dz = hessian_[index] * dz;
      Vector6<double> stress = grad_psi_.col(c) + H_dz;
      if (fit != nullptr) stress += fit->stress(c, fit_measure_new_);
      const Vector6<double> lambda_new = stress.cwiseQuotient(metric);
      dz_.col(c) = dz;
      lambda_new_.col(c) = lambda_new;
      curvature_(c) = w(c) * dz.dot(H_dz);
      if (in_K != CurvatureTerm::dropped) {
        curvature_(c) += w(c) * dF_vector.dot(constraint_curvature_[index] * dF_vector);
      }
      slope_(c) = w(c) * grad_psi_.col(c).dot(dz);
      lambda_max_(c) = lambda_new.cwiseAbs().maxCoeff();
    });
    d.du_curvature = context.dynamics.curvature(du_);
    d.du_slope = dynamics_gradient_.cwiseProduct(du_).sum();
    d.decrement_squared = d.du_curvature + curvature_.sum();
    double fit_slope = 0.0;
    if (fit != nullptr) {
      // C's change along dz: its measure moves by beta = A^T dz = alpha(s) - alpha(z) + B^T du.
      fit_change_ += fit_measure_s_ - fit_measure_z_;
      const Eigen::VectorXd& g = fit->weights();
      d.decrement_squared += fit_change_.dot(g.cwiseProduct(fit_change_));
      fit_slope = fit->slope(fit_measure_z_, fit_change_);
    }
    double contact_slope = 0.0;
    if (contact != nullptr) {
      d.decrement_squared += contact->curvature(du_);
      contact_slope = contact_gradient_.cwiseProduct(du_).sum();
      d.max_step = contact->max_step(U, du_);
      d.contact_energy = contact->energy_along(0.0, U);
    }
    // The penalties this direction's merit needs: raised from the iteration's start, so that a
    // direction given up leaves no trace in them.
    nu_ = nu_start_.cwiseMax(kPenaltyFactor * lambda_max_);
    d.slope = d.du_slope + contact_slope + fit_slope + slope_.sum() - nu_.dot(penalty_);
    clock.lap(stats.times.local_update);
    return d;
  };

  nu_.setZero();
  // An attempt that goes on from an earlier one of the step (simulator.hpp) keeps that one's
  // first decrement as the measure of convergence.
  const bool going_on = stats.first_decrement > 0.0;
  for (int iteration = 0; iteration < context.settings.iterations; ++iteration) {
    // Per tet: the constraint Jacobian in F, the stretch energy's derivatives at z_c, and the
    // tet's share of K and of the right-hand side.
    parallel_for_moving_tets(context, [&](int c) {
      const auto index = static_cast<std::size_t>(c);
      const Lame& lame = context.lame[index];
      const Vector6<double> zc = z.col(c);
      const Matrix6x9<double> J = polar::dstretch_dF(current_.svd[index]);
      const Matrix6<double> H = d2psi_ds2_psd(material, zc, lame);
      const Vector6<double> gpsi = dpsi_ds(material, zc, lame);
      const Vector6<double> g = current_.s.col(c) - zc;
      Vector6<double> stress = gpsi + H * g;
      // EigenFit: the stress of C at s(F(u)) (C's gradient at z plus its Hessian times g).
      if (fit != nullptr) {
        stress += fit->stress(c, fit_measure_s_);
        fit->set_tet_jacobian(c, J);
      }
      const Vector9<double> force = J.transpose() * stress;
      system.set_tet_gradient(c, Eigen::Map<const Matrix3<double>>(force.data()));
      dstretch_dF_[index] = J;
      hessian_[index] = H;
      grad_psi_.col(c) = gpsi;
      violation_.col(c) = g;
      psi_(c) = w(c) * psi(material, zc, lame);
      penalty_(c) = w(c) * metric_l1(g);
      set_tet_hessian(c, term);
    });
    if (contact != nullptr) contact->linearize(U, contact_gradient_);
    if (fit != nullptr) {
      fit->measure(z, fit_measure_z_);
      fit_energy_ = fit->energy(fit_measure_z_);
    }
    clock.lap(stats.times.linearization);
    if (fit != nullptr) {
      fit->assemble(context.pool);
      clock.lap(stats.times.assembly);
    }

    nu_start_ = nu_;
    in_K = term;
    Direction d = direction();
    // The curvature variant's second choice (mfem_step.hpp), taken at most once an iteration.
    bool refined = term != CurvatureTerm::exact;
    const auto refine = [&]() {
      refined = true;
      ++stats.curvature_fallbacks;
      in_K = kFallbackTerm;
      parallel_for_moving_tets(context, [&](int c) { set_tet_hessian(c, kFallbackTerm); });
      clock.lap(stats.times.linearization);
      d = direction();
    };
    // Books the direction the iteration takes; false where it is unusable: a failed solve, or
    // a curvature or slope that overflowed (absurd forces, say).
    double decrement = 0.0;
    const auto take = [&]() {
      if (d.shifts < 0 || !std::isfinite(d.decrement_squared) || !std::isfinite(d.slope)) {
        stats.failed = true;
        return false;
      }
      stats.cholesky_shifts += d.shifts;
      decrement = std::sqrt(std::max(d.decrement_squared, 0.0));
      if (iteration == 0 && !going_on) stats.first_decrement = decrement;
      stats.decrement = decrement;
      stats.penalty = nu_.maxCoeff();
      return true;
    };
    if (!refined &&
        !d.usable(context.settings.single_precision_stiffness ? kRoundingShiftsFloat
                                                              : kRoundingShiftsDouble)) {
      stats.cholesky_shifts += std::max(d.shifts, 0);
      refine();
    }
    if (d.shifts >= 0) ++stats.iterations;
    if (!take()) return;
    const double& decrement_squared = d.decrement_squared;

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

    // phi(alpha) - phi(0), as a sum of per-tet differences; Psi_u's change is exact (quadratic).
    // With `corrected`, z moves to s(F(u + alpha du)) - (1 - alpha) g instead of z + alpha dz:
    // the second-order correction of the constraint (see below). A plain trial beyond the
    // linearization's trust (mfem_step.hpp) gets the largest finite change: refused, but not
    // counted as a non-finite trial.
    const auto merit_change = [&](double alpha, bool corrected) {
      U_trial_ = U + alpha * du_;
      parallel_for_moving_tets(context, [&](int c) {
        const auto index = static_cast<std::size_t>(c);
        trial_.evaluate_near(c, deformation_gradient(context, c, U_trial_), current_);
        const Vector6<double> zc =
            corrected ? Vector6<double>(trial_.s.col(c) - (1.0 - alpha) * violation_.col(c))
                      : Vector6<double>(z.col(c) + alpha * dz_.col(c));
        z_trial_.col(c) = zc;
        psi_trial_(c) = w(c) * psi(material, zc, context.lame[index]);
        penalty_trial_(c) = w(c) * metric_l1(trial_.s.col(c) - zc);
        if (!corrected) {
          // dz - g = J dF: the model's change of s.
          const Vector6<double> model = alpha * (dz_.col(c) - violation_.col(c));
          const Vector6<double> error = trial_.s.col(c) - current_.s.col(c) - model;
          model_error_trial_(c) = error.cwiseAbs().maxCoeff() /
                                  std::max(model.cwiseAbs().maxCoeff(), kLinearizationFloor);
        }
      });
      if (!corrected && model_error_trial_.maxCoeff() > kLinearizationTrust) {
        return std::numeric_limits<double>::max();
      }
      double change = alpha * d.du_slope + 0.5 * alpha * alpha * d.du_curvature;
      for (int c = 0; c < tet_count; ++c) {
        change += (psi_trial_(c) - psi_(c)) + nu_(c) * (penalty_trial_(c) - penalty_(c));
      }
      if (contact != nullptr) {
        change += contact->energy_along(alpha, U_trial_) - d.contact_energy;
      }
      if (fit != nullptr) {
        fit->measure(z_trial_, fit_measure_trial_);
        change += fit->energy(fit_measure_trial_) - fit_energy_;
      }
      return change;
    };
    // A step CCD shortened is never taken unjudged.
    const auto lost_now = [&]() {
      return d.max_step == 1.0 &&
             lost_in_rounding(0.5 * d.decrement_squared,
                              std::abs(context.dynamics.energy(U)) + psi_.cwiseAbs().sum() +
                                  nu_.dot(penalty_) + std::abs(d.contact_energy) +
                                  std::abs(fit_energy_));
    };
    bool lost = lost_now();
    const auto plain_change = [&](double alpha) { return merit_change(alpha, false); };
    LineSearchResult search;
    if (!lost && !refined) {
      // The exact curvature's Newton step is taken whole or not at all: where the merit refuses
      // it, its quadratic model is not to be trusted this far from the solution, and the
      // second choice's direction is searched instead.
      search = backtracking_line_search(plain_change, d.slope, 0, d.max_step);
      if (!search.accepted) {
        clock.lap(stats.times.line_search);
        refine();
        if (!take()) return;
        lost = lost_now();
      }
    }
    if (!search.accepted) {
      search = lost ? unjudged_full_step(plain_change)
                    : backtracking_line_search(plain_change, d.slope,
                                               context.settings.max_backtracks, d.max_step);
    }
    // Near the solution the l1 merit can reject good Newton steps (the Maratos effect: the
    // constraint's curvature leaves an O(|du|^2) violation that the penalty, weighted by nu ~
    // the stresses, charges more than the step gains), and the iteration stalls on tiny steps.
    // Then the full step is retried with z placed to leave exactly the linearized violation
    // (1 - alpha) g = 0, the second-order correction of Nocedal & Wright (§15.6). Only in the
    // tail (decrement already 1e-3 of the first): far from the solution z keeps its own update,
    // which is what distinguishes the mixed method.
    if (!lost && d.max_step == 1.0 && (!search.accepted || search.step < 1.0) &&
        (iteration > 0 || going_on) && decrement <= 1e-3 * stats.first_decrement) {
      const double change = merit_change(1.0, true);
      if (std::isfinite(change) && change <= kArmijoConstant * d.slope) {
        search = LineSearchResult{1.0, search.backtracks, true, false};
      } else if (search.accepted) {
        // Re-evaluate the plain trial the search accepted: the trial buffers hold the corrected
        // one.
        merit_change(search.step, false);
      }
    }
    stats.backtracks += search.backtracks;
    clock.lap(stats.times.line_search);
    if (!search.accepted) {
      record_rejected_search(search, lost, stats);
      return;
    }
    stats.contact_limited = search.step < 1.0 && (stats.contact_limited || d.max_step < 1.0);
    // The last trial evaluated is the accepted one.
    U.swap(U_trial_);
    z.swap(z_trial_);
    lambda += search.step * (lambda_new_ - lambda);
    current_.swap(trial_);
    if (fit != nullptr) fit->measure(current_.s, fit_measure_s_);
    if (lost) {
      stats.converged = true;
      return;
    }
  }
}

}  // namespace smfem::sim
