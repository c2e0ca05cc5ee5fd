#include "smfem/sim/diagnostics.hpp"

#include <algorithm>

namespace smfem::sim {

void compute_diagnostics(const ReducedModel& model, MaterialModel material,
                         const std::vector<Lame>& lame, const Eigen::Vector3d& gravity,
                         const Dynamics& dynamics, const ReducedMatrix& U,
                         const ReducedMatrix& Udot, const StretchField& stretch,
                         const StretchField& z, ReducedMatrix& workspace, Diagnostics& out) {
  dynamics.mass_times(Udot, workspace);  // column c: mass_block udot_c
  out.kinetic_energy = 0.5 * Udot.cwiseProduct(workspace).sum();

  out.elastic_energy = 0.0;
  out.stretch_energy = 0.0;
  out.max_constraint_violation = 0.0;
  for (int c = 0; c < model.cubature_count(); ++c) {
    const Lame& parameters = lame[static_cast<std::size_t>(c)];
    const double w = model.cubature_weights(c);
    out.elastic_energy += w * psi(material, Vector6<double>(stretch.col(c)), parameters);
    out.stretch_energy += w * psi(material, Vector6<double>(z.col(c)), parameters);
    out.max_constraint_violation =
        std::max(out.max_constraint_violation, (stretch.col(c) - z.col(c)).cwiseAbs().maxCoeff());
  }

  const double M = model.total_mass;
  Eigen::Vector3d moved;  // u_d . mass_vector = sum_v m_v (x_v - X_v)_d
  for (int d = 0; d < 3; ++d) moved(d) = U.col(d).dot(model.mass_vector);
  out.centroid = model.rest_centroid + moved / M;
  out.gravity_potential = -M * gravity.dot(out.centroid);

  out.spring_energy = 0.0;
  if (dynamics.has_spring()) {
    const DragSpring& spring = dynamics.spring();
    out.spring_energy =
        0.5 * spring.stiffness * (dynamics.spring_point(U) - spring.target).squaredNorm();
  }
  out.total_energy =
      out.kinetic_energy + out.elastic_energy + out.gravity_potential + out.spring_energy;

  for (int d = 0; d < 3; ++d) out.linear_momentum(d) = Udot.col(d).dot(model.mass_vector);
  // L_a = eps_abc (udot_c . S_b + u_b . mass_block udot_c), (a, b, c) cyclic minus anticyclic.
  const auto moment = [&](int b, int c) {
    return Udot.col(c).dot(model.first_moment.row(b).transpose()) + U.col(b).dot(workspace.col(c));
  };
  out.angular_momentum << moment(1, 2) - moment(2, 1), moment(2, 0) - moment(0, 2),
      moment(0, 1) - moment(1, 0);
}

}  // namespace smfem::sim
