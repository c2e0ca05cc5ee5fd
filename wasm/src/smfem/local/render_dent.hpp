#pragma once
// The dent drawn on a body's render surface (issue 26, "Rendering"): each render vertex moved by
// the attached patches, sum_p R_p B_p(x) c_p, with B_p (patch_support.hpp) interpolated from the
// tet mesh's vertices by the barycentric coordinates of the render vertex's rest position in the
// tet nearest it (geometry::TetLocator: the one holding it, or for a render surface just outside
// the tet mesh, a rounded box's, the nearest, its coordinates clamped). The page adds it to the
// skinned position in the vertex shader, and its gradient to the skinning's deformation gradient
// for the normals (web/src/render/skinning.js), so the dent is shaded: within the tet the blend is
// linear, its gradient G = sum_c dent_c (grad beta_c)^T.
#include <vector>

#include <Eigen/Core>

#include "smfem/full/full_model.hpp"
#include "smfem/local/patch_set.hpp"
#include "smfem/sim/model/reduced_model.hpp"

namespace smfem::local {

class RenderDent {
 public:
  // render_rest: the render vertices' rest positions (nv x 3), in the mesh's frame.
  RenderDent(const full::FullModel& mesh, const Eigen::MatrixXd& render_rest);

  // Per render vertex in displacements()' output: the dent (x y z), then G's rows.
  static constexpr int kFloatsPerVertex = 12;

  int vertex_count() const { return static_cast<int>(corners_.rows()); }
  // out (kFloatsPerVertex nv): the dent of `patches` under their rotations with coefficients C
  // (row p: patch p's) and its gradient with respect to the rest position.
  void displacements(const PatchSet& patches, const sim::ReducedMatrix& C,
                     std::vector<float>& out) const;

 private:
  Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor> corners_;         // per render vertex
  Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor> barycentric_;  // nonnegative, sum 1
  // grad beta_c of corner c in columns 3c to 3c + 2 (constant over the tet).
  Eigen::Matrix<double, Eigen::Dynamic, 12, Eigen::RowMajor> gradients_;
  int mesh_vertices_ = 0;
};

}  // namespace smfem::local
