#pragma once
// The global linear system of an iteration on a displacement basis (sim/step/discretization.hpp),
//
//   (M_r / h^2 + K) dq = -(dPsi_u/dq + force),
//   K = sum_t w_t J_t^T Q_t J_t,   force = sum_t w_t J_t^T vec(P_t),
//
// J_t = dvec(F_t)/dq (9 x k, basis_deformation.hpp), w_t the quadrature weight: dense, k x k.
// The quadrature points are summed in fixed chunks (each chunk's J^T (w Q J) one matrix product, in
// parallel), then the chunks in order, so results do not depend on the thread count. Solved by the
// stepper's dense Cholesky with its shift schedule (sim/kernels/spd_solver.hpp). dq is column 0 of
// the k x 3 matrix dU, whose other columns are set to 0.
#include <vector>

#include <Eigen/Core>

#include "smfem/displacement/basis_deformation.hpp"
#include "smfem/displacement/basis_dynamics.hpp"
#include "smfem/sim/kernels/spd_solver.hpp"
#include "smfem/sim/step/discretization.hpp"

namespace smfem::displacement {

class BasisSystem final : public sim::StepSystem {
 public:
  // Both must outlive this.
  BasisSystem(const BasisDeformation& deformation, const BasisDynamics& dynamics);

  void set_tet_hessian(int tet, const Matrix9<double>& hessian) override;
  void set_tet_gradient(int tet, const Matrix3<double>& gradient) override;
  void assemble(parallel::ThreadPool& pool) override;
  int solve(const sim::ReducedMatrix& dynamics_gradient, sim::ReducedMatrix& dU) override;
  const sim::ReducedMatrix& rhs() const override { return rhs_; }

  // After assemble(): K (k x k) and the elastic force (k).
  const Eigen::MatrixXd& stiffness() const { return stiffness_; }
  const Eigen::VectorXd& force() const { return force_; }

 private:
  static constexpr int kChunkTets = 128;

  const BasisDeformation& deformation_;
  const BasisDynamics& dynamics_;
  std::vector<Matrix9<double>> hessians_;         // w_t Q_t
  std::vector<Vector9<double>> gradients_;        // w_t vec(P_t)
  std::vector<Eigen::MatrixXd> chunk_stiffness_;  // per chunk: its tets' share of K
  std::vector<Eigen::VectorXd> chunk_force_;
  Eigen::MatrixXd stiffness_;
  Eigen::VectorXd force_;
  Eigen::MatrixXd matrix_;  // M_r / h^2 + K
  sim::SpdSolver solver_;
  Eigen::VectorXd solution_;
  sim::ReducedMatrix rhs_;
};

}  // namespace smfem::displacement
