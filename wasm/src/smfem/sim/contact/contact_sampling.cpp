#include "smfem/sim/contact/contact_sampling.hpp"

#include <limits>
#include <stdexcept>
#include <vector>

#include <Eigen/Geometry>

#include "smfem/geometry/vertex_areas.hpp"

namespace smfem::contact {

ContactSurface sample_contact_surface(const SurfacePositions& vertices,
                                      const Eigen::MatrixXd& weights,
                                      const geometry::TetIndices& tets, int max_samples) {
  if (max_samples < 1) throw std::invalid_argument("contact samples: need at least 1");
  const geometry::BoundaryFaces boundary = geometry::boundary_faces(tets, vertices.rows());
  const Eigen::Index ns = boundary.vertex.size();
  if (ns == 0) throw std::invalid_argument("contact samples: the mesh has no boundary");

  ContactSurface surface;
  surface.positions.resize(ns, 3);
  surface.weights.resize(ns, weights.cols());
  for (Eigen::Index v = 0; v < ns; ++v) {
    surface.positions.row(v) = vertices.row(boundary.vertex(v));
    surface.weights.row(v) = weights.row(boundary.vertex(v));
  }
  surface.triangles = boundary.triangles;

  const Eigen::VectorXd vertex_area = geometry::vertex_areas(surface.positions, surface.triangles);

  // Farthest-point sampling; nearest[v] is the sample closest to vertex v so far.
  const Eigen::Index count = std::min<Eigen::Index>(max_samples, ns);
  std::vector<int> chosen;
  std::vector<int> nearest(static_cast<std::size_t>(ns), 0);
  Eigen::VectorXd distance = Eigen::VectorXd::Constant(ns, std::numeric_limits<double>::infinity());
  Eigen::Index next = 0;
  surface.positions.col(1).minCoeff(&next);
  while (static_cast<Eigen::Index>(chosen.size()) < count) {
    const int sample = static_cast<int>(next);
    const int index = static_cast<int>(chosen.size());
    chosen.push_back(sample);
    for (Eigen::Index v = 0; v < ns; ++v) {
      const double d = (surface.positions.row(v) - surface.positions.row(sample)).squaredNorm();
      if (d < distance(v)) {
        distance(v) = d;
        nearest[static_cast<std::size_t>(v)] = index;
      }
    }
    distance.maxCoeff(&next);
  }
  surface.samples = Eigen::Map<const Eigen::VectorXi>(chosen.data(), count);
  surface.areas = Eigen::VectorXd::Zero(count);
  for (Eigen::Index v = 0; v < ns; ++v)
    surface.areas(nearest[static_cast<std::size_t>(v)]) += vertex_area(v);
  return surface;
}

}  // namespace smfem::contact
