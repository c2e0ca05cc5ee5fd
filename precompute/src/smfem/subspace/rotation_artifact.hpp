#pragma once
// The artifact of Subspace MFEM (Trusty et al. 2023), Fig. 5: how well a subspace holds a large
// rigid rotation of the rest shape. The rest positions are turned by an angle about an axis through
// the centre of mass, the turned shape is projected onto the subspace (the nearest displacement in
// the mass norm, displacement_basis.hpp), and the projected shape is measured: how far it is from
// the turned one, and how much it changed the volume of the tets, which a rotation keeps. A
// skinning subspace with a constant mode holds any rotation exactly (an affine map of the whole
// body); linear modes hold only its linearization, u = theta w x (X - c), which stretches every
// tet by det = 1 + theta^2 (the classic growth of linear modal analysis under rotation), and
// modal derivatives add second-order terms that do not make it up (Barbic and James 2005).
#include <Eigen/Core>

#include "smfem/mesh/types.hpp"

namespace smfem::subspace {

// Displacements (3|V|, unknown 3v + d) that turn the rest positions rigidly by angle (radians)
// about the unit axis through centre.
Eigen::VectorXd rigid_rotation(const Eigen::Ref<const mesh::Vertices>& positions,
                               const Eigen::Vector3d& centre, const Eigen::Vector3d& axis,
                               double angle);

// How a deformation changes the tets' volumes, from J_t = det F_t per tet (F_t - I the gradient
// of the displacement on tet t).
struct VolumeDistortion {
  double mean = 0.0;          // |J_t - 1| averaged with the rest volumes as weights
  double max = 0.0;           // max_t |J_t - 1|
  double total_change = 0.0;  // (sum_t vol_t J_t) / (sum_t vol_t) - 1: the relative change of
                              // the body's volume
};
// displacement: 3|V|.
VolumeDistortion volume_distortion(const mesh::TetMesh& mesh,
                                   const Eigen::Ref<const Eigen::VectorXd>& displacement);

struct RotationFit {
  // ||Phi q - u||_M / ||u||_M for the turned shape's displacement u and its projection Phi q
  // (0 when u = 0).
  double residual = 0.0;
  VolumeDistortion volume;  // of the projected shape
};

// The projection of rigid_rotation(...) onto the basis (3|V| x k) in the mass norm (mass: |V|).
RotationFit fit_rotation(const mesh::TetMesh& mesh, const Eigen::Ref<const Eigen::VectorXd>& mass,
                         const Eigen::Ref<const Eigen::MatrixXd>& basis,
                         const Eigen::Vector3d& centre, const Eigen::Vector3d& axis, double angle);

}  // namespace smfem::subspace
