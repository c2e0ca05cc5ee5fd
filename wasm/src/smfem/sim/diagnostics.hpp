#pragma once
// Physical quantities of a reduced state (U, Udot), exact for the skinned vertices (the sums
// over vertices are folded into the model's precomputed moments):
//
//   kinetic energy     1/2 sum_d udot_d^T mass_block udot_d
//   elastic energy     sum_c w_c psi(s(F_c(u)))        (cubature)
//   stretch energy     sum_c w_c psi(z_c)              (MFEM's stretch DOFs; FEM: = elastic)
//   gravity potential  -sum_v m_v g . x_v = -M g . centroid
//   spring energy      k/2 |x_p(u) - t|^2 of the drag spring
//   total energy       kinetic + elastic + gravity + spring
//   linear momentum    p_d = udot_d . mass_vector
//   angular momentum   about the origin, L = sum_v m_v x_v x xdot_v; with x_v,b = X_v,b +
//                      u_b . b_v and xdot_v,c = udot_c . b_v,
//                      L_a = eps_abc (udot_c . S_b + u_b^T mass_block udot_c),
//                      S_b = first_moment row b = sum_v m_v X_v,b b_v
//   centroid           c_rest + [u_d . mass_vector]_d / M
//
// The external force is not conservative (time dependent) and has no potential here.
#include <vector>

#include <Eigen/Core>

#include "smfem/sim/material_model.hpp"
#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"
#include "smfem/sim/step/dynamics.hpp"

namespace smfem::sim {

struct Diagnostics {
  double kinetic_energy = 0.0;
  double elastic_energy = 0.0;
  double stretch_energy = 0.0;
  double gravity_potential = 0.0;
  double spring_energy = 0.0;
  // The contact barrier's (where the scene measures it: a contact scene, a thin body against
  // obstacles), J; in total_energy, so that a landing trades kinetic energy for it.
  double contact_energy = 0.0;
  double total_energy = 0.0;
  Eigen::Vector3d linear_momentum = Eigen::Vector3d::Zero();
  Eigen::Vector3d angular_momentum = Eigen::Vector3d::Zero();
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
  double max_constraint_violation = 0.0;  // max_c ||s(F_c(u)) - z_c||_inf
};

// Evaluates the quantities above without allocating (workspace: 4m x 3). stretch is s(F_c(u))
// per tet, z the stretch DOFs.
void compute_diagnostics(const ReducedModel& model, MaterialModel material,
                         const std::vector<Lame>& lame, const Eigen::Vector3d& gravity,
                         const Dynamics& dynamics, const ReducedMatrix& U,
                         const ReducedMatrix& Udot, const StretchField& stretch,
                         const StretchField& z, ReducedMatrix& workspace, Diagnostics& out);

}  // namespace smfem::sim
