#pragma once
// Psi_u (sim/step/dynamics.hpp) over the extended coordinates of patch_set.hpp: the global
// Dynamics' inertia, loads and springs on U_g, plus the inertia of the patches' coefficients and
// its coupling to U_g, and gravity on the coefficients:
//
//   Psi = Psi_g(U_g) + 1/h^2 sum_d dU_d^T N_d dc + 1/(2 h^2) dc^T M_c dc - f_c . c
//
// with dU = U_g - U~_g, dc = c - c~ (c~ = c_n + h cdot_n; dc as the 3P vector, entry 3p + a),
// N_d and M_c the patch set's coupling and local mass, f_c the external force on c (gravity's,
// loads'). Quadratic, like
// Psi_g: its Hessian is [I_3 (x) H_block, N / h^2; N^T / h^2, M_c / h^2]. Allocates nothing after
// construction (the global Dynamics' own calls included).
#include <Eigen/Core>

#include "smfem/local/patch_set.hpp"
#include "smfem/sim/step/discretization.hpp"
#include "smfem/sim/step/dynamics.hpp"

namespace smfem::local {

class LocalDynamics final : public sim::InertialEnergy {
 public:
  // Neither is owned; both must outlive this.
  LocalDynamics(sim::Dynamics& global, const PatchSet& patches);

  const sim::Dynamics& global() const { return global_; }
  const PatchSet& patches() const { return patches_; }

  // The global Dynamics' begin_step on U_g, and c~ and f_c for the coefficients. U_n and Udot_n
  // are extended (patches.rows() x 3); force is the global one (4m x 3), local_force the
  // coefficients' (P x 3: PatchSet::gravity_force, load_force, under the step's rotations: call
  // PatchSet::set_rotations first). Throws std::invalid_argument for sizes that do not agree.
  void begin_step(const sim::ReducedMatrix& U_n, const sim::ReducedMatrix& Udot_n,
                  const sim::ReducedMatrix& force, const sim::ReducedMatrix& local_force);
  // The extended prediction [U~_g; c~].
  const sim::ReducedMatrix& prediction() const { return prediction_; }

  double energy(const sim::ReducedMatrix& U) override;
  void gradient(const sim::ReducedMatrix& U, sim::ReducedMatrix& out) override;
  double curvature(const sim::ReducedMatrix& dU) override;

 private:
  // dU and dc of U - the prediction into the workspaces.
  void split(const sim::ReducedMatrix& U);
  // sum_d a_d . (N_d c), and c . (M_c c).
  double coupled(const sim::ReducedMatrix& a, const Eigen::VectorXd& c);
  double local_curvature(const Eigen::VectorXd& c);

  sim::Dynamics& global_;
  const PatchSet& patches_;
  sim::ReducedMatrix prediction_;
  sim::ReducedMatrix local_force_;  // P x 3
  sim::ReducedMatrix global_part_;  // 4m x 3 workspaces
  sim::ReducedMatrix global_gradient_;
  sim::ReducedMatrix global_change_;
  Eigen::VectorXd local_change_;  // 3P
  Eigen::VectorXd local_gradient_;
  Eigen::VectorXd coupled_;  // 4m
};

}  // namespace smfem::local
