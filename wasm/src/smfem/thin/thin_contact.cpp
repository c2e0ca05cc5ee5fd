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
  // Every vertex with an area: a volume's inside ones have none (they never reach an obstacle
  // before the boundary does).
  std::vector<full::ObstacleContact::Point> points;
  for (int v = 0; v < body.vertex_count; ++v) {
    if (body.contact_areas(v) > 0.0) {
      points.push_back(
          {v, body.rest.row(v).transpose(), body.contact_areas(v), body.contact_skins(v)});
    }
  }
  return std::make_unique<full::ObstacleContact>(std::move(points), std::move(obstacles),
                                                 parameters);
}

}  // namespace smfem::thin
