#pragma once
// One implicit Euler step by subspace mixed FEM (Trusty et al. 2023, eq. 4-8, Algorithm 1).
//
// Unknowns: u (the 4m x 3 matrix U), a stretch z_c in R^6 per cubature tet (stored as in
// polar/stretch_vector.hpp, warm-started from the previous step) and multipliers lambda_c.
// With D = diag(1, 1, 1, 2, 2, 2) and s_c(u) = s(F_c(u)), the Lagrangian is
//
//   L = Psi_u(u) + sum_c w_c psi(z_c) + sum_c w_c lambda_c^T D (s_c(u) - z_c).
//
// Its stationarity conditions: grad Psi_u + sum_c w_c J_c^T D lambda_c = 0,
// grad psi(z_c) = D lambda_c, s_c(u) = z_c, with J_c = ds/dvec(F) dvec(F)/du (6 x 12m) and
// grad psi the derivative by the six stored components (so D appears exactly where written).
// One SQP iteration linearizes them. The constraint term's curvature in the u block,
// sum_c w_c (dF_c/du)^T C_c (dF_c/du) with C_c = d2(m^T s)/dF2 at m = D lambda_c, depends on
// the variant (solver_settings.hpp: MixedVariant):
//   paper      dropped, as the paper does (its H_u stays constant): SQP without the Lagrangian's
//              full Hessian, so it converges linearly at best;
//   projected  the PSD part of its coaxial part (polar/stretch_curvature.hpp), as in the
//              issue's first experiment;
//   curvature  its coaxial part in closed form, exact at a solution, so that the iteration is
//              Newton's method there. Where that direction is not Newton's as the merit needs it
//              (H_u + K indefinite beyond rounding, or no descent), or where the merit refuses its
//              full step (its model is not to be trusted that far from the solution), the
//              iteration takes the paper's direction instead (StepStats::curvature_fallbacks).
// Measured on the claims suite (docs/claim.md): with `curvature` MFEM at 2
// iterations keeps the converged angular momentum at least as well as FEM at 2 on 16 of the 17
// scenes (not on the mild 1e2 slab: 0.0044 against 0.0037), and converges in fewer iterations
// per step on 16; `paper` loses to FEM on 2 of them, and `projected` converged slowest where it
// was tried as the fallback.
// Below, C_c stands for the chosen form (0 in the paper variant); K absorbs it.
// With g_c = s_c - z_c, H_c = the PSD part of d2psi/ds2(z_c) and lambda+ the new multipliers:
//
//   (H_u + sum_c w_c (dF_c/du)^T C_c (dF_c/du)) du + sum_c w_c J_c^T D lambda+_c = -grad Psi_u
//   H_c dz_c - D lambda+_c = -grad psi(z_c)            (the w_c cancels)
//   J_c du - dz_c = -g_c.
//
// Eliminating dz and lambda+ tet by tet (dz_c = g_c + J_c du, D lambda+_c = grad psi(z_c) +
// H_c dz_c) leaves the r x r system
//
//   (H_u + K) du = -grad Psi_u - sum_c w_c J_c^T (grad psi(z_c) + H_c g_c),
//   K = sum_c w_c (I (x) Y_c) Q_c (I (x) Y_c^T),
//   Q_c = (ds/dF)^T H_c (ds/dF) + C_c   (9 x 9),
//
// assembled like FEM's (stiffness_assembly.hpp); the per-tet force is (ds/dF)^T (grad psi +
// H_c g_c). The tests check that this equals Newton on the KKT system (with and without C_c).
//
// Merit and line search. The Lagrangian is no merit function (the paper searches on it; the
// authors' implementation at 2 iterations gains kinetic energy, then stalls), so the step is
// accepted on the l1 exact-penalty merit
//
//   phi(u, z) = f(u, z) + sum_c nu_c w_c ||D (s_c(u) - z_c)||_1,   f = Psi_u + sum_c w_c psi(z_c).
//
// ||D g||_1 is the entrywise l1 norm of the symmetric matrix S - Z (off-diagonals count twice),
// and with the constraint written as w_c D g_c = 0 its multiplier is lambda_c: the penalty is
// exact for nu_c > ||lambda_c||_inf in every tet. A penalty per tet, not one global nu set by
// the stiffest multipliers, so that a soft region's violations are not charged at the stiff
// parts' stress scale. Each nu_c starts at 0 each step and only grows:
// nu_c = max(nu_c, kPenaltyFactor ||lambda+_c||_inf). Along p = (du, dz) the KKT rows give
//   grad f . p = -(du^T H_u du + sum_c w_c (dz_c^T H_c dz_c + dF_c^T C_c dF_c))
//                + sum_c w_c lambda+_c^T D g_c,
// and the penalty decreases at the rate -sum_c nu_c w_c ||D g_c||_1 (the linearized constraint
// is met exactly), so the directional derivative
//   Dphi = grad f . p - sum_c nu_c w_c ||D g_c||_1
//       <= -(du^T H_u du + sum_c w_c (dz_c^T H_c dz_c + dF_c^T C_c dF_c))
//          - sum_c (nu_c - ||lambda+_c||_inf) w_c ||D g_c||_1
// is negative whenever p != 0 and C_c is PSD: H_u is positive definite (the mass) and H_c PSD.
// With the exact curvature it need not be; Dphi is computed from its definition in double (so
// an inexact, float K is judged honestly too) and a direction that does not descend is redone
// without the curvature (the paper's).
// Backtracking Armijo on phi (line_search.hpp); u, z move by alpha p and lambda by
// alpha (lambda+ - lambda). In the convergence tail a rejected full step is retried with the
// second-order correction of z (mfem_step.cpp), so that the l1 merit does not stall the
// iteration (the Maratos effect).
//
// Trust in the linearization. z moves by dz = g + J dF, the constraint's first-order model; a
// trial where s(F) itself moved far from that model (the tet's F passed near or through
// inversion, where J is singular) leaves a violation the next step cannot see coming. At one
// iteration per step that violation fed on itself: the prediction extrapolated it, the joint's
// few cubature tets inverted and stretched fivefold while z stayed near the rest shape, and the
// hinge scene's kinetic energy grew 250-fold. So a plain trial is refused when, in any tet,
// the model's error ||s(F_trial) - s(F) - alpha J dF||_inf exceeds
// kLinearizationTrust * max(||alpha J dF||_inf, kLinearizationFloor): the search then halves
// alpha, which shrinks the error quadratically and the model linearly.
//
// Newton decrement: delta^2 = du^T H_u du + sum_c w_c (dz_c^T H_c dz_c + dF_c^T C_c dF_c), the
// curvature of the quadratic model along p (= -grad f . p when the constraints hold, and = du^T
// (H_u + K) du then, FEM's decrement, so the two are comparable).
//
// EigenFit (eigenfit_term.hpp). The correction is a quadratic term C(z) = 1/2 alpha^T G alpha
// of the stretch energy, alpha linear in z: f = Psi_u + sum_c w_c psi(z_c) + C(z). It enters in
// z, not in u, because z is where the mixed method keeps the elastic energy (the correction
// rescales elastic modes, so it belongs to that energy, and the constraint s(u) = z carries it
// to u exactly as it carries psi), because stretches are invariant under rotations (a u-space
// term would charge a swinging body for rotating), and because in z it is exactly quadratic with
// a z block blockdiag(w_c H_c) + A G A^T that stays PSD near rest for every r_i > 0 (so the
// descent argument above is untouched, where a u-space term with r_i < 1 would make the u block
// indefinite once (1 - r_i) lambda_i h^2 > 1, which stiff bodies reach). Eliminating dz and lambda+
// as above, with C's rows: the per-tet force gains e_c(alpha(s)) (the stress of C at s = z + g), K
// gains B G B^T (B = sum_c w_c (dF_c/du)^T J_c^T A_c), lambda+_c gains e_c(alpha(s) + B^T du) / D
// (C's stress at z + dz), the decrement beta^T G beta and the slope alpha(z)^T G beta with beta =
// A^T dz, and the merit C's exact change at every trial.
//
// All workspaces are allocated at construction.
#include <Eigen/Core>

