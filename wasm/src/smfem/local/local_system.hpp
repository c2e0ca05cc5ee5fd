#pragma once
// A single body's system (sim/step/reduced_system.hpp) bordered by the patches' coefficients
// (patch_set.hpp): the unknowns vec(U_g) (12m, as the body's own system orders them) and then
// c (3P, entry 12m + 3p + a for c_p,a), the matrix
//
//   [ A + K_S      D_gc + K_gc ]
//   [ D_gc^T + K_cg    D_cc + K_cc ]
//
// with A the body's own (I_3 (x) H_block + K of the cubature + contact + EigenFit), the dented
// samples' contact Hessian over all of it (local_contact.hpp) added, D_gc and D_cc
// the inertia's and drag spring's blocks (local_dynamics.hpp: coupling_hessian, local_hessian),
// and the patches' tets' blocks with their correction's (local_correction.hpp), per tet e in F
// space (dF/dU_g = Y, dF/dc = G):
//
//   K_S = sum_e v_e Y A_e Y^T,  K_gc = sum_e v_e Y A_e G,  K_cc = sum_e v_e G^T (A_e + Q_0,e) G,
//
// A_e = Q_e - Q_0,e (Q_e the patch tet's Hessian at F, Q_0,e the correction's at F_0): the
// Hessian of the tet's share, psi(F) - psi(F_0) - P(F_0) : (F - F_0), but for the third
// derivative of psi at F_0. A_e is indefinite (its two terms are taken at different F, and Q_e
// has no rotational stiffness where Q_0,e has), but the inertia and the cubature's stiffness make
// the whole system definite: no poke, drag or press of the tests has needed a Cholesky shift.
// Where one does, the system is solved again with A_e the PSD part of Q_e - Q_0,e (a sum of two
// PSD forms per tet), as every solve did before: 9 x 9 eigendecompositions that were a fifth of
// the poke scene's step (docs/local.md). The tets are numbered as the steps
// see them: the body's C cubature tets, then the patch set's.
#include <array>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "smfem/local/local_contact.hpp"
#include "smfem/local/local_correction.hpp"
#include "smfem/local/local_dynamics.hpp"
#include "smfem/sim/kernels/spd_solver.hpp"
#include "smfem/sim/kernels/stiffness_assembly.hpp"
#include "smfem/sim/step/reduced_system.hpp"

namespace smfem::local {

class LocalSystem final : public sim::StepSystem {
 public:
  // None is owned; all must outlive this. body: a single body's system on dynamics.global(), with
  // cubature_count tets. correction may be null (no correction's Hessian); each solve hands it
  // the patch tets' blocks A_e, by which it measures the step's curvature there. Throws
  // std::invalid_argument where the sizes do not agree.
  LocalSystem(sim::ReducedSystem& body, int cubature_count, const LocalDynamics& dynamics,
              LocalCorrection* correction, int thread_count);

  // The dented samples' contact, whose last linearization each solve adds (null: none; not
  // owned). The body's own contact Hessian comes with the body's system.
  void set_contact(const LocalContact* contact) { contact_ = contact; }

  void set_tet_hessian(int tet, const Matrix9<double>& hessian) override;
  void set_tet_gradient(int tet, const Matrix3<double>& gradient) override;
  void assemble(parallel::ThreadPool& pool) override;
  int solve(const sim::ReducedMatrix& dynamics_gradient, sim::ReducedMatrix& du) override;
  const sim::ReducedMatrix& rhs() const override { return rhs_; }

 private:
  // The patches' tets' blocks A_e (their PSD parts if `projected`) into K_S, K_gc and K_cc, and
  // their elastic forces.
  void set_patch_blocks(bool projected);
  // The bordered matrix from the blocks set, solved for rhs_vector_ into solution_; returns the
  // Cholesky shifts it took (SpdSolver::solve).
  int solve_bordered();
  // K_gc, K_cc and the coefficients' elastic force from the patches' tets (after net_ is set).
  void assemble_local();

  sim::ReducedSystem& body_;
  int cubature_count_ = 0;
  const LocalDynamics& dynamics_;
  const PatchSet& patches_;
  LocalCorrection* correction_ = nullptr;
  const LocalContact* contact_ = nullptr;
  parallel::ThreadPool* pool_ = nullptr;
  sim::StiffnessAssembly tets_;              // the patches' tets' global block and force
  std::vector<Matrix9<double>> hessian_;     // Q_e per patch tet
  std::vector<Matrix3<double>> gradient_;    // P_e per patch tet
  std::vector<Matrix9<double>> net_;         // A_e, see the header
  std::array<Eigen::MatrixXd, 3> coupling_;  // K_gc by coordinate d: 4m x 3P
  Eigen::MatrixXd local_block_;              // K_cc
  sim::ReducedMatrix local_force_;           // P x 3
  Eigen::MatrixXd global_block_;             // 12m x 12m workspace
  Eigen::MatrixXd zero_block_;               // 4m x 4m: the patches' tets add no inertia
  Eigen::MatrixXd matrix_;
  std::optional<sim::SpdSolver> spd_;
  sim::ReducedMatrix rhs_;
  Eigen::VectorXd rhs_vector_, solution_;
};

}  // namespace smfem::local
