#pragma once
// After a step that contact cut short (StepStats::contact_limited): the step energy minimized
// exactly along the bodies' rigid translations, three degrees of freedom.
//
// Why: a CCD-shortened Newton step keeps the iterate short of where inertia carries it, and at 1
// or 2 iterations per step nothing makes up for it: bodies colliding with each other both stop
// dead, and the momentum the collision should pass on is lost (measured: 300 of 320 kg m/s at
// one iteration per step). The elastic energy and the contact between bodies do not change
// when every free body translates by the same tau, so along those directions the step energy
// is Psi_u plus the obstacles' barrier, and its minimizer satisfies
//   sum_bodies M (u - u~) / h^2 . t = f . t - (obstacle forces) . t,
// the momentum balance of the whole scene: the truncated step then keeps the total momentum
// (colliding bodies leave together, as in an inelastic collision; a converged step would bounce
// them apart). It is a descent step on the same energy (exact minimization along a subspace,
// CCD-limited like every trial), so it never makes the iterate worse, and at a converged step
// it does nothing.
#include <Eigen/Core>

#include "smfem/contact/contact_potential.hpp"
#include "smfem/sim/step/dynamics.hpp"

namespace smfem::contact {

inline constexpr int kTranslationIterations = 6;

// translation: the 4m-vector t whose U = t e_d^T translates every free body by e_d (zero on
// bodies that cannot translate: pinned ones). Newton in tau with CCD and Armijo backtracking,
// at most kTranslationIterations; returns the iterations taken. U is updated in place.
int minimize_along_translation(sim::Dynamics& dynamics, ContactPotential& contact,
                               const Eigen::VectorXd& translation, ReducedMatrix& U);

}  // namespace smfem::contact
