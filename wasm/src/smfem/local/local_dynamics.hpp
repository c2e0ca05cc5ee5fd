#pragma once
// Psi_u (sim/step/dynamics.hpp) over the extended coordinates of patch_set.hpp: the global
// Dynamics' inertia, loads and springs on U_g, plus the inertia of the patches' coefficients and
// its coupling to U_g, gravity on the coefficients, and the drag spring's share of the dent:
//
//   Psi = Psi_g(U_g) + 1/h^2 sum_d dU_d^T N_d dc + 1/(2 h^2) dc^T M_c dc - f_c . c
//         + k (x_g - t) . (S c) + k/2 |S c|^2
//
// with dU = U_g - U~_g, dc = c - c~ (c~ = c_n + h cdot_n; dc as the 3P vector, entry 3p + a),
// N_d and M_c the patch set's coupling and local mass, f_c the external force on c (gravity's,
// loads'). The drag spring (k, target t) pulls the point x = x_g + S c: x_g = X + U_g^T b its
// global position (Psi_g holds k/2 |x_g - t|^2), S = [R_0 B_0 ... R_P-1 B_P-1] (3 x 3P) the
// patches' fields at the point, turned (set_spring_fields: B_p, in the rest frame). Quadratic, like
// Psi_g: its Hessian is [I_3 (x) H_block, K_gc; K_gc^T, K_cc] with the blocks below. Allocates
// nothing after construction (the global Dynamics' own calls included).
#include <array>
#include <vector>

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

  // B_p of every patch at the drag spring's point (rest frame, m per unit coefficient; zero where
  // a patch does not reach it), used while the global Dynamics has a spring. Taken at the next
  // begin_step. Throws std::invalid_argument unless there is one per patch.
  void set_spring_fields(const std::vector<Eigen::Matrix3d>& fields);

  // The global Dynamics' begin_step on U_g, and c~ and f_c for the coefficients. U_n and Udot_n
  // are extended (patches.rows() x 3); force is the global one (4m x 3), local_force the
  // coefficients' (P x 3: PatchSet::gravity_force, load_force, under the step's rotations: call
  // PatchSet::set_rotations first). Throws std::invalid_argument for sizes that do not agree.
  void begin_step(const sim::ReducedMatrix& U_n, const sim::ReducedMatrix& Udot_n,
                  const sim::ReducedMatrix& force, const sim::ReducedMatrix& local_force);
  // The extended prediction [U~_g; c~].
  const sim::ReducedMatrix& prediction() const { return prediction_; }
  // The Hessian's blocks beyond I_3 (x) H_block, constant within a step: K_gc by coordinate d
  // (4m x 3P), N_d / h^2 + k b S(d, :), and K_cc = M_c / h^2 + k S^T S (3P x 3P).
  const Eigen::MatrixXd& coupling_hessian(int d) const {
    return coupling_hessian_[static_cast<std::size_t>(d)];
  }
  const Eigen::MatrixXd& local_hessian() const { return local_hessian_; }
  // The springs' energy at the extended U: the global Dynamics' spring_energy with the drag
  // spring's point at x_g + S c (k/2 |x_g + S c - t|^2), for the step's energy check.
  double spring_energy(const sim::ReducedMatrix& U);

  double energy(const sim::ReducedMatrix& U) override;
  void gradient(const sim::ReducedMatrix& U, sim::ReducedMatrix& out) override;
  double curvature(const sim::ReducedMatrix& dU) override;

 private:
  // dU and dc of U - the prediction into the workspaces.
  void split(const sim::ReducedMatrix& U);
  // sum_d a_d . (N_d c), and c . (M_c c).
  double coupled(const sim::ReducedMatrix& a, const Eigen::VectorXd& c);
  double local_curvature(const Eigen::VectorXd& c);
  bool spring_on() const { return global_.has_spring(); }
  // k (x_g - t) . (S c) + k/2 |S c|^2 at the split U.
  double spring_energy_beyond_global() const;
  // S c of the 3P vector c.
  Eigen::Vector3d spring_displacement(const Eigen::VectorXd& c) const { return spring_ * c; }

  sim::Dynamics& global_;
  const PatchSet& patches_;
  sim::ReducedMatrix prediction_;
  sim::ReducedMatrix local_force_;  // P x 3
  sim::ReducedMatrix global_part_;  // 4m x 3 workspaces
  sim::ReducedMatrix global_gradient_;
  sim::ReducedMatrix global_change_;
  Eigen::VectorXd local_change_;  // 3P
  Eigen::VectorXd local_gradient_;
  Eigen::VectorXd coupled_;                          // 4m
  Eigen::VectorXd coefficients_;                     // c as the 3P vector
  std::vector<Eigen::Matrix3d> spring_fields_;       // B_p at the spring's point, rest frame
  Eigen::Matrix<double, 3, Eigen::Dynamic> spring_;  // S of the step
  std::array<Eigen::MatrixXd, 3> coupling_hessian_;
  Eigen::MatrixXd local_hessian_;
};

}  // namespace smfem::local
