#pragma once
// The quadratic part of the implicit Euler step energy (reduced coordinates, in J):
//
//   Psi_u(u) = 1/(2 h^2) (u - u~)^T M (u - u~) - f . u + k/2 |x_p(u) - t|^2
//              + 1/2 tr(U^T A U) - tr(U^T P),
//
// u~ = u_n + h udot_n (the inertial prediction), M = I_3 (x) mass_block, f the reduced
// external force (gravity and the scene's periodic loads, evaluated at the end of the step),
// an optional drag spring of stiffness k pulling the surface point x_p(u) = X_p + U^T b_p
// towards a target t, and optional anchor springs: the scene's zero-length springs on whole regions
// (scene_loads.hpp) reduced to a 4m x 4m block A and a 4m x 3 pull P (their energy up to a
// constant). Its Hessian is H_u = I_3 (x) H_block with
//
//   H_block = mass_block / h^2 + k b_p b_p^T + A   (4m x 4m),
//
// the same for the three coordinate blocks and constant within a step: it is rebuilt only
// when h or the spring changes, never per iteration. (Energies are kept in joules, not scaled
// by h^2, so that merits and decrements read as energies.)
//
// u is held as the 4m x 3 matrix U of reduced_model.hpp. Not thread-safe (workspaces). The
// 4m x 4m by 4m x 3 products are lazy (coefficient-wise): Eigen's blocked GEMM packs both
// operands on every call, which costs more than the product at this size. They are taken block
// by block over H_block's diagonal blocks: a model of several bodies (whose blocks nothing
// couples) would otherwise pay for the zeros between bodies, a cost growing with their square.
#include <vector>

#include <Eigen/Core>

#include "smfem/sim/step/cubature_kinematics.hpp"
#include "smfem/sim/step/discretization.hpp"

namespace smfem::sim {

// A spring from a point of the surface, x_p(u) = rest + U^T basis, to target.
struct DragSpring {
  Eigen::VectorXd basis;  // b_p, 4m (reduced_model.hpp: render_vertex_basis)
  Eigen::Vector3d rest = Eigen::Vector3d::Zero();
  Eigen::Vector3d target = Eigen::Vector3d::Zero();
  double stiffness = 0.0;  // N/m

  // Where the grabbed point is at U: rest + U^T b_p.
  Eigen::Vector3d point(const ReducedMatrix& U) const { return rest + U.transpose() * basis; }
};

class Dynamics final : public InertialEnergy {
 public:
  // mass_block is read where it is (the model's, which must outlive the dynamics): an island of
  // 30 bodies' is 7 MB, and copying it was a fifth of the time the island took to build.
  Dynamics(const Eigen::MatrixXd& mass_block, double timestep);

  double timestep() const { return timestep_; }
  // Both rebuild H_block.
  void set_timestep(double timestep);
  void set_spring(const DragSpring& spring);
  void clear_spring();
  // Moves the target only (the Hessian does not depend on it).
  void set_spring_target(const Eigen::Vector3d& target) { spring_.target = target; }
  bool has_spring() const { return has_spring_; }
  const DragSpring& spring() const { return spring_; }
  // Anchor springs: block A (4m x 4m, symmetric PSD) and pull P (4m x 3); rebuilds H_block.
  void set_anchors(const Eigen::MatrixXd& block, const ReducedMatrix& pull);
  void clear_anchors();

  // Fixes u~ = U_n + h Udot_n and f (4m x 3, column d the force on u_d) for the step.
  void begin_step(const ReducedMatrix& U_n, const ReducedMatrix& Udot_n,
                  const ReducedMatrix& force);
  const ReducedMatrix& prediction() const { return predicted_; }

  double energy(const ReducedMatrix& U) override;
  // The drag and anchor springs' part of energy(U) (the anchors' up to a constant).
  double spring_energy(const ReducedMatrix& U);
  // dPsi_u/dU, 4m x 3.
  void gradient(const ReducedMatrix& U, ReducedMatrix& out) override;
  // dU^T H_u dU = sum_d dU_d^T H_block dU_d: with the gradient g at U, the exact change
  // Psi_u(U + a dU) - Psi_u(U) = a g . dU + a^2 / 2 curvature(dU).
  double curvature(const ReducedMatrix& dU) override;
  const Eigen::MatrixXd& hessian_block() const { return hessian_block_; }
  // out = mass_block * V (a velocity: the kinetic energy is 1/2 tr(V^T out)), over H_block's
  // diagonal blocks (each holds whole blocks of the mass block's).
  void mass_times(const ReducedMatrix& V, ReducedMatrix& out) const {
    block_product(mass_block_, V, out);
  }

  // x_p(U) of the spring (meaningful only with a spring).
  Eigen::Vector3d spring_point(const ReducedMatrix& U) const;

 private:
  void rebuild_hessian();
  // out = block * U over the diagonal blocks (the rest of block is zero).
  void block_product(const Eigen::MatrixXd& block, const ReducedMatrix& U,
                     ReducedMatrix& out) const;

  const Eigen::MatrixXd& mass_block_;
  double timestep_ = 0.0;
  DragSpring spring_;
  bool has_spring_ = false;
  Eigen::MatrixXd anchor_block_;
  ReducedMatrix anchor_pull_;
  bool has_anchors_ = false;
  Eigen::MatrixXd hessian_block_;
  // H_block's diagonal blocks: [first, first + size) ranges of rows, coupled to no other.
  struct Range {
    Eigen::Index first = 0, size = 0;
  };
  std::vector<Range> diagonal_blocks_;
  ReducedMatrix predicted_;
  ReducedMatrix force_;
  ReducedMatrix work_;  // 4m x 3
  ReducedMatrix product_;
};

}  // namespace smfem::sim
