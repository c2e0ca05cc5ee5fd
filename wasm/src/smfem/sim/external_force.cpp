#include "smfem/sim/external_force.hpp"

namespace smfem::sim {

ReducedMatrix body_force(const ReducedModel& model, const Eigen::Vector3d& acceleration) {
  return model.mass_vector * acceleration.transpose();
}

ReducedMatrix point_force(const ReducedModel& model, int render_vertex,
                          const Eigen::Vector3d& force) {
  return render_vertex_basis(model, render_vertex) * force.transpose();
}

}  // namespace smfem::sim
