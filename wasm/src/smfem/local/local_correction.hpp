#pragma once
// What the global cubature already counts of the tets the patches reach (patch_set.hpp), taken
// off so that the patches' tets add exactly their local share:
//
//   E_corr(U) = -sum_e v_e psi(F_e(U_g, 0))
//
// over the patch set's tets, at the global part of F only. It does not depend on c. Plain FEM in
// both solvers (the mixed step gives the patches' tets their own stretches through
// psi(F_e(U_g, c)); a negative-weight copy with stretches would make the mixed step's merit
// meaningless), handed to the steps as a term of Psi_u beside the quadratic ones
// (sim/step/discretization.hpp: StepContact): its gradient with each linearization, its energy
// at every line-search trial, and its Hessian -sum_e v_e Y_e Q_e Y_e^T (Q_e the PSD part of
// d2psi/dF2) through the system's link to it (local_system.hpp). That Hessian is negative; with
// the patches' own tets' it nearly cancels while c is small.
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
  double curvature(const sim::ReducedMatrix& dU) const override;
  // Nothing here can collide: the whole step.
  double max_step(const sim::ReducedMatrix& U, const sim::ReducedMatrix& dU) override;
  double energy_along(double alpha, const sim::ReducedMatrix& U_trial) override;

  // E_corr at U.
  double energy(const sim::ReducedMatrix& U);
  // Q_e of the last linearize() (9 x 9 per unit volume, positive: the term's Hessian is minus
  // v_e Y_e Q_e Y_e^T).
  const Matrix9<double>& tet_hessian(int tet) const {
    return hessian_[static_cast<std::size_t>(tet)];
  }

 private:
  const PatchSet& patches_;
  sim::MaterialModel material_;
  std::vector<sim::Lame> lame_;
  parallel::ThreadPool& pool_;
  std::vector<Matrix9<double>> hessian_;
  std::vector<Matrix3<double>> stress_;  // dpsi/dF per tet
  Eigen::VectorXd psi_;                  // v_e psi per tet, summed in order
};

}  // namespace smfem::local
