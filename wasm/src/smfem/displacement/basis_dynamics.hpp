#pragma once
// Psi_u of a displacement basis (sim/step/discretization.hpp): the full mesh's inertial energy
// (full/full_dynamics.hpp) restricted to u = Phi q,
//
//   Psi_u(q) = 1/(2 h^2) (q - q~)^T M_r (q - q~) - f_r . q,
//
// M_r = Phi^T M Phi the reduced mass (k x k; M the lumped mass, 3 per vertex), q~ = q_n + h qdot_n,
// f_r = Phi^T f for the vertex forces f (gravity: m_v g). q is column 0 of the k x 3 matrix U
// (basis_deformation.hpp); the gradient's other columns are 0.
#include <Eigen/Core>

#include "smfem/sim/step/discretization.hpp"

namespace smfem::displacement {

class BasisDynamics final : public sim::InertialEnergy {
 public:
  // reduced_mass: k x k, symmetric positive definite; timestep h > 0.
  BasisDynamics(Eigen::MatrixXd reduced_mass, double timestep);

  double timestep() const { return timestep_; }
  void set_timestep(double timestep) { timestep_ = timestep; }  // h > 0, between steps
  const Eigen::MatrixXd& reduced_mass() const { return reduced_mass_; }

  // Fixes q~ and f_r (each k x 3, column 0) for the step.
  void begin_step(const sim::ReducedMatrix& q_n, const sim::ReducedMatrix& qdot_n,
                  const sim::ReducedMatrix& force);
  const sim::ReducedMatrix& prediction() const { return predicted_; }

  double energy(const sim::ReducedMatrix& U) override;
  void gradient(const sim::ReducedMatrix& U, sim::ReducedMatrix& out) override;
  double curvature(const sim::ReducedMatrix& dU) override;

 private:
  Eigen::MatrixXd reduced_mass_;
  double timestep_;
  sim::ReducedMatrix predicted_;
  sim::ReducedMatrix force_;
};

}  // namespace smfem::displacement
