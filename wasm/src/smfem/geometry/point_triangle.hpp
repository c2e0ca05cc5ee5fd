#pragma once
// Closest point on a triangle, and the solid angle a triangle subtends: the two per-triangle
// kernels of the triangle-mesh SDF.
#include <Eigen/Core>

namespace smfem::geometry {

// The point of triangle (a, b, c) nearest to p. Degenerate triangles (collinear or repeated
// corners) are handled as their longest edge.
Eigen::Vector3d closest_point_on_triangle(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                          const Eigen::Vector3d& b, const Eigen::Vector3d& c);

// Signed solid angle of triangle (a, b, c) seen from p, in steradians, in (-2 pi, 2 pi).
// Positive when p lies behind the triangle, i.e. on the side opposite to its normal
// (b - a) x (c - a); so an outward, counter-clockwise closed surface gives 4 pi inside.
// Zero when p is in the triangle's plane. (Van Oosterom and Strackee's formula.)
double triangle_solid_angle(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                            const Eigen::Vector3d& b, const Eigen::Vector3d& c);

}  // namespace smfem::geometry
