#include "smfem/geometry/point_triangle.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>

namespace smfem::geometry {
namespace {

Eigen::Vector3d closest_point_on_segment(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                         const Eigen::Vector3d& b) {
  const Eigen::Vector3d ab = b - a;
  const double length_squared = ab.squaredNorm();
  if (length_squared == 0.0) return a;
  return a + std::clamp((p - a).dot(ab) / length_squared, 0.0, 1.0) * ab;
}

}  // namespace

Eigen::Vector3d closest_point_on_triangle(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                          const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  const Eigen::Vector3d ab = b - a, ac = c - a;
  const double twice_area_squared = ab.cross(ac).squaredNorm();
  const double scale = std::max(ab.squaredNorm(), ac.squaredNorm());
  if (twice_area_squared <= 1e-24 * scale * scale) {
    // Degenerate: the nearest point lies on one of the edges.
    const Eigen::Vector3d candidates[3] = {closest_point_on_segment(p, a, b),
                                           closest_point_on_segment(p, b, c),
                                           closest_point_on_segment(p, c, a)};
    const Eigen::Vector3d* best = &candidates[0];
    for (const auto& q : candidates) {
      if ((q - p).squaredNorm() < (*best - p).squaredNorm()) best = &q;
    }
    return *best;
  }
  // Voronoi regions of the corners, then of the edges, else the interior.
  const Eigen::Vector3d ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const Eigen::Vector3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const Eigen::Vector3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + (d1 / (d1 - d3)) * ab;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + (d2 / (d2 - d6)) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  }
  const double denominator = 1.0 / (va + vb + vc);
  return a + ab * (vb * denominator) + ac * (vc * denominator);
}

double triangle_solid_angle(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                            const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  const Eigen::Vector3d x = a - p, y = b - p, z = c - p;
  const double lx = x.norm(), ly = y.norm(), lz = z.norm();
  const double numerator = x.dot(y.cross(z));
  // In the plane the one-sided limits are +-2 pi inside the triangle; 0 is their mean.
  if (numerator == 0.0) return 0.0;
  const double denominator = lx * ly * lz + x.dot(y) * lz + y.dot(z) * lx + z.dot(x) * ly;
  return 2.0 * std::atan2(numerator, denominator);
}

}  // namespace smfem::geometry
