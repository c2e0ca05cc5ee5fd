#include "smfem/render/tet_embedding.hpp"

#include <stdexcept>

#include "smfem/geometry/detail/parallel_for.hpp"
#include "smfem/geometry/tet_locator.hpp"

namespace smfem::render {

TetEmbedding embed_points(const mesh::TetMesh& mesh, Eigen::Ref<const geometry::Points> points) {
  if (mesh.tets.rows() == 0) throw std::invalid_argument("embed_points: the mesh has no tets");
  const geometry::TetLocator locator(mesh.vertices, mesh.tets);
  TetEmbedding embedding;
  const Eigen::Index count = points.rows();
  embedding.tet.resize(count);
  embedding.barycentric.resize(count, 4);
  embedding.distance.resize(count);
  geometry::detail::parallel_for(
      static_cast<std::size_t>(count), 256, [&](std::size_t begin, std::size_t end) {
        for (auto i = static_cast<Eigen::Index>(begin); i < static_cast<Eigen::Index>(end); ++i) {
          const geometry::TetLocator::Location where = locator.locate(points.row(i).transpose());
          embedding.tet[i] = where.tet;
          embedding.barycentric.row(i) = where.barycentric.transpose();
          embedding.distance[i] = where.distance;
        }
      });
  return embedding;
}

}  // namespace smfem::render
