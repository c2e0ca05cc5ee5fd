#include "smfem/geometry/vertex_areas.hpp"

#include <Eigen/Geometry>

namespace smfem::geometry {

Eigen::VectorXd vertex_areas(
    const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>& positions,
    const TriangleIndices& triangles) {
  Eigen::VectorXd area = Eigen::VectorXd::Zero(positions.rows());
  for (Eigen::Index t = 0; t < triangles.rows(); ++t) {
    const Eigen::Vector3d a = positions.row(triangles(t, 0));
    const Eigen::Vector3d b = positions.row(triangles(t, 1));
    const Eigen::Vector3d c = positions.row(triangles(t, 2));
    const double third = (b - a).cross(c - a).norm() / 6.0;
    for (int k = 0; k < 3; ++k) area(triangles(t, k)) += third;
  }
  return area;
}

}  // namespace smfem::geometry
