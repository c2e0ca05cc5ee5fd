#pragma once
// Reading an Sdf back as the primitives it was built from, when it is a plain union of them:
// what a render surface needs to draw the exact shapes (flat faces, sharp edges) instead of
// the stuffed tets' boundary (render/primitive_surface.hpp).
#include <optional>
#include <variant>
#include <vector>

#include <Eigen/Core>

#include "smfem/geometry/sdf.hpp"

namespace smfem::geometry {

// Each in its own frame (before the primitive's `to_world`); the arguments of box(),
// cylinder(), capsule() and ellipsoid().
struct BoxShape {
  Eigen::Vector3d center;
  Eigen::Vector3d half_extents;
  double rounding = 0.0;  // radius of the rounded edges and corners; 0: a sharp box
};
struct CylinderShape {
  Eigen::Vector3d from, to;
  double radius;
};
struct CapsuleShape {  // a sphere when from == to
  Eigen::Vector3d from, to;
  double radius;
};
struct EllipsoidShape {
  Eigen::Vector3d center;
  Eigen::Vector3d radii;
};

struct Primitive {
  std::variant<BoxShape, CylinderShape, CapsuleShape, EllipsoidShape> shape;
  Similarity to_world;  // world = scale * rotation * local + translation
};

// The primitives of `sdf` in the order it unites them, when it is a union (min) of boxes
// (sharp or rounded), cylinders, capsules and ellipsoids, each under any nesting of transforms.
// std::nullopt for anything else: an intersection, a difference, a smooth union (its blend
// leaves the primitives' surfaces) or a mesh.
std::optional<std::vector<Primitive>> union_primitives(const Sdf& sdf);

// The primitive alone, in world coordinates (the same function the union's term evaluates).
Sdf primitive_sdf(const Primitive& primitive);

}  // namespace smfem::geometry
