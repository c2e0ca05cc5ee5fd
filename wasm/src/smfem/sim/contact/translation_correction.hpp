#pragma once
// After a step that contact cut short (StepStats::contact_limited): the step energy minimized
// exactly along each body's rigid translation, three degrees of freedom per body that can
// translate.
//
// Why: a CCD-shortened Newton step keeps the iterate short of where inertia carries it, and at 1
// or 2 iterations per step nothing makes up for it: a body thrown at another stops dead, and the
// momentum the collision should pass on is lost. Translating a body leaves its elastic energy as
// it is, so along these directions the step energy is Psi_u plus the barrier (between bodies and
// against obstacles) and friction, whose minimizer is the momentum balance of every body under
// its contact forces: a struck body is pushed by the one that strikes it, a body held by
// friction stays, and the pair's forces are equal and opposite, so the momentum the truncated
// step would lose is passed on. It is a descent step on the same energy (Newton on the 3B
// translations, with the contact Hessian projected on them, CCD-limited and Armijo-checked like
// every trial), so it never makes the iterate worse, and at a converged step it does nothing.
#include <vector>

#include <Eigen/Core>

#include "smfem/sim/contact/contact_potential.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/step/dynamics.hpp"

namespace smfem::contact {

inline constexpr int kTranslationIterations = 6;

// translation: the 4m-vector t whose U = t e_d^T translates every body that can by e_d (zero on
// bodies that cannot translate: pinned ones); bodies: the model's bodies (ReducedModel::bodies;
// empty: one body). Newton in the translations with CCD and Armijo backtracking, at most
// kTranslationIterations; returns the iterations taken. U is updated in place.
int minimize_along_translation(sim::Dynamics& dynamics, ContactPotential& contact,
                               const Eigen::VectorXd& translation,
                               const std::vector<sim::ReducedModel::Body>& bodies,
                               ReducedMatrix& U);

}  // namespace smfem::contact
