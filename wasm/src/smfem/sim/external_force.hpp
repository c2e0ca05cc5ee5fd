#pragma once
// The generic reduced external force hook: f(t) = constant + sin(2 pi frequency t + phase)
// periodic, each a 4m x 3 matrix whose column d acts on u_d (reduced_model.hpp). The stepper
// evaluates it at the end of each step (implicit Euler) and adds it to gravity in Psi_u
// (dynamics.hpp). Helpers build the reduced forms of common loads.
#include <cmath>

#include <Eigen/Core>

#include "smfem/sim/cubature_kinematics.hpp"
#include "smfem/sim/reduced_model.hpp"

namespace smfem::sim {

struct ExternalForce {
  ReducedMatrix constant;  // 4m x 3 (empty: none)
  ReducedMatrix periodic;  // 4m x 3 (empty: none)
  double frequency = 0.0;  // Hz
  double phase = 0.0;      // rad

  // out += f(time); out must be 4m x 3.
  void add_to(double time, ReducedMatrix& out) const {
    if (constant.size() > 0) out += constant;
    if (periodic.size() > 0) {
      out += std::sin(2.0 * 3.14159265358979323846 * frequency * time + phase) * periodic;
    }
  }
};

// The reduced force of the body force m_v a on every vertex (a uniform acceleration a, as of
// gravity): column d is a_d mass_vector.
ReducedMatrix body_force(const ReducedModel& model, const Eigen::Vector3d& acceleration);

// The reduced force of a force applied at a render vertex p: column d is force_d b_p
// (render_vertex_basis). Throws std::out_of_range for a vertex the model does not have.
ReducedMatrix point_force(const ReducedModel& model, int render_vertex,
                          const Eigen::Vector3d& force);

}  // namespace smfem::sim
