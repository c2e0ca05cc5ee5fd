#pragma once
// The global linear system of a solver iteration,
//
//   (H_u + H_c + K) du = -(dPsi_u/du + force),
//
// H_u = I_3 (x) H_block (dynamics.hpp), H_c the contact term's Hessian if there is one
// (contact/contact_potential.hpp; its gradient comes with dPsi_u/du), K and the elastic force assembled from the per-tet
// inputs (stiffness_assembly.hpp), solved by Cholesky (spd_solver.hpp). du, like u, is a
// 4m x 3 matrix. All storage is allocated at construction.
#include <Eigen/Core>

#include "smfem/contact/contact_potential.hpp"
#include "smfem/parallel/thread_pool.hpp"
#include "smfem/sim/cubature_kinematics.hpp"
#include "smfem/sim/discretization.hpp"
#include "smfem/sim/dynamics.hpp"
#include "smfem/sim/spd_solver.hpp"
#include "smfem/sim/stiffness_assembly.hpp"

namespace smfem::sim {

class ReducedSystem final : public StepSystem {
 public:
  // H_u is read from dynamics (which must outlive this) at each solve.
  ReducedSystem(const CubatureRows& cubature_Y, const Eigen::VectorXd& weights,
                const Dynamics& dynamics, int thread_count);

  StiffnessAssembly& assembly() { return assembly_; }
  // The contact term whose last linearization each solve adds (none: nullptr). Not owned.
  void set_contact(const contact::ContactPotential* contact) { contact_ = contact; }
  const StiffnessAssembly& assembly() const { return assembly_; }

  void set_tet_hessian(int tet, const Matrix9<double>& hessian) override {
    assembly_.set_tet_hessian(tet, hessian);
  }
  void set_tet_gradient(int tet, const Matrix3<double>& gradient) override {
    assembly_.set_tet_gradient(tet, gradient);
  }
  void assemble(parallel::ThreadPool& pool) override { assembly_.assemble(pool); }
  // Cholesky shifts as in spd_solver.hpp.
  int solve(const ReducedMatrix& dynamics_gradient, ReducedMatrix& du) override;
  // -(dPsi_u/du + force), 4m x 3.
  const ReducedMatrix& rhs() const override { return rhs_; }

 private:
  const Dynamics& dynamics_;
  const contact::ContactPotential* contact_ = nullptr;
  StiffnessAssembly assembly_;
  SpdSolver spd_;
  Eigen::MatrixXd matrix_;  // 12m x 12m, lower triangle
  ReducedMatrix rhs_;
  Eigen::VectorXd rhs_vector_;
  Eigen::VectorXd solution_;
};

}  // namespace smfem::sim
