#include "smfem/thin/thin_contact.hpp"

#include <utility>

#include "smfem/multibody/contact_scene.hpp"

namespace smfem::thin {

contact::ContactParameters default_contact_parameters(const ThinBody& body, double timestep) {
  contact::ContactParameters parameters;
  const double diagonal = (body.rest.colwise().maxCoeff() - body.rest.colwise().minCoeff()).norm();
  parameters.activation = multibody::kDefaultActivation * diagonal;
  parameters.stiffness =
      body.model.translational_mass.sum() / body.contact_areas.sum() / (timestep * timestep);
  return parameters;
}

std::unique_ptr<full::ObstacleContact> thin_obstacle_contact(
    const ThinBody& body, std::vector<contact::Obstacle> obstacles,
    const contact::ContactParameters& parameters) {
  std::vector<full::ObstacleContact::Point> points(static_cast<std::size_t>(body.vertex_count));
  for (int v = 0; v < body.vertex_count; ++v) {
    points[static_cast<std::size_t>(v)] = {v, body.rest.row(v).transpose(), body.contact_areas(v)};
  }
  return std::make_unique<full::ObstacleContact>(std::move(points), std::move(obstacles),
                                                 parameters);
}

}  // namespace smfem::thin
