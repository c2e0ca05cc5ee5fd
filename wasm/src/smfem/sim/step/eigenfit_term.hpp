#pragma once
// The EigenFit correction (Chen et al. 2019, eq. 12-15) as a term of the step energy, in the
// stretches.
//
// Chen et al. 2019 correct the full-space stiffness by the rank-s update
//   K' = K + M U_s (R_s - I) Lambda_s U_s^T M                                  (15b)
// and the force by the matching M U_s (R_s - I) U_s^T f (15c). In the reduced space (r = 12m,
// M the reduced mass, U_s the fitted reduced modes of eigenfit.hpp) the same rank-s update is
// the Hessian of a quadratic energy 1/2 sum_i (r_i - 1) lambda_i (U_i^T M u)^2, whose gradient is
// (15c) for the linear model K0 u. We write that energy in the stretches instead of in u:
//
//   C(z) = 1/2 alpha^T G alpha,   alpha = sum_c w_c A_c^T (z_c - s(I))   (an s-vector),
//
// A_c = H0_c E_c U_s (6 x s): each fitted mode's rest stress in tet c (E_c, H0_c as in
// eigenfit.hpp, so alpha_i = U_i^T K0 u to first order), and
// G = S^-1/2 (R - I) S^-1/2 with S = U_s^T K0 U_s (= Lambda_s when U_s are K0's eigenvectors).
// At rest, with z = s(F(u)), the Hessian of C in u is K0 U_s G U_s^T K0 = M U_s (R - I)
// Lambda_s U_s^T M: eq. 15b exactly. So K0 + that moves lambda_i to r_i lambda_i and leaves every
// eigenpair M-orthogonal to U_s alone. Why the stretches:
//   - z is invariant under rotations, so a body that swings or spins through large rotations
//     keeps the fit (u-space modes do not rotate with the body, which is why Chen et al. 2019 must
//     re-linearize every step), and the correction adds no spurious force to rigid motions;
//   - it is exactly quadratic in MFEM's unknowns z: the mixed step adds it to the stretch
//     energy, sum_c w_c psi(z_c) + C(z), so energy, gradient, Hessian and the l1 merit agree
//     and the line search stays valid; the z block of the Hessian, blockdiag(w_c H_c) + A G A^T,
//     stays positive semi-definite near rest for any r_i > 0 (it is >= min(1, r_i) times the
//     rest one: Q = W0^1/2 E U_s S^-1/2 has orthonormal columns), so the merit's descent
//     argument (mfem_step.hpp) still holds;
//   - FEM evaluates the same C at z = s(F(u)): one energy, two solvers.
// The rest materials (H0_c) are the current ones (update_materials): a uniform change of
// Young's modulus scales S and A together and keeps the fit; other changes keep K' symmetric
// positive definite, with the ratios applied to the baked modes.
//
// In a step, with alpha_s = alpha(s(F(u))) and J_c = ds/dF at F_c:
//   force     sum_c w_c (dF_c/du)^T J_c^T e_c,   e_c = A_c G alpha_s (per unit volume): added
//             to each tet's stress before the system assembles it (the solvers' per-tet force);
//   Hessian   B G B^T (rank s, added by the system: ReducedSystem::set_eigenfit), with the
//             coupling B = sum_c w_c (dF_c/du)^T J_c^T A_c (12m x s), plus in FEM the curvature of
//             e_c . s(F) per tet (the PSD part, polar/stretch_curvature.hpp); in MFEM that
//             curvature is the constraint's, through multipliers that include e_c.
// Cost per iteration: B is a (4m x 3C) by (3C x 3s) product, by the stiffness assembly's
// micro-kernel (detail/gemm_tile.hpp), about 2 % of K's assembly's arithmetic at m 16, |C| 581,
// s 6; the rest is O(C s).
//
// The re-linearized variant (Chen et al. 2019, §3.3, SolverSettings::eigen_fit_relinearized): at
// the start of each step, relinearize() takes the s lowest non-null modes V of the current tangent
// K_t = sum_c w_c (dF_c/du)^T J_c^T H_c(z_c) J_c (dF_c/du) (the solvers' K without the
// constraint's curvature), checks that they are still the rest modes (§3.5: at least half of
// them with |V^T M U_rest| above kTangleCosine, each rest mode used once; else it keeps the rest
// fit and returns false), gives each the ratio of its rest mode (1 unmatched) and anchors C at
// the current stretches z_n:
//
//   C_t(z) = 1/2 alpha^T G alpha + (G phi)^T alpha,   alpha = sum_c w_c A_c^T (z_c - z_n,c),
//
// A_c = H_c J_c dF_c(V), phi = V^T grad E (the modes' elastic forces at z_n). Its gradient at
// the anchor is M V (R - I) V^T grad E (eq. 15c) and its Hessian M V (R - I) Lambda_t V^T M
// (eq. 15b), exactly where V are K_t's eigenvectors. Within the step C_t is one fixed energy (so
// the line search stays valid); across steps the anchor moves, so energy is balanced step by
// step (simulator.hpp). Cost per step: one more K assembly and a dense 12m x 12m generalized
// eigenproblem.
//
// G is diagonalized once per material change (A is rotated to its eigenvectors), so G is a
// vector of weights g. All storage is allocated at construction and update_materials(); the
// per-step calls allocate nothing. Sums over tets run in tet order, and B's products have the
// same shape whatever the thread count: results do not depend on it.
#include <memory>
#include <vector>