#include "smfem/sim/step/cubature_kinematics.hpp"
#include "smfem/sim/step/step_context.hpp"

namespace smfem::sim {

inline constexpr double kPenaltyFactor = 1.1;
inline constexpr double kLinearizationTrust = 1.0;
// Stretch changes below this are never refused: near rest a rigid rotation has J dF = 0 and a
// second-order stretch, which is no reason to stop.
inline constexpr double kLinearizationFloor = 1e-3;

// lambda_t = D^-1 grad psi(z_t) for every tet: the multipliers that make z stationary.
void consistent_multipliers(MaterialModel material, const std::vector<Lame>& lame,
                            const StretchField& z, StretchField& lambda);

// z_t = s(F_t(U)) and the consistent multipliers: the state, meeting the constraint, from which
// the mixed solver can start (a reset, a state set from outside).
void make_stretches_consistent(const TetDeformation& deformation, MaterialModel material,
                               const std::vector<Lame>& lame, const ReducedMatrix& U,
                               StretchField& z, StretchField& lambda);

class MfemStep {
 public:
  MfemStep(int coordinate_rows, int tet_count);  // U: coordinate_rows x 3

  // Iterates from U (the step's initial guess on entry, its result on return), z and lambda.
  void solve(StepContext& context, ReducedMatrix& U, StretchField& z, StretchField& lambda,
             StepStats& stats);
  // F, SVD and s(F) per tet at the U solve() returned.
  const TetKinematics& kinematics() const { return current_; }

