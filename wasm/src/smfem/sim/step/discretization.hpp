#pragma once
// What the mixed and standard FEM steps (mfem_step.hpp, fem_step.hpp) need from the
// discretization they run on, so that one implementation of each algorithm serves the
// skinning subspace (the stepper: coordinates U = the 4m x 3 reduced matrix, tets = the
// cubature tets) and, natively, the full tet mesh (full/: U = the n x 3 vertex displacements,
// tets = every tet). In both, U is a ReducedMatrix (rows x 3, column d the d-th coordinate),
// F of every tet is affine in U, and the step energy is
//
//   E = Psi_u(U) + sum_t w_t psi(F_t(U))        (Psi_u quadratic, w_t the tet's volume).
//
// Virtual calls cost nanoseconds per tet against microseconds of per-tet work, and keep one
// compiled copy of each algorithm (STYLE: no open templates).
#include <Eigen/Core>

#include "smfem/parallel/thread_pool.hpp"
#include "smfem/polar/types.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"

namespace smfem::sim {

// U -> F_t(U) - I, linear in U: also the change of F_t along a direction dU.
class TetDeformation {
 public:
  virtual ~TetDeformation() = default;
  virtual Matrix3<double> displacement_gradient(int tet, const ReducedMatrix& U) const = 0;
};

// Psi_u: the quadratic part of the step energy (inertia, external forces, springs), in J.
class InertialEnergy {
 public:
  virtual ~InertialEnergy() = default;
  virtual double energy(const ReducedMatrix& U) = 0;
  // dPsi_u/dU, the shape of U.
  virtual void gradient(const ReducedMatrix& U, ReducedMatrix& out) = 0;
  // dU^T H_u dU: with the gradient g at U, Psi_u(U + a dU) - Psi_u(U) = a g . dU + a^2 / 2 this.
  virtual double curvature(const ReducedMatrix& dU) = 0;
};

// The contact term of Psi_u, as the steps use it: the stepper's bodies against obstacles and
// each other (sim/contact/contact_potential.hpp), a full-space body's vertices against obstacles
// (full/obstacle_contact.hpp). Its Hessian reaches the system through the system's own link to
// it, not through the steps.
class StepContact {
 public:
  virtual ~StepContact() = default;
  // Gathers the pairs near U, sets gradient (the shape of U) and the Hessian there.
  virtual void linearize(const ReducedMatrix& U, ReducedMatrix& gradient) = 0;
  // dU^T H_c dU with the Hessian of the last linearize().
  virtual double curvature(const ReducedMatrix& dU) const = 0;
  // The largest alpha in [0, 1] for which U + a dU is intersection-free for every a <= alpha
  // (continuous collision detection, keeping a fraction of each distance); gathers the
  // segment's pairs for energy_along().
  virtual double max_step(const ReducedMatrix& U, const ReducedMatrix& dU) = 0;
  // Psi_c at U + alpha dU for the U and dU of the last max_step() (given as U_trial too).
  virtual double energy_along(double alpha, const ReducedMatrix& U_trial) = 0;
};

// The global linear system of an iteration, (H_u + K) dU = -(dPsi_u/dU + force), from per-tet
// inputs in F space: K = sum_t w_t (dF_t/dU)^T Q_t (dF_t/dU), force = sum_t w_t (dF_t/dU)^T P_t.
class StepSystem {
 public:
  virtual ~StepSystem() = default;
  // Per-tet inputs, set in parallel (each tet touches only its own storage): Q_t, a symmetric
  // 9 x 9 Hessian on column-major vec(F), and P_t = dpsi/dF (3 x 3), both per unit volume.
  virtual void set_tet_hessian(int tet, const Matrix9<double>& hessian) = 0;
  virtual void set_tet_gradient(int tet, const Matrix3<double>& gradient) = 0;
  // Forms K and the force from every tet's inputs.
  virtual void assemble(parallel::ThreadPool& pool) = 0;
  // After assemble(): solves the system at the Psi_u gradient dynamics_gradient. Returns the
  // diagonal shifts a failed Cholesky factorization needed (0 normally), -1 on failure.
  virtual int solve(const ReducedMatrix& dynamics_gradient, ReducedMatrix& dU) = 0;
  // The right-hand side of the last solve, -(dPsi_u/dU + force).
  virtual const ReducedMatrix& rhs() const = 0;
};

}  // namespace smfem::sim
