#include "smfem/mesh/unused_vertices.hpp"

namespace smfem::mesh {

std::vector<int> drop_unused_vertices(TetMesh& mesh) {
  const Eigen::Index n = mesh.vertices.rows();
  std::vector<int> new_index(static_cast<std::size_t>(n), -1);
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    for (int k = 0; k < 4; ++k) new_index[static_cast<std::size_t>(mesh.tets(t, k))] = 0;
  }
  int kept = 0;
  for (auto& index : new_index) {
    if (index == 0) index = kept++;
  }
  if (kept == n) return new_index;
  Vertices vertices(kept, 3);
  for (Eigen::Index v = 0; v < n; ++v) {
    if (new_index[static_cast<std::size_t>(v)] >= 0) {
      vertices.row(new_index[static_cast<std::size_t>(v)]) = mesh.vertices.row(v);
    }
  }
  mesh.vertices = std::move(vertices);
  for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t) {
    for (int k = 0; k < 4; ++k)
      mesh.tets(t, k) = new_index[static_cast<std::size_t>(mesh.tets(t, k))];
  }
  return new_index;
}

}  // namespace smfem::mesh
