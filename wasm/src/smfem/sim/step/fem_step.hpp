#pragma once
// One implicit Euler step by subspace FEM, the baseline: Newton's method on
//
//   E(u) = Psi_u(u) + sum_c w_c psi(F_c(u)),
//
// on the same subspace and cubature as the mixed solver. Each iteration solves
//
//   (H_u + K) du = -grad E,   K = sum_c w_c (I (x) Y_c) Q_c (I (x) Y_c^T),
//
// Q_c the PSD part of d2psi/dF2 at F_c (9 x 9), assembled as in stiffness_assembly.hpp. The
// energy density and its gradient are evaluated through the stretch, psi(s(F)) and
// dpsi/dF = (ds/dF)^T dpsi/ds, from the SVD each line-search trial computes anyway (equal to
// the F-form functions for every F, energies/*.hpp); the Hessian comes from the F form.
//
// With contact (step_context.hpp), E gains the contact term Psi_c and the system its Hessian;
// the line search starts from the largest intersection-free step (CCD). With EigenFit, E gains
// C(s(F(u))) (eigenfit_term.hpp): each tet's stress its e_c, Q_c the PSD part of e_c . s(F)'s
// curvature, the system the rank-s B G B^T; the line search judges the whole E.
// Line search: backtracking Armijo on E (line_search.hpp), slope grad E . du.
// Newton decrement: delta^2 = du^T (H_u + K) du = -grad E . du.
//
// All workspaces are allocated at construction.
#include <Eigen/Core>

#include "smfem/polar/signed_svd.hpp"
#include "smfem/sim/material_model.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"
#include "smfem/sim/step/step_context.hpp"

namespace smfem::sim {

// Q_c of one tet: the PSD part of d2psi/dF2 at F (from its SVD), plus, with EigenFit, the PSD
// part of the curvature of fit_stress . s(F) (fit_stress: the tet's e_c; null without a fit).
Matrix9<double> fem_tet_hessian(MaterialModel material, const polar::SignedSvd<double>& svd,
                                const Lame& lame, const Vector6<double>* fit_stress);

class FemStep {
 public:
  FemStep(int coordinate_rows, int tet_count);  // U: coordinate_rows x 3

  // Iterates from U (the step's initial guess on entry, its result on return).
  void solve(StepContext& context, ReducedMatrix& U, StepStats& stats);
  // F, SVD and s(F) per tet at the U solve() returned.
  const TetKinematics& kinematics() const { return current_; }

 private:
  TetKinematics current_;
  TetKinematics trial_;
  Eigen::VectorXd psi_;  // w_c psi(F_c), per tet
  Eigen::VectorXd psi_trial_;
  ReducedMatrix dynamics_gradient_;
  ReducedMatrix du_;
  ReducedMatrix U_trial_;
  ReducedMatrix contact_gradient_;
  ReducedMatrix gradient_;       // of Psi_u and the contact term
  Eigen::VectorXd fit_measure_;  // EigenFit: alpha(s(F(u))) at the iterate, and at the trial
  Eigen::VectorXd fit_measure_trial_;
};

}  // namespace smfem::sim
