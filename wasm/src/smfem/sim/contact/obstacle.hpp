#pragma once
// Analytic obstacles: rigid shapes the bodies cannot enter, fixed or moved along a scripted path
// (or by the user). Distances are measured from the outside; a point inside a sphere, box or
// capsule has distance 0 (an invalid state, refused where a scene is set up). A plane bounds a
// half-space, the side its normal points away from: its distance is signed, negative beyond it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "smfem/sim/contact/ccd.hpp"

namespace smfem::contact {

enum class ObstacleKind { plane, sphere, box, capsule };

std::string_view obstacle_kind_name(ObstacleKind kind);
std::optional<ObstacleKind> obstacle_kind_from_name(std::string_view name);

// A piecewise linear translation over time through keyframes (times strictly increasing),
// held at the last one; empty: no motion.
struct ObstaclePath {
  std::vector<double> times;             // s
  std::vector<Eigen::Vector3d> offsets;  // m, the translation at each time
  Eigen::Vector3d offset_at(double time) const;
};

struct Obstacle {
  ObstacleKind kind = ObstacleKind::plane;
  // plane: a point and the unit normal; sphere: center, radius; box: center, half extents
  // (axis-aligned); capsule: the segment from `point` to `end`, radius.
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
  Eigen::Vector3d normal = Eigen::Vector3d::UnitY();
  Eigen::Vector3d half_extents = Eigen::Vector3d::Zero();
  Eigen::Vector3d end = Eigen::Vector3d::Zero();
  double radius = 0.0;
  double friction = -1.0;  // Coulomb coefficient against this obstacle; < 0: the scene's
  ObstaclePath path;
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();        // the current translation
  Eigen::Vector3d start_offset = Eigen::Vector3d::Zero();  // the translation a step started at
};

// The distance from x to the obstacle (translated by its offset) grown by `skin` all round (a
// rod's radius: the rod's midline against the obstacle keeps its surface off it; 0 otherwise),
// and the unit direction from the obstacle's nearest point towards x (the distance's gradient;
// any unit vector where the distance is 0). A grown obstacle stays convex.
struct ObstacleDistance {
  double distance = 0.0;
  Eigen::Vector3d direction = Eigen::Vector3d::UnitY();
};
ObstacleDistance obstacle_distance(const Obstacle& obstacle, const Eigen::Vector3d& x,
                                   double skin = 0.0);

// The barrier's force on the obstacle from a contact point at x that stands for `weight` (the
// pair's stiffness times its area, contact_potential.hpp): weight b'(d) n, n from the obstacle
// towards x (zero from dhat on). Summed over the points, the force a body presses on it.
Eigen::Vector3d obstacle_reaction(const Obstacle& obstacle, const Eigen::Vector3d& x, double weight,
                                  double dhat, double skin = 0.0);

// The signed distance from `plane`'s boundary to the deepest point of `shape` (a sphere, box or
// capsule; both translated by their offsets): negative where the shape reaches that far beyond
// the plane. +infinity for a plane shape (two planes are not compared).
double clearance_from_plane(const Obstacle& plane, const Obstacle& shape);

// Positions beyond this (m) are refused: far past any scene's size, and squares of them would
// lose every digit of a contact distance.
inline constexpr double kMaxCoordinate = 1e6;
// Whether x is finite and within kMaxCoordinate in every coordinate (a drag target beyond it is
// a bad value, not a pull: 1e30 m made a spring energy of 5e63 J and froze the body).
// Any matrix of positions likewise (an asset's surfaces and meshes), empty ones included.
template <class Derived>
bool within_coordinate_bound(const Eigen::MatrixBase<Derived>& x) {
  return x.allFinite() && (x.size() == 0 || x.cwiseAbs().maxCoeff() <= kMaxCoordinate);
}
// What an asset reader says of positions that are not (its section named beside it).
inline const std::string kBeyondCoordinateBound = "not finite, or a coordinate beyond 1000000 m";

// obstacles[o] moved by hand: held at `offset` from now on (its path replaced), lifted along each
// plane's normal where the shape would reach beyond it (never under the floor or through a
// wall). Throws std::invalid_argument naming the obstacle where there is no obstacle o, where it
// is a plane (not moved by hand) or where the offset is not finite or beyond kMaxCoordinate.
void hold_by_hand(std::vector<Obstacle>& obstacles, std::size_t o, const Eigen::Vector3d& offset);

// The largest alpha in [0, 1] such that x + a dx, for every a in [0, alpha], stays at least
// `keep` times its present distance, or times `reach` where that is less, from the obstacle
// (0 < keep < 1; ccd.hpp: ccd_target), the obstacle grown by `skin` (obstacle_distance):
// continuous collision detection of a point moving linearly. Closed form for planes and spheres;
// Newton's steps from below for boxes and capsules (ccd.hpp: convex_advancement).
double obstacle_time_of_impact(const Obstacle& obstacle, const Eigen::Vector3d& x,
                               const Eigen::Vector3d& dx, double keep, double reach = kNoReach,
                               double skin = 0.0);

// Throws std::invalid_argument naming the problem (non-finite values, zero normal, radius or
// half extents <= 0, a path whose times do not increase).
void check_obstacle(const Obstacle& obstacle);

}  // namespace smfem::contact
