#include "smfem/tetrahedralize/resolution.hpp"

#include <cmath>
#include <stdexcept>

#include "smfem/geometry/error.hpp"

namespace smfem::tetrahedralize {

double estimate_volume(const geometry::Sdf& sdf, int samples) {
  const Eigen::AlignedBox3d& bounds = sdf.bounds();
  if (bounds.isEmpty()) return 0.0;
  const double cell = bounds.sizes().maxCoeff() / samples;
  if (!(cell > 0.0)) return 0.0;
  const Eigen::Array3i n = (bounds.sizes().array() / cell).ceil().cast<int>().max(1);
  geometry::Points points(static_cast<Eigen::Index>(n.prod()), 3);
  Eigen::Index row = 0;
  for (int k = 0; k < n.z(); ++k) {
    for (int j = 0; j < n.y(); ++j) {
      for (int i = 0; i < n.x(); ++i) {
        points.row(row++) =
            (bounds.min() + cell * Eigen::Vector3d(i + 0.5, j + 0.5, k + 0.5)).transpose();
      }
    }
  }
  const Eigen::VectorXd values = sdf.evaluate(points);
  return static_cast<double>((values.array() < 0.0).count()) * cell * cell * cell;
}

double estimate_tet_count(double volume, double edge_length) {
  return 12.0 * volume / (edge_length * edge_length * edge_length);
}

double edge_length_for_tet_count(double volume, double tet_count) {
  return std::cbrt(12.0 * volume / tet_count);
}

mesh::TetMesh stuff_to_tet_count(const geometry::Sdf& sdf, double target, double tolerance,
                                 StuffingOptions options, StuffingReport* report) {
  if (!(std::isfinite(target) && target >= 1.0)) {
    throw std::invalid_argument("stuff_to_tet_count: the target must be at least 1 tet");
  }
  const double volume = estimate_volume(sdf);
  if (!(volume > 0.0)) throw geometry::GeometryError("the shape has no volume to fill");
  options.edge_length = edge_length_for_tet_count(volume, target);
  mesh::TetMesh mesh = stuff_isosurface(sdf, options, report);
  const double count = static_cast<double>(mesh.tets.rows());
  if (std::abs(count - target) > tolerance * target) {
    options.edge_length *= std::cbrt(count / target);
    mesh = stuff_isosurface(sdf, options, report);
  }
  return mesh;
}

}  // namespace smfem::tetrahedralize