#include <Eigen/Core>

#include "smfem/parallel/thread_pool.hpp"
#include "smfem/polar/types.hpp"
#include "smfem/sim/kernels/stiffness_assembly.hpp"
#include "smfem/sim/material_model.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"

namespace smfem::sim {

// The cosine a current mode needs with a rest mode (Chen et al. 2019, §3.5, "larger than 0.6").
inline constexpr double kTangleCosine = 0.6;

class EigenFitTerm {
 public:
  // model (which must outlive this) must have a single body; an empty fit gives an empty term.
  explicit EigenFitTerm(const ReducedModel& model);

  bool empty() const { return weights_.size() == 0; }
  int mode_count() const { return static_cast<int>(weights_.size()); }

  // Recomputes A and G from the tets' current materials (one Lame per cubature tet): the rest
  // fit (also what ends a re-linearized one).
  void update_materials(MaterialModel material, const std::vector<Lame>& lame);
  // The re-linearized fit at (U, z) (above); false where the modes are tangled (the rest fit is
  // kept). After update_materials.
  bool relinearize(const ReducedMatrix& U, const StretchField& z, parallel::ThreadPool& pool);
  bool relinearized() const { return relinearized_; }
  // The fitted modes now: the rest ones, or V of the last relinearize() (12m x s).
  const Eigen::MatrixXd& current_modes() const { return current_modes_; }

  // alpha(z) (s), summed in tet order.
  void measure(const StretchField& z, Eigen::VectorXd& alpha) const;
  // C for a measure alpha, J.
  double energy(const Eigen::VectorXd& alpha) const;
  // dC/dalpha . change at alpha: C's slope along a move that changes the measure by `change`.
  double slope(const Eigen::VectorXd& alpha, const Eigen::VectorXd& change) const;
  // e_c = A_c (G alpha + c): dC/dz_c / w_c, by the six stored components (per unit volume).
  Vector6<double> stress(int tet, const Eigen::VectorXd& alpha) const;

  // The coupling B from the tets' J_c = ds/dF (6 x 9, column-major vec(F)), set in parallel,
  // then assemble()d.
  void set_tet_jacobian(int tet, const Matrix6x9<double>& jacobian);
  void assemble(parallel::ThreadPool& pool);
  // After assemble(): B^T vec(dU) (s), the change of alpha that dU makes to first order.
  void coupling_transpose_times(const ReducedMatrix& dU, Eigen::VectorXd& out) const;
  // After assemble(): adds B G B^T to the lower triangle of a 12m x 12m system (u = vec(U)).
  void add_to_lower(Eigen::Ref<Eigen::MatrixXd> system) const;
  // After assemble(): B (12m x s, a view of this term's storage).
  Eigen::Map<const Eigen::MatrixXd> coupling() const {
    return {coupling_.data(), 3 * block_size_, mode_count()};
  }
  // The weights g (s): G = diag(g) in the rotated basis of A.
  const Eigen::VectorXd& weights() const { return weights_; }

 private:
  // A, g and c from the modes' strains (6s x C, per tet E_c V), the ratios and the modes'
  // forces phi (zero at rest), with hessians_ for H_c.
  void set_fit(const Eigen::MatrixXd& strain, const Eigen::VectorXd& ratios,
               const Eigen::VectorXd& modal_force);

  const ReducedModel& model_;
  MaterialModel material_ = MaterialModel::fixed_corotational;
  std::vector<Lame> lame_;
  std::vector<Matrix6<double>> hessians_;  // H_c of the fit, per tet
  StretchField anchor_;                    // where alpha is 0: s(I), or z_n
  Eigen::VectorXd linear_;                 // c, rotated (0 at rest)
  Eigen::MatrixXd current_strain_;         // 6s x C, relinearize()'s E_c V
  Eigen::MatrixXd current_modes_;
  bool relinearized_ = false;
  std::unique_ptr<StiffnessAssembly> tangent_;  // K_t, made at the first relinearize()
  Eigen::MatrixXd mass_;                        // I_3 (x) mass_block
  int block_size_ = 0;                          // 4m
  // Per tet, the symmetric part of dF_c(U_i) as stretch vectors: 6 x s per tet (fixed).
  Eigen::MatrixXd modal_strain_;  // 6s x C
  Eigen::MatrixXd stress_;        // 6s x C: A_c, rotated, column c
  Eigen::VectorXd weights_;       // s
  // w_c J_c^T a_ci as 3 x 3 F matrices, transposed into the layout of cubature_Y:
  // entry (3c + j, 3i + d) = w_c (J_c^T a_ci)(F(d, j)). Row-major, stride_ columns (3s rounded
  // up to whole tiles of the product kernel, zero padded).
  std::vector<double> stacked_;  // 3C x stride_
  int stride_ = 0;
  std::vector<double> tile_sums_;  // assemble()'s tiles of Yhat^T stacked
  Eigen::MatrixXd coupling_;       // 4m x 3s = 12m x s: column block i is B_i = vec(B_i)
};

}  // namespace smfem::sim
