#include "smfem/tetrahedralize/regions.hpp"

namespace smfem::tetrahedralize {

geometry::Points tet_centroids(const mesh::TetMesh& mesh) {
  geometry::Points centroids(mesh.tets.rows(), 3);
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    centroids.row(t) =
        0.25 * (mesh.vertices.row(mesh.tets(t, 0)) + mesh.vertices.row(mesh.tets(t, 1)) +
                mesh.vertices.row(mesh.tets(t, 2)) + mesh.vertices.row(mesh.tets(t, 3)));
  }
  return centroids;
}

void assign_regions(mesh::TetMesh& mesh,
                    const std::function<int(const Eigen::Vector3d& centroid)>& region_of) {
  const geometry::Points centroids = tet_centroids(mesh);
  mesh.regions.resize(mesh.tets.rows());
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    mesh.regions[t] = region_of(centroids.row(t).transpose());
  }
}

}  // namespace smfem::tetrahedralize
