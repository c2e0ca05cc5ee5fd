#include "smfem/bake/collision_surface.hpp"

#include <meshoptimizer.h>

#include <stdexcept>
#include <vector>

namespace smfem::bake {

CoarseningReport coarsen_collision_surface(contact::ContactSurface& surface, int target_triangles) {
  if (target_triangles < 4) {
    throw std::invalid_argument("the collision surface needs at least 4 triangles, asked for " +
                                std::to_string(target_triangles));
  }
  CoarseningReport report;
  report.triangles_before = static_cast<int>(surface.triangles.rows());
  report.triangles_after = report.triangles_before;
  if (report.triangles_before <= target_triangles) return report;

  const Eigen::Index vertex_count = surface.positions.rows();
  const Eigen::Matrix<float, Eigen::Dynamic, 3, Eigen::RowMajor> positions =
      surface.positions.cast<float>();
  const std::vector<unsigned> indices(surface.triangles.data(),
                                      surface.triangles.data() + surface.triangles.size());
  std::vector<unsigned> coarse(indices.size());
  float relative_error = 0.0F;
  const std::size_t kept = meshopt_simplify(
      coarse.data(), indices.data(), indices.size(), positions.data(),
      static_cast<std::size_t>(vertex_count), 3 * sizeof(float),
      3 * static_cast<std::size_t>(target_triangles), kCollisionSurfaceError, 0, &relative_error);
  report.error = relative_error * meshopt_simplifyScale(positions.data(),
                                                        static_cast<std::size_t>(vertex_count),
                                                        3 * sizeof(float));

  // Keep the samples and the coarse triangles' corners, in their old order.
  std::vector<int> new_index(static_cast<std::size_t>(vertex_count), -1);
  for (int v : surface.samples) new_index[static_cast<std::size_t>(v)] = 0;
  for (std::size_t i = 0; i < kept; ++i) new_index[coarse[i]] = 0;
  int next = 0;
  for (int& index : new_index) index = index < 0 ? -1 : next++;

  contact::ContactSurface result;
  result.positions.resize(next, 3);
  result.weights.resize(next, surface.weights.cols());
  for (Eigen::Index v = 0; v < vertex_count; ++v) {
    const int to = new_index[static_cast<std::size_t>(v)];
    if (to < 0) continue;
    result.positions.row(to) = surface.positions.row(v);
    result.weights.row(to) = surface.weights.row(v);
  }
  result.triangles.resize(static_cast<Eigen::Index>(kept / 3), 3);
  for (std::size_t i = 0; i < kept; ++i) {
    result.triangles(static_cast<Eigen::Index>(i / 3), static_cast<Eigen::Index>(i % 3)) =
        new_index[coarse[i]];
  }
  result.samples =
      surface.samples.unaryExpr([&](int v) { return new_index[static_cast<std::size_t>(v)]; });
  result.areas = surface.areas;
  surface = std::move(result);
  report.triangles_after = static_cast<int>(surface.triangles.rows());
  return report;
}

}  // namespace smfem::bake
