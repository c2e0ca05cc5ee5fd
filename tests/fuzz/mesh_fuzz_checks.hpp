#pragma once
// What every mesh a reader returns must satisfy, checked on each fuzz input that parses: the
// readers promise checked meshes, so a violation is a bug even without a crash.
#include <cstdlib>

#include <Eigen/Geometry>

#include "smfem/mesh/types.hpp"

namespace smfem::fuzz {

template <class Elements>
void check_elements(const mesh::Vertices& vertices, const Elements& elements,
                    const Eigen::VectorXi& regions) {
  if (regions.size() != elements.rows() || elements.rows() == 0) std::abort();
  if (!vertices.allFinite()) std::abort();
  for (Eigen::Index e = 0; e < elements.rows(); ++e) {
    for (Eigen::Index c = 0; c < elements.cols(); ++c) {
      if (elements(e, c) < 0 || elements(e, c) >= vertices.rows()) std::abort();
      for (Eigen::Index d = 0; d < c; ++d) {
        if (elements(e, d) == elements(e, c)) std::abort();
      }
    }
  }
}

inline void check_mesh(const mesh::TetMesh& tets) {
  check_elements(tets.vertices, tets.tets, tets.regions);
  for (Eigen::Index t = 0; t < tets.tets.rows(); ++t) {
    const Eigen::RowVector3d x0 = tets.vertices.row(tets.tets(t, 0));
    const Eigen::RowVector3d e1 = tets.vertices.row(tets.tets(t, 1)) - x0;
    const Eigen::RowVector3d e2 = tets.vertices.row(tets.tets(t, 2)) - x0;
    const Eigen::RowVector3d e3 = tets.vertices.row(tets.tets(t, 3)) - x0;
    if (!(e1.cross(e2).dot(e3) > 0)) std::abort();
  }
}

inline void check_mesh(const mesh::SurfaceMesh& surface) {
  check_elements(surface.vertices, surface.triangles, surface.regions);
}

}  // namespace smfem::fuzz
