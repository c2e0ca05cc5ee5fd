#pragma once
// The global linear system of a full-space iteration (sim/step/discretization.hpp),
//
//   (M / h^2 + B + H_h + H_c + S + K) dU = -(dPsi_u/dU + force)
//
// (B: the dynamics' constant bending matrix, element_model.hpp, on each coordinate; stored
// whole, both triangles; H_h: the hinges' Gauss-Newton Hessian at the dynamics' last gradient,
// hinge_bending.hpp, a 12 x 12 block per hinge; H_c: the obstacle contact's 3 x 3 blocks per point,
// set_contact; S: the dynamics' drag spring, k on its node's diagonal), over the free vertices' 3
// coordinates each (pinned vertices are left out: their dU is 0), numbered vertex-major: DOF 3k + d
// is coordinate d of the k-th free vertex. Per tet t with shape gradients G_t
// (tet_mesh_deformation.hpp) and corner DOFs 3j + d,
//
//   K_t(3i + d, 3j + e) = w_t sum_{k,l} G_t(i, k) Q_t(d + 3k, e + 3l) G_t(j, l),
//   force_t(j, d)       = w_t sum_k P_t(d, k) G_t(j, k),
//
// scattered into a sparse matrix whose pattern (lower triangle) and each tet entry's place in
// it are fixed at construction. Solved by a sparse Cholesky factorization (supernodal,
// sim/kernels/sparse_cholesky.hpp, analysed once; its large fronts shared with assemble()'s
// pool) in float, refined in double to a residual of 1e-6 of the right-hand side
// (sim/kernels/refined_cholesky.hpp), with the dense solve's shift schedule when the
// factorization fails
// (sim/kernels/spd_solver.hpp). The per-tet blocks are formed in parallel
// (set_tet_*), the scatter runs in tet order on one thread, so results do not depend on the
// thread count.
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "smfem/full/full_dynamics.hpp"
#include "smfem/full/obstacle_contact.hpp"
#include "smfem/full/tet_mesh_deformation.hpp"
#include "smfem/sim/kernels/refined_cholesky.hpp"
#include "smfem/sim/step/discretization.hpp"

namespace smfem::full {

class FullSystem final : public sim::StepSystem {
 public:
  // Both must outlive this; the pins are the dynamics'.
  FullSystem(const TetMeshDeformation& deformation, const FullDynamics& dynamics);

  // The contact whose Hessian blocks (of its last linearize()) solve() adds, or null for none;
  // it must outlive its use. Its points' nodes must be in some element.
  void set_contact(const ObstacleContact* contact) { contact_ = contact; }

  void set_tet_hessian(int tet, const Matrix9<double>& hessian) override;
  void set_tet_gradient(int tet, const Matrix3<double>& gradient) override;
  void assemble(parallel::ThreadPool& pool) override;
  int solve(const sim::ReducedMatrix& dynamics_gradient, sim::ReducedMatrix& dU) override;
  const sim::ReducedMatrix& rhs() const override { return rhs_; }

  // After assemble(): K (lower triangle, free DOFs) and the elastic force (n x 3; the pinned
  // vertices' rows too).
  const Eigen::SparseMatrix<double>& stiffness() const { return stiffness_; }
  const sim::ReducedMatrix& force() const { return force_; }
  int dof_count() const { return static_cast<int>(matrix_.rows()); }
  Eigen::Index nonzeros() const { return matrix_.nonZeros(); }  // lower triangle

 private:
  static constexpr int kLocalEntries = 78;  // lower triangle of a 12 x 12 block

  const TetMeshDeformation& deformation_;
  const FullDynamics& dynamics_;
  std::vector<int> free_index_;            // per vertex: k, or -1 if pinned
  Eigen::SparseMatrix<double> stiffness_;  // K, lower triangle
  Eigen::SparseMatrix<double> matrix_;     // M / h^2 + B + K, same pattern
  std::vector<int> slots_;                 // T x 78: place in the value arrays, -1 if pinned
  std::vector<int> diagonal_slots_;        // per DOF
  std::vector<int> node_block_slots_;      // per node, 6: its 3 x 3 block's lower triangle
  const ObstacleContact* contact_ = nullptr;
  // B's entries in the lower triangle of the free DOFs: where, and what is added there.
  std::vector<std::pair<int, double>> bending_entries_;
  std::vector<int> hinge_slots_;        // hinges x 78: place in the value arrays, -1 if pinned
  std::vector<double> local_hessians_;  // T x 78: w_t K_t's lower triangle
  std::vector<double> local_forces_;    // T x 12: w_t force_t
  sim::ReducedMatrix force_;            // n x 3
  sim::ReducedMatrix rhs_;              // n x 3
  Eigen::VectorXd rhs_vector_;
  Eigen::VectorXd solution_;
  sim::RefinedCholesky cholesky_;
  parallel::ThreadPool* pool_ = nullptr;  // assemble()'s, for the factorization
};

}  // namespace smfem::full
