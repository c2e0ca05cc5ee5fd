#pragma once
// An obstacle that moves (along its path, or to where the hand drags it) pushes the free bodies
// in its way ahead of it, before the step: an inelastic push by a body of unbounded mass, as
// the thin bodies' points are pushed (full/obstacle_contact.hpp: advance_obstacles).
//
// Why: the step sees the obstacle where its motion ends, and the barrier alone must then move
// the body out of its way; at 1 or 2 iterations it moves it a little, so the obstacle, held back
// where it would come too near a sample, stalled at the body: a sphere swept at 1 m/s into a
// free cube on a frictionless floor moved it at 5 cm/s.
//
// A body the obstacle would come nearer than CCD allows (`keep` of a sample's distance) moves on
// rigidly along the contact's normal where it is struck first, by the obstacle's motion along it
// over the part of the step the obstacle could not make unpushed, and its velocity along that
// normal rises to the obstacle's (a body struck obliquely keeps its slide along the surface). The
// push passes on: the bodies whose boxes come within dhat of the pushed body's swept box (those in
// its way, and, boxes being coarse, those beside or on it too), and theirs in turn, go with it,
// rigidly together (a row of blocks, a stack on a lift). The
// obstacle is held back instead, as far as keeps it clear, where one of them cannot translate (its
// subspace holds no translation: a pinned body) or would go into another obstacle, or where the
// group would meet another group the same obstacle pushes; against a plane (the floor) the push
// slides along it instead where it can.
#include <cstddef>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "smfem/sim/contact/contact_surface.hpp"
#include "smfem/sim/contact/obstacle.hpp"

namespace smfem::multibody {

struct PushCandidate {
  const contact::SurfacePositions* surface = nullptr;  // every surface vertex, in the scene
  const Eigen::VectorXi* samples = nullptr;            // the contact samples among them
  bool can_translate = false;
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();  // of its centre of mass, m/s
  Eigen::AlignedBox3d box;                             // of its surface
};

struct Push {
  int body = 0;
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();  // m, added to every point
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();     // m/s, added to its velocity
};

struct ObstacleAdvance {
  double alpha = 1.0;  // the fraction of the motion the obstacle makes
  std::vector<Push> pushes;
};

// Obstacle o of `obstacles` moving by `motion` over a step of `timestep` among `bodies`; keep:
// CCD's fraction (contact::ContactParameters::keep); activation: dhat.
ObstacleAdvance advance_obstacle(const std::vector<contact::Obstacle>& obstacles, std::size_t o,
                                 const Eigen::Vector3d& motion,
                                 const std::vector<PushCandidate>& bodies, double keep,
                                 double activation, double timestep);

}  // namespace smfem::multibody