 private:
  TetKinematics current_;
  TetKinematics trial_;
  std::vector<Matrix6x9<double>> dstretch_dF_;
  // C_c as the variant has it, per unit volume (unset while the term is dropped).
  std::vector<Matrix9<double>> constraint_curvature_;
  std::vector<Matrix6<double>> hessian_;  // H_c
  StretchField grad_psi_;                 // grad psi(z_c)
  StretchField violation_;                // g_c = s_c - z_c
  StretchField dz_;
  StretchField lambda_new_;
  StretchField z_trial_;
  // Per tet, summed in tet order afterwards (so sums do not depend on the thread split).
  Eigen::VectorXd psi_;         // w_c psi(z_c)
  Eigen::VectorXd penalty_;     // w_c ||D g_c||_1
  Eigen::VectorXd curvature_;   // w_c dz_c^T H_c dz_c
  Eigen::VectorXd slope_;       // w_c grad psi(z_c) . dz_c
  Eigen::VectorXd lambda_max_;  // ||lambda+_c||_inf
  Eigen::VectorXd nu_;          // the merit's penalty per tet
  Eigen::VectorXd nu_start_;    // nu_ at the start of the iteration
  Eigen::VectorXd psi_trial_;
  Eigen::VectorXd model_error_trial_;  // ||s(F_trial) - s(F) - alpha J dF||_inf / trusted size
  Eigen::VectorXd penalty_trial_;
  ReducedMatrix dynamics_gradient_;
  ReducedMatrix du_;
  ReducedMatrix U_trial_;
  ReducedMatrix contact_gradient_;
  ReducedMatrix gradient_;  // of Psi_u and the contact term
  // EigenFit (eigenfit_term.hpp): C's measure at s(F(u)), at z, at z + dz and at the trial; its
  // change B^T du (then beta = A^T dz); C(z).
  Eigen::VectorXd fit_measure_s_, fit_measure_z_, fit_measure_new_, fit_measure_trial_;
  Eigen::VectorXd fit_change_;
  double fit_energy_ = 0.0;
};

}  // namespace smfem::sim
