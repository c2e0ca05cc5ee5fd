#pragma once
// Which contact loads are worth a patch (issue 26). A patch costs about as much as its 16 sampled
// tets beside the cubature's and three more rows of the bordered system, and stays while its
// vertex is loaded: the crab resting on its 1e10 Pa legs carried 23 patches for good, +300 % a
// step, and they dented nothing one could see (docs/local.md). So a load region (loaded surface
// vertices connected over the surface's triangles) gets patches only where its dent can reach the
// contact's own resolution d-hat: the centre displacement of its total force spread evenly over
// its area on a half-space,
//
//   delta = 2 F / (pi a E*),   a = sqrt(A / pi),   E* = E / (1 - nu^2)
//
// (Johnson, Contact Mechanics, section 3.4: uniform pressure on a circle), E* the region's
// area-weighted mean of its vertices' softest tets'. A region that holds a vertex of the current
// patches keeps its patches (and grows them), so patches do not come and go as a force hovers
// about the threshold.
#include <span>
#include <vector>

#include <Eigen/Core>

#include "smfem/full/full_model.hpp"
#include "smfem/geometry/boundary_faces.hpp"

namespace smfem::local {

struct ContactLoad {
  int vertex = 0;      // the mesh vertex of the loaded sample
  double force = 0.0;  // N, the barrier's push on the sample
  double area = 0.0;   // m^2, the sample's
};

// Each mesh vertex's neighbours over the surface's triangles, built once per mesh: a step's
// estimate then walks only the loaded vertices' edges (walking every surface triangle took the
// resting crab's 60,000-tet mesh 0.35 ms a step, a quarter of a step with no patch).
class SurfaceNeighbours {
 public:
  SurfaceNeighbours() = default;  // no surface
  // surface: boundary triangles in mesh vertex ids below vertex_count.
  SurfaceNeighbours(const geometry::TriangleIndices& surface, int vertex_count);
  std::span<const int> of(int vertex) const;

 private:
  std::vector<int> first_;  // vertex v's neighbours: neighbours_[first_[v], first_[v + 1])
  std::vector<int> neighbours_;
};

// E / (1 - nu^2) at each mesh vertex, of the softest tet it is a corner of (0 for none).
Eigen::VectorXd vertex_plane_strain_modulus(const full::FullModel& mesh);
// The largest E / (1 - nu^2) of the tets with a corner within `radius` of `centre` (0 for none).
double stiffest_plane_strain_modulus(const full::FullModel& mesh, const Eigen::Vector3d& centre,
                                     double radius);

// The vertices of the load regions of `loads` whose dent estimate reaches `resolution` (m), or
// that hold a vertex of `patched` (ascending); ascending, each once. A vertex loaded twice (by two
// obstacles) counts its forces together. surface: the mesh's surface edges.
std::vector<int> denting_loads(const std::vector<ContactLoad>& loads,
                               const SurfaceNeighbours& surface, const Eigen::VectorXd& modulus,
                               double resolution, const std::vector<int>& patched);

}  // namespace smfem::local
