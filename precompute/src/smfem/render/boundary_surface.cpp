#include "smfem/render/boundary_surface.hpp"

#include "smfem/geometry/boundary_faces.hpp"

namespace smfem::render {

BoundarySurface boundary_surface(const mesh::TetMesh& mesh) {
  geometry::BoundaryFaces faces = geometry::boundary_faces(mesh.tets, mesh.vertices.rows());
  BoundarySurface surface;
  surface.vertices.resize(faces.vertex.size(), 3);
  for (Eigen::Index v = 0; v < faces.vertex.size(); ++v) {
    surface.vertices.row(v) = mesh.vertices.row(faces.vertex(v));
  }
  surface.tet_vertex = std::move(faces.vertex);
  surface.triangles = std::move(faces.triangles);
  surface.face_tet = std::move(faces.face_tet);
  return surface;
}

}  // namespace smfem::render
