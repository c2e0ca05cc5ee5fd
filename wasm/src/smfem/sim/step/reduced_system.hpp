#pragma once
// The global linear system of a solver iteration,
//
//   (H_u + H_c + B G B^T + K) du = -(dPsi_u/du + force),
//
// H_u = I_3 (x) H_block (dynamics.hpp), H_c the contact term's Hessian if there is one
// (sim/contact/contact_potential.hpp; its gradient comes with dPsi_u/du), B G B^T the EigenFit
// term's if there is one (eigenfit_term.hpp; a single body; its force comes with the tets'),
// K (one assembly per body
// of a model of several, ReducedModel::bodies: their blocks of H_block and K are all there is,
// the rest is zero) and the elastic force assembled from the per-tet
// inputs (stiffness_assembly.hpp), solved by Cholesky (spd_solver.hpp). du, like u, is a
// 4m x 3 matrix.
//
// A model of several bodies keeps its unknowns body by body (system_layout.hpp), the bodies in
// an order chosen at each solve from the pairs contact couples (minimum degree: a body
// eliminated early couples its neighbours, so the least coupled go first), and stores and
// factors only the blocks of bodies and of the pairs contact couples, with their fill
// (block_cholesky.hpp). A single body's unknowns are u = vec(U), its r x r matrix dense
// (dense_cholesky.hpp), allocated at construction.
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "smfem/parallel/thread_pool.hpp"
#include "smfem/sim/contact/contact_potential.hpp"
#include "smfem/sim/kernels/spd_solver.hpp"
#include "smfem/sim/kernels/stiffness_assembly.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"
#include "smfem/sim/step/discretization.hpp"
#include "smfem/sim/step/dynamics.hpp"
#include "smfem/sim/step/eigenfit_term.hpp"
#include "smfem/sim/step/system_layout.hpp"

namespace smfem::sim {

class ReducedSystem final : public StepSystem {
 public:
  // H_u is read from dynamics (which must outlive this) at each solve.
  ReducedSystem(const ReducedModel& model, const Dynamics& dynamics, int thread_count);

  void set_single_precision(bool single);
  // The contact term whose last linearization each solve adds (none: nullptr). Not owned.
  void set_contact(const contact::ContactPotential* contact) { contact_ = contact; }
  // The EigenFit term whose last assembly each solve adds (none: nullptr; a single body's only).
  // Not owned.
  void set_eigenfit(const EigenFitTerm* eigenfit);

  void set_tet_hessian(int tet, const Matrix9<double>& hessian) override {
    const Located at = locate(tet);
    assemblies_[at.body].set_tet_hessian(at.tet, hessian);
  }
  void set_tet_gradient(int tet, const Matrix3<double>& gradient) override {
    const Located at = locate(tet);
    assemblies_[at.body].set_tet_gradient(at.tet, gradient);
  }
  // The bodies the next solves move (per body of the model, nonzero: moving), or empty for all:
  // the others' rows of du are zero, and their blocks are neither assembled nor factored, so that
  // an impact's further iterations (sim/simulator.hpp) cost what its moving bodies cost. A single
  // body always moves.
  void set_moving_bodies(std::vector<char> moving);
  void assemble(parallel::ThreadPool& pool) override;
  // Cholesky shifts as in spd_solver.hpp. A large system's factorization shares the work with
  // the threads of the last assemble()'s pool.
  int solve(const ReducedMatrix& dynamics_gradient, ReducedMatrix& du) override;
  // -(dPsi_u/du + force), 4m x 3.
  const ReducedMatrix& rhs() const override { return rhs_; }

  // For a caller that borders a single body's system with unknowns of its own (the patches of
  // local/local_system.hpp), after assemble(): the matrix solve() would factor, I_3 (x) H_block +
  // K and the contact and EigenFit terms' Hessians, into the lower triangle of `matrix` (12m x 12m,
  // u = vec(U); written, not added), and the elastic force (4m x 3).
  void write_single_body_lower(Eigen::Ref<Eigen::MatrixXd> matrix) const;
  const ReducedMatrix& force() const { return force_; }

 private:
  struct Located {
    std::size_t body;
    int tet;  // within the body
  };
  Located locate(int tet) const {
    const std::size_t body = tet_body_.empty() ? 0 : tet_body_[static_cast<std::size_t>(tet)];
    return {body, tet - first_tet_[body]};
  }
  bool moving(std::size_t body) const { return moving_.empty() || moving_[body] != 0; }
  // Orders the moving bodies for this solve (a single body: u = vec(U)).
  void update_layout();

  const Dynamics& dynamics_;
  const contact::ContactPotential* contact_ = nullptr;
  const EigenFitTerm* eigenfit_ = nullptr;
  std::vector<StiffnessAssembly> assemblies_;  // one per body
  std::vector<int> first_tet_, first_row_;     // per body
  std::vector<char> moving_;                   // per body, or empty for all
  SystemLayout layout_;
  std::vector<std::uint8_t> tet_body_;    // per tet; empty for one body
  ReducedMatrix force_;                   // the bodies' elastic forces, side by side
  parallel::ThreadPool* pool_ = nullptr;  // the last assemble()'s
  // One body: its dense matrix (12m x 12m, lower triangle) and solver. Several: their blocks.
  std::optional<SpdSolver> spd_;
  Eigen::MatrixXd matrix_;
  BlockCholesky blocks_;
  ReducedMatrix rhs_;
  Eigen::VectorXd rhs_vector_;
  Eigen::VectorXd solution_;
};

}  // namespace smfem::sim
