#pragma once
// A displacement basis's map from coordinates to deformation gradients, as the steps see it
// (sim/step/discretization.hpp). The basis Phi (3n x k, row 3v + d the coordinate d of vertex v)
// gives the vertex displacements u = Phi q, so on tet t (G_t = dphi/dX, fem/linear_tet.hpp)
//
//   F_t - I = sum_i q_i grad(phi_i) = sum_j (Phi_{v_j} q) G_t(j, :),   Phi_v: rows 3v..3v+2,
//
// linear in q. The steps see quadrature points, not tets: point i is tet tets[i] of the mesh
// with weight weights(i). Every tet with its volume (exact_quadrature) makes integration exact,
// so comparing bases compares the subspaces alone; a cubature (a few tets, each standing for
// a cluster's volume: the bake's, assets/FORMAT.md displacement.*) makes the cost per
// iteration independent of the mesh, as the skinning subspace's.
//
// Layout of q in the steps' rows x 3 ReducedMatrix: q is column 0 of a k x 3 matrix, and
// columns 1 and 2 stay zero. The steps treat U as a vector (sums, dot products, U + a dU) and
// read it only through this map, the inertial energy and the system (basis_dynamics.hpp,
// basis_system.hpp), which read column 0 and give zeros in the others, so the zero columns stay
// zero and every sum over U is the sum over q.
#include <vector>

#include <Eigen/Core>

#include "smfem/full/tet_mesh_deformation.hpp"
#include "smfem/sim/step/discretization.hpp"

namespace smfem::displacement {

// Tets of the mesh and the rest volume each stands for (m^3).
struct Quadrature {
  std::vector<int> tets;
  Eigen::VectorXd weights;

  int size() const { return static_cast<int>(tets.size()); }
};

// Every tet, weighted by its volume.
Quadrature exact_quadrature(const full::TetMeshDeformation& mesh);

using BasisRows = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using TetJacobian = Eigen::Matrix<double, 9, Eigen::Dynamic>;  // dvec(F_t)/dq, 9 x k

class BasisDeformation final : public sim::TetDeformation {
 public:
  // All three must outlive this; basis: 3n x k for the mesh's n vertices; quadrature: tets of
  // the mesh (the caller checks them).
  BasisDeformation(const full::TetMeshDeformation& mesh, const BasisRows& basis,
                   const Quadrature& quadrature);

  // `tet` is a quadrature point.
  Matrix3<double> displacement_gradient(int tet, const sim::ReducedMatrix& U) const override;
  // dvec(F_t)/dq (column-major vec(F), as the steps' 9 x 9 Hessians): entry (d + 3c, i) is
  // sum_j Phi(3 v_j + d, i) G_t(j, c). out: 9 x k.
  void jacobian(int tet, TetJacobian& out) const;

  int tet_count() const { return quadrature_.size(); }  // quadrature points
  int coordinate_count() const { return static_cast<int>(basis_.cols()); }
  const Eigen::VectorXd& weights() const { return quadrature_.weights; }

 private:
  const full::TetMeshDeformation& mesh_;
  const BasisRows& basis_;
  const Quadrature& quadrature_;
};

}  // namespace smfem::displacement
