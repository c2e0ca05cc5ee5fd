#pragma once
// Where a point sits in a tet mesh: the tet holding it, or the nearest tet, and its barycentric
// coordinates there. One owner for the bake's embedding of render surfaces and coarse meshes
// (precompute/src/smfem/render/tet_embedding.hpp) and the page's dent (local/render_dent.hpp).
#include <Eigen/Core>

#include "smfem/geometry/aabb_tree.hpp"

namespace smfem::geometry {

class TetLocator {
 public:
  using Vertices = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
  using Tets = Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor>;

  struct Location {
    int tet = -1;
    // In that tet, summing to 1: inside, each within [-1e-9, 1 + 1e-9]; outside, extrapolated
    // (some negative) so that sum_k b_k X_k is the point still.
    Eigen::Vector4d barycentric;
    double distance = 0.0;  // 0 inside the mesh, else the distance to that tet
  };

  // Keeps references to both, which must outlive it. Throws std::invalid_argument for no tets.
  TetLocator(const Vertices& vertices, const Tets& tets);

  // Inside the mesh, the tet holding p (on a shared face, the one where p is deepest); outside,
  // the nearest tet. Safe to call from several threads at once.
  Location locate(const Eigen::Vector3d& p) const;

 private:
  Eigen::Vector4d barycentric(int tet, const Eigen::Vector3d& p) const;
  double distance_to(int tet, const Eigen::Vector3d& p) const;

  const Vertices& vertices_;
  const Tets& tets_;
  AabbTree tree_;
};

}  // namespace smfem::geometry
