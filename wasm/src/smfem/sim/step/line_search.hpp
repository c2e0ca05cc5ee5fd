#pragma once
// Backtracking line search with the Armijo (sufficient decrease) condition, shared by both
// solvers:
//
//   accept the first alpha in 1, 1/2, 1/4, ... with  change(alpha) <= c1 alpha slope,
//
// change(alpha) = phi(x + alpha p) - phi(x) for the solver's merit phi, slope its directional
// derivative along p (negative for a descent direction). A non-finite change (a trial state
// with NaN or infinity anywhere) counts as a failed trial, so such a state is never accepted.
// The merit is passed as a change rather than two values because the solvers compute it as a
// sum of per-tet differences, without the cancellation of subtracting two large energies.
#include <cmath>

#include "smfem/sim/step/step_context.hpp"

namespace smfem::sim {

struct LineSearchResult {
  double step = 0.0;   // the accepted alpha, 0 if none
  int backtracks = 0;  // halvings performed
  bool accepted = false;
  bool all_nonfinite = false;  // not accepted, and every trial state was non-finite
};

inline constexpr double kArmijoConstant = 1e-4;  // c1

// change(alpha) must have the signature double(double). Tries at most max_backtracks + 1
// step sizes, from first_step (below 1 where contact's CCD limits the step); requires
// slope < 0 (returns not accepted otherwise).
template <class Change>
LineSearchResult backtracking_line_search(Change&& change, double slope, int max_backtracks,
                                          double first_step = 1.0) {
  LineSearchResult result;
  if (!(slope < 0.0)) return result;
  double alpha = first_step;
  bool any_finite = false;
  for (int trial = 0; trial <= max_backtracks; ++trial) {
    const double delta = change(alpha);
    any_finite = any_finite || std::isfinite(delta);
    if (std::isfinite(delta) && delta <= kArmijoConstant * alpha * slope) {
      result.step = alpha;
      result.backtracks = trial;
      result.accepted = true;
      return result;
    }
    alpha *= 0.5;
  }
  result.backtracks = max_backtracks;
  result.all_nonfinite = !any_finite;
  return result;
}

// Near a solution the merit's change drowns in rounding: sums of energies of magnitude `scale`
// cannot resolve a decrease much below 1e-16 scale, so a line search there accepts or rejects
// trials by noise (and, accepting tiny steps, can stall an iteration for its whole budget). A
// predicted decrease (delta^2 / 2) below this bound counts as convergence: the iterate is as
// good as double precision can judge. 1e-12 leaves room for sums over many tets.
inline bool lost_in_rounding(double predicted_decrease, double scale) {
  return predicted_decrease <= 1e-12 * std::abs(scale);
}

// What the solvers do there: take the full Newton step unjudged (the quadratic model is exact
// at that scale) and end the iteration. change(1) is evaluated for the trial state it fills;
// a non-finite trial is not accepted.
template <class Change>
LineSearchResult unjudged_full_step(Change&& change) {
  LineSearchResult result;
  result.accepted = std::isfinite(change(1.0));
  result.step = result.accepted ? 1.0 : 0.0;
  return result;
}

// What both solvers record of a search that accepted nothing (the iteration then ends): where
// the step was lost in rounding there was nothing left to gain, so the step has converged
// without it; otherwise a line-search failure, and a failed step if every trial overflowed
// (the direction itself is unusable: absurd forces, say).
inline void record_rejected_search(const LineSearchResult& search, bool lost, StepStats& stats) {
  if (lost) {
    stats.converged = true;
    return;
  }
  ++stats.line_search_failures;
  stats.failed = search.all_nonfinite;
}

}  // namespace smfem::sim
