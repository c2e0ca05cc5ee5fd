#pragma once
// Psi_u of the full mesh (sim/step/discretization.hpp), with the lumped (diagonal) mass and the
// bending terms of element_model.hpp (the constant B and the hinges, E_h):
//
//   Psi_u(U) = 1/(2 h^2) sum_v m_v |U_v - U~_v|^2 - sum_v f_v . U_v + 1/2 sum_d U_d^T B U_d
//              + E_h(U) + k/2 |X_p + U_p - t|^2,
//
// U~ = U_n + h Udot_n, f the external force per vertex (gravity: m_v g) at the end of the
// step, and the last term the drag spring (set_spring: node p at rest position X_p pulled
// towards t with stiffness k; none by default). Pinned vertices never move: their rows of U stay 0,
// the solver's system leaves them out, and their gradient rows are reported as 0.
#include <optional>
#include <vector>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "smfem/full/hinge_bending.hpp"
#include "smfem/sim/step/discretization.hpp"

namespace smfem::full {

class FullDynamics final : public sim::InertialEnergy {
 public:
  // vertex_mass: n, kg, > 0; pinned: n flags; bending: n x n, or empty for none; hinges: or
  // none.
  FullDynamics(Eigen::VectorXd vertex_mass, std::vector<char> pinned, double timestep,
               Eigen::SparseMatrix<double> bending = {}, HingeSet hinges = {});

  double timestep() const { return timestep_; }
  const Eigen::VectorXd& vertex_mass() const { return vertex_mass_; }
  const std::vector<char>& pinned() const { return pinned_; }
  const Eigen::SparseMatrix<double>& bending() const { return bending_; }
  // The hinges, with their Gauss-Newton Hessian at the U of the last gradient().
  const HingeBending& hinges() const { return hinges_; }

  // Fixes U~ and f (n x 3 each) for the step.
  void begin_step(const sim::ReducedMatrix& U_n, const sim::ReducedMatrix& Udot_n,
                  const sim::ReducedMatrix& force);
  const sim::ReducedMatrix& prediction() const { return predicted_; }

  struct Spring {
    int node = 0;
    Eigen::Vector3d rest = Eigen::Vector3d::Zero();    // X_p, m
    Eigen::Vector3d target = Eigen::Vector3d::Zero();  // t, m
    double stiffness = 0.0;                            // k, N/m
  };
  // The drag spring from now on (a pinned node's spring pulls nothing), or none.
  void set_spring(const std::optional<Spring>& spring) { spring_ = spring; }
  const std::optional<Spring>& spring() const { return spring_; }
  // k/2 |X_p + U_p - t|^2, or 0 without a spring.
  double spring_energy(const sim::ReducedMatrix& U) const;

  double energy(const sim::ReducedMatrix& U) override;
  void gradient(const sim::ReducedMatrix& U, sim::ReducedMatrix& out) override;
  double curvature(const sim::ReducedMatrix& dU) override;

 private:
  Eigen::VectorXd vertex_mass_;
  std::vector<char> pinned_;
  double timestep_;
  Eigen::SparseMatrix<double> bending_;
  HingeBending hinges_;
  sim::ReducedMatrix predicted_;
  sim::ReducedMatrix force_;
  std::optional<Spring> spring_;
};

}  // namespace smfem::full
