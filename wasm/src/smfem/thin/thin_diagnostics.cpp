#include "smfem/thin/thin_diagnostics.hpp"

#include <algorithm>

#include "smfem/polar/polar.hpp"
#include "smfem/sim/material_model.hpp"

namespace smfem::thin {

sim::Diagnostics thin_diagnostics(const ThinBody& body, const full::FullSimulator& simulator) {
  const full::ElementModel& model = simulator.model();
  const sim::ReducedMatrix& U = simulator.displacements();
  const sim::ReducedMatrix& V = simulator.velocities();
  const sim::SolverSettings& settings = simulator.settings();
  sim::Diagnostics out;
  out.kinetic_energy = 0.5 * (model.node_mass.asDiagonal() * V).cwiseProduct(V).sum();
  const double bending = simulator.bending_energy();
  out.elastic_energy = bending;
  out.stretch_energy = bending;
  const std::vector<sim::Lame>& lame = simulator.lame();
  // One polar decomposition per element serves the elastic energy and the violation.
  const sim::StretchField& stretches = simulator.stretches_now();
  for (int e = 0; e < model.element_count(); ++e) {
    const sim::Lame& element_lame = lame[static_cast<std::size_t>(e)];
    const Vector6<double> z = simulator.stretches().col(e);
    const Vector6<double> s = stretches.col(e);
    out.elastic_energy += model.weights(e) * sim::psi(settings.material_model, s, element_lame);
    out.stretch_energy += model.weights(e) * sim::psi(settings.material_model, z, element_lame);
    out.max_constraint_violation =
        std::max(out.max_constraint_violation, (s - z).lpNorm<Eigen::Infinity>());
  }
  double mass = 0.0;
  for (int n = 0; n < model.node_count; ++n) {
    const Eigen::Vector3d xdot = V.row(n).transpose();
    const double m = model.translational_mass(n);
    if (n < body.vertex_count) {
      const Eigen::Vector3d x = (body.rest.row(n) + U.row(n)).transpose();
      mass += m;
      out.gravity_potential -= m * settings.gravity.dot(x);
      out.linear_momentum += m * xdot;
      out.angular_momentum += m * x.cross(xdot);
      out.centroid += m * x;
    } else {
      // A director: its rest "position" is its unit direction, U moves it from there.
      const Eigen::Vector3d d = (body.directions.row(n - body.vertex_count) + U.row(n)).transpose();
      out.angular_momentum += model.node_mass(n) * d.cross(xdot);
    }
  }
  if (mass > 0.0) out.centroid /= mass;
  out.spring_energy = simulator.spring_energy();
  if (simulator.contact() != nullptr) out.contact_energy = simulator.contact()->energy(U);
  out.total_energy = out.kinetic_energy + out.elastic_energy + out.gravity_potential +
                     out.spring_energy + out.contact_energy;
  return out;
}

}  // namespace smfem::thin
