#pragma once
// What the stepper needs of one patch's fields on a body's mesh (paper 001 sections 4-5; issue
// 26): the fields at the vertices they reach with those vertices' masses and global bases, and the
// tets they reach with each tet's global and local gradient bases.
//
// Coordinates. The body's global coordinates U (4m x 3, sim/model/reduced_model.hpp) and per
// patch three coefficients c, one per field, the fields turned by the patch's rotation R (the
// body's local rotation there, patch_rotation below, held fixed within a step). A vertex of the
// support moves to
//
//   x_v = X_v + U^T b_v + R B_v c                 (B_v: the fields at v, local_basis.hpp)
//
// and a tet the fields reach has the deformation gradient
//
//   F = I + U^T Y + R sum_a c_a G_a,   Y = sum_k b_k grad phi_k^T,  G_a = sum_k B_k e_a grad
//   phi_k^T
//
// over its corners k (fem/linear_tet.hpp; B_k = 0 at corners outside the support).
//
// Inertia. With the lumped masses m_v, the kinetic energy of the support's share of the body
// gains, beyond the global modes' own 1/2 Udot^T (I_3 (x) mass_block) Udot,
//
//   sum_d Udot_d^T N_d cdot + 1/2 cdot^T M cdot,  N_d = sum_e R(d, e) moment[e],  M = mass
//
// (moment[e] = sum_v m_v b_v B_v(e, :), 4m x 3; mass = sum_v m_v B_v^T B_v, which R leaves alone),
// and gravity g does the work c . (R weight)^T g on the coefficients (weight = sum_v m_v B_v).
// Two patches whose supports overlap couple their coefficients: pair_mass below.
#include <array>
#include <vector>

#include <Eigen/Core>

#include "smfem/full/full_model.hpp"
#include "smfem/local/local_basis.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"

namespace smfem::local {

struct SupportTet {
  int tet = 0;                                         // in the mesh
  double volume = 0.0;                                 // rest, m^3
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();  // rest, m
  double youngs = 0.0;                                 // its material (the mesh's), Pa
  double poisson = 0.0;
  Eigen::Matrix<double, Eigen::Dynamic, 3> Y;  // 4m x 3
  std::array<Eigen::Matrix3d, 3> G;            // dF / dc_a in the rest frame
};

struct PatchSupport {
  LoadPatch patch;
  HalfSpaceMaterial material;           // the fields' (the patch's tets' mean)
  std::vector<int> vertices;            // those the fields reach, ascending
  std::vector<Eigen::Matrix3d> fields;  // B_v per vertex (m per unit coefficient)
  Eigen::VectorXd mass;                 // m_v per vertex, kg
  // Row k: b_v^T of vertices[k] (4m), each row contiguous (detail/reduced_dot.hpp reads it).
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> basis;
  std::vector<SupportTet> tets;  // every tet with a corner in `vertices`, by id
  // The volume-weighted mean of Y over the tets with a patch vertex (4m x 3): the mean global
  // deformation gradient there is I + U^T frame_Y (patch_rotation).
  Eigen::Matrix<double, Eigen::Dynamic, 3> frame_Y;
  std::array<Eigen::MatrixXd, 3> moment;                  // 4m x 3 each, see above
  Eigen::Matrix3d mass_matrix = Eigen::Matrix3d::Zero();  // M
  Eigen::Matrix3d weight = Eigen::Matrix3d::Zero();       // sum_v m_v B_v, kg m
};

// Calls visit(i, j) for each vertex both supports reach, vertices[i] of p and vertices[j] of q,
// in ascending order (both lists are ascending: walked together).
template <class Visit>
void for_each_shared_vertex(const PatchSupport& p, const PatchSupport& q, Visit&& visit) {
  std::size_t i = 0, j = 0;
  while (i < p.vertices.size() && j < q.vertices.size()) {
    if (p.vertices[i] < q.vertices[j]) {
      ++i;
    } else if (q.vertices[j] < p.vertices[i]) {
      ++j;
    } else {
      visit(static_cast<Eigen::Index>(i++), static_cast<Eigen::Index>(j++));
    }
  }
}

// The patch's fields (local_basis.hpp: patch_columns) within `support` (m) of its centre, zero at
// the mesh's pinned vertices, at Poisson's ratio the volume-weighted mean of the tets around its
// vertices (the shear modulus cancels in the fields' scaling), on `mesh` (which must carry its
// skinning weights) with the lumped vertex masses `vertex_mass` (full::lumped_vertex_mass). Throws
// std::invalid_argument naming the problem: a mesh without weights, masses not one per vertex, a
// support that does not cover the patch's vertices, fields that vanish (pinned) at every vertex
// they reach, and what patch_columns refuses.
PatchSupport patch_support(const full::FullModel& mesh, const Eigen::VectorXd& vertex_mass,
                           const LoadPatch& patch, double support);

// B_v of a mesh vertex: its fields if the patch reaches it, zero otherwise.
Eigen::Matrix3d field_at_vertex(const PatchSupport& support, int vertex);

// The rotation of the polar decomposition of the volume-weighted mean of the global deformation
// gradients I + U^T Y over the tets with a patch vertex, I + U^T frame_Y: the body's local
// rotation at the patch, as issue 26 takes it (paper 001's one-ring Procrustes fit degenerates to
// the identity as printed).
// U: the global coordinates (4m x 3; the first 4m rows of an extended U).
Eigen::Matrix3d patch_rotation(const PatchSupport& support,
                               const Eigen::Ref<const sim::ReducedMatrix>& U);

// The inertia that couples column d of the global coordinates to the patch's, N_d of the header,
// written into `out` (4m x 3).
void mass_coupling(const PatchSupport& support, const Eigen::Matrix3d& rotation, int d,
                   Eigen::Ref<Eigen::MatrixXd> out);

// sum_v m_v (R_p B_pv)^T (R_q B_qv) over the vertices both reach (3 x 3): the kinetic energy
// gains cdot_p^T this cdot_q (once per unordered pair).
Eigen::Matrix3d pair_mass(const PatchSupport& p, const Eigen::Matrix3d& rotation_p,
                          const PatchSupport& q, const Eigen::Matrix3d& rotation_q);
// The same as a linear map of the relative rotation R = R_p^T R_q: sum_v m_v B_pv^T R B_qv has
// entry (i, j) sum_ab R(a, b) sum_v m_v B_pv(a, i) B_qv(b, j), so the moments T(i + 3j, a + 3b) =
// sum_v m_v B_pv(a, i) B_qv(b, j) give vec(pair) = T vec(R). A patch set makes them once, and each
// step's new rotations then cost a 9 x 9 product per pair instead of a pass over the vertices
// both reach (45 patches pressed into a block: 10 % of the run).
Matrix9<double> pair_moments(const PatchSupport& p, const PatchSupport& q);
Eigen::Matrix3d pair_mass(const Matrix9<double>& moments, const Eigen::Matrix3d& rotation_p,
                          const Eigen::Matrix3d& rotation_q);

}  // namespace smfem::local
