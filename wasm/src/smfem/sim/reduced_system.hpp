#pragma once
// The global linear system of a solver iteration,
//
//   (H_u + K) du = -(dPsi_u/du + force),
//
// H_u = I_3 (x) H_block (dynamics.hpp), K and the elastic force assembled from the per-tet
// inputs (stiffness_assembly.hpp), solved by Cholesky (spd_solver.hpp). du, like u, is a
// 4m x 3 matrix. All storage is allocated at construction.
#include <Eigen/Core>

#include "smfem/parallel/thread_pool.hpp"
#include "smfem/sim/cubature_kinematics.hpp"
#include "smfem/sim/dynamics.hpp"
#include "smfem/sim/spd_solver.hpp"
#include "smfem/sim/stiffness_assembly.hpp"

namespace smfem::sim {

class ReducedSystem {
 public:
  ReducedSystem(const CubatureRows& cubature_Y, const Eigen::VectorXd& weights, int thread_count);

  StiffnessAssembly& assembly() { return assembly_; }
  const StiffnessAssembly& assembly() const { return assembly_; }

  // After assembly().assemble(): forms the system at the Psi_u gradient dynamics_gradient and
  // solves it. Returns the Cholesky shifts used (spd_solver.hpp), -1 on failure.
  int solve(const Dynamics& dynamics, const ReducedMatrix& dynamics_gradient, ReducedMatrix& du);
  // The right-hand side of the last solve, -(dPsi_u/du + force), 4m x 3.
  const ReducedMatrix& rhs() const { return rhs_; }

 private:
  StiffnessAssembly assembly_;
  SpdSolver spd_;
  Eigen::MatrixXd matrix_;  // 12m x 12m, lower triangle
  ReducedMatrix rhs_;
  Eigen::VectorXd rhs_vector_;
  Eigen::VectorXd solution_;
};

}  // namespace smfem::sim
