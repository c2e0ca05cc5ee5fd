#pragma once
// The block the tests of local/ load: the procedural box (sim/fixtures) as a 1 x 0.5 x 1 m block
// of n x n/2 x n Kuhn cubes, its top face at y = 0.5, and its surface in the mesh's vertex ids.
#include <Eigen/Core>

#include "smfem/geometry/boundary_faces.hpp"
#include "smfem/sim/fixtures/box_model.hpp"

namespace smfem::local::test {

inline sim::BoxModel block(int n, int modes = 4) {
  sim::BoxModelOptions options;
  options.nx = options.nz = n;
  options.ny = n / 2;
  options.lower = Eigen::Vector3d(-0.5, 0.0, -0.5);
  options.upper = Eigen::Vector3d(0.5, 0.5, 0.5);
  options.mode_count = modes;
  options.contact_samples = 0;
  return sim::make_box_model(options);
}

// The boundary triangles (outward), their corners as the mesh's vertex ids.
inline geometry::TriangleIndices block_surface(const sim::BoxModel& box) {
  const geometry::BoundaryFaces faces = geometry::boundary_faces(box.tets, box.rest.rows());
  geometry::TriangleIndices surface(faces.triangles.rows(), 3);
  for (Eigen::Index f = 0; f < faces.triangles.rows(); ++f) {
    for (int c = 0; c < 3; ++c) surface(f, c) = faces.vertex(faces.triangles(f, c));
  }
  return surface;
}

}  // namespace smfem::local::test
