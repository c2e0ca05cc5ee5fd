#pragma once
// A single body's system (sim/step/reduced_system.hpp) bordered by the patches' coefficients
// (patch_set.hpp): the unknowns vec(U_g) (12m, as the body's own system orders them) and then
// c (3P, entry 12m + 3p + a for c_p,a), the matrix
//
//   [ A          D_gc        ]
//   [ D_gc^T     D_cc + K_cc ]
//
// with A the body's own (I_3 (x) H_block + K of the cubature + contact + EigenFit), the dented
// samples' contact Hessian over all of it (local_contact.hpp) added, D_gc and D_cc the inertia's
// and drag spring's blocks (local_dynamics.hpp: coupling_hessian, local_hessian), and the
// patches' tets' stiffness K_cc = sum_e v_e G^T Q_e G (Q_e the tet's Hessian as the step hands it,
// dF/dc = G). The patches' tets read no global coordinate (patch_set.hpp): they add nothing to A
// and no elastic coupling. The tets are numbered as the steps see them: the body's C cubature
// tets, then the patch set's.
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "smfem/local/local_contact.hpp"
#include "smfem/local/local_dynamics.hpp"
#include "smfem/sim/kernels/spd_solver.hpp"
#include "smfem/sim/step/reduced_system.hpp"

namespace smfem::local {

class LocalSystem final : public sim::StepSystem {
 public:
  // None is owned; all must outlive this. body: a single body's system on dynamics.global(), with
  // cubature_count tets. Throws std::invalid_argument where the sizes do not agree.
  LocalSystem(sim::ReducedSystem& body, int cubature_count, const LocalDynamics& dynamics);

  // The dented samples' contact, whose last linearization each solve adds (null: none; not
  // owned). The body's own contact Hessian comes with the body's system.
  void set_contact(const LocalContact* contact) { contact_ = contact; }

  void set_tet_hessian(int tet, const Matrix9<double>& hessian) override;
  void set_tet_gradient(int tet, const Matrix3<double>& gradient) override;
  void assemble(parallel::ThreadPool& pool) override;
  int solve(const sim::ReducedMatrix& dynamics_gradient, sim::ReducedMatrix& du) override;
  const sim::ReducedMatrix& rhs() const override { return rhs_; }

 private:
  // K_cc and the coefficients' elastic force from the patches' tets.
  void assemble_local();

  sim::ReducedSystem& body_;
  int cubature_count_ = 0;
  const LocalDynamics& dynamics_;
  const PatchSet& patches_;
  const LocalContact* contact_ = nullptr;
  parallel::ThreadPool* pool_ = nullptr;
  std::vector<Matrix9<double>> hessian_;   // Q_e per patch tet
  std::vector<Matrix3<double>> gradient_;  // P_e per patch tet
  Eigen::MatrixXd local_block_;            // K_cc
  sim::ReducedMatrix local_force_;         // P x 3
  Eigen::MatrixXd matrix_;
  std::optional<sim::SpdSolver> spd_;
  sim::ReducedMatrix rhs_;
  Eigen::VectorXd rhs_vector_, solution_;
};

}  // namespace smfem::local
