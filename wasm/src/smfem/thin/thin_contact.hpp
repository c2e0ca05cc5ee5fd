#pragma once
// A thin body's contact with the analytic obstacles (full/obstacle_contact.hpp): its vertices
// are the contact points, weighted by their contact areas (thin_body.hpp). Between vertices a
// triangle or segment may dip into a curved obstacle by its sagitta (a 1.6 cm cell on a 10 cm
// sphere: 0.3 mm), less than the default dhat. Friction as the obstacle contact has it; no
// self-contact.
#include <memory>
#include <vector>

#include "smfem/full/obstacle_contact.hpp"
#include "smfem/thin/thin_body.hpp"

namespace smfem::thin {

// The volumes' scene defaults (multibody/contact_scene.hpp): dhat a fraction (kDefaultActivation)
// of the body's bounding-box diagonal, kappa its mass per contact area over h^2.
contact::ContactParameters default_contact_parameters(const ThinBody& body, double timestep);

// Throws std::invalid_argument as ObstacleContact does.
std::unique_ptr<full::ObstacleContact> thin_obstacle_contact(
    const ThinBody& body, std::vector<contact::Obstacle> obstacles,
    const contact::ContactParameters& parameters);

}  // namespace smfem::thin
