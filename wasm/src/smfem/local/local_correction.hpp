#pragma once
// What the global cubature already counts of the tets the patches reach (patch_set.hpp), and the
// work of the global deformation's stress on the patches' fields, taken off so that the patches'
// tets add only the energy of the fields beyond the global deformation's tangent:
//
//   E_corr(U) = -sum_e v_e (psi(F_0) + P(F_0) : (F - F_0)),   F_0 = F_e(U_g, 0), F = F_e(U_g, c)
//
// over the patch set's tets (P = dpsi/dF). With the patches' own sum v_e psi(F), each tet adds the
// Bregman divergence psi(F) - psi(F_0) - P(F_0) : (F - F_0): zero with its slope at c = 0, and
// bounded below. Taking off psi(F_0) alone (the exact share of the tets, as issue 26 words it) made
// the energy unbounded below on baked bodies: the global cubature (a few hundred tets fitted to
// the modes) need not count the support's tets' global energy that the fields could then cancel,
// and a pulled bunny or bar blew up in its first step (tests/native/validation/local_drag_test.cpp;
// docs/local.md). The price: the global modes' stress does no work on the fields (in linear
// elasticity the fields and the global modes no longer couple at all), so a patch shows the
// response to the loads on it, not a correction of the global modes' strain.
//
// Plain FEM in both solvers (the mixed step gives the patches' tets their own stretches through
// psi(F); a negative-weight copy with stretches would make the mixed step's merit meaningless),
// handed to the steps as a term of Psi_u beside the quadratic ones (sim/step/discretization.hpp:
// StepContact): its gradient with each linearization (on U_g and on c), its energy at every
// line-search trial, and its Hessian through the system's link to it (local_system.hpp):
// -v_e [Y Q_0 Y^T, Y Q_0 G; G^T Q_0 Y^T, 0] per tet (Q_0 the PSD part of d2psi/dF2 at F_0; the
// third derivative of psi along F - F_0 left out of the global block).
//
// Its curvature() is not this term's alone but the patches' tets' as the bordered system solved
// them: the mixed step measures its cubature tets by their stretches and leaves the patches'
// tets to this term (sim::StepContext::measured_tets). Their stretch measure (dz^T H dz, small
// where a step's direction returns the stretch to where it was) and this term's F-space one
// (-dF_0^T Q_0 dF_0, large where the body swings) did not add up to a curvature: their sum
// was negative in most dragged steps, and the step then took its direction unjudged, as lost in
// rounding, and stopped after one iteration (88 of 100 steps of the dragged crab).
#include <vector>

#include <Eigen/Core>

#include "smfem/local/patch_set.hpp"
#include "smfem/parallel/thread_pool.hpp"
#include "smfem/sim/material_model.hpp"
#include "smfem/sim/step/discretization.hpp"

namespace smfem::local {

class LocalCorrection final : public sim::StepContact {
 public:
  // lame: per tet of the patch set. Neither patches nor pool is owned.
  LocalCorrection(const PatchSet& patches, sim::MaterialModel material, std::vector<sim::Lame> lame,
                  parallel::ThreadPool& pool);

  void linearize(const sim::ReducedMatrix& U, sim::ReducedMatrix& gradient) override;
  // sum_e v_e (dF^T A_e dF + l^T Q_0 l), dF and l the whole and local parts of the tet's change
  // along dU, A_e its system block (set_system_hessian): the system's form on the patches' tets
  // (local_system.hpp); it may be negative (A_e is indefinite), the whole system's form is not.
  double curvature(const sim::ReducedMatrix& dU) const override;
  // Nothing here can collide: the whole step.
  double max_step(const sim::ReducedMatrix& U, const sim::ReducedMatrix& dU) override;
  double energy_along(double alpha, const sim::ReducedMatrix& U_trial) override;

  // E_corr at U.
  double energy(const sim::ReducedMatrix& U);
  // A step begins: the SVDs start from scratch.
  void begin_step();
  // Q_0 of the last linearize() (9 x 9 per unit volume, positive: see the header).
  const Matrix9<double>& tet_hessian(int tet) const {
    return hessian_[static_cast<std::size_t>(tet)];
  }
  // A_e, the tet's block in the bordered system (9 x 9 per unit volume; local_system.hpp).
  void set_system_hessian(int tet, const Matrix9<double>& hessian) {
    system_hessian_[static_cast<std::size_t>(tet)] = hessian;
  }

 private:
  const PatchSet& patches_;
  sim::MaterialModel material_;
  std::vector<sim::Lame> lame_;
  parallel::ThreadPool& pool_;
  std::vector<Matrix9<double>> hessian_;
  std::vector<Matrix9<double>> system_hessian_;
  // F - F_0 of a tet: the patches' part of its displacement gradient.
  Matrix3<double> local_part(int tet, const sim::ReducedMatrix& U) const;

  // Per tet, the V of F_0's SVD at the last linearize of this step (identity at its start: a
  // step depends on the state alone, so a saved state steps on bit for bit): the SVDs of the
  // next linearize and of the line search's trials start from it (polar/signed_svd.hpp).
  std::vector<Matrix3<double>> V_;
  std::vector<Matrix3<double>> stress_;         // P(F_0) per tet
  std::vector<Matrix3<double>> global_stress_;  // P(F_0) + d2psi/dF2 (F - F_0)
  Eigen::VectorXd psi_;                         // v_e psi per tet, summed in order
};

}  // namespace smfem::local
