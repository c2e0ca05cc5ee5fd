#pragma once
// Bending of a shell whose rest shape is curved, by the dihedral angles at its edges (Grinspun et
// al. 2003, "Discrete Shells"): for each edge shared by two triangles, with corners a, b on the
// edge and c, d the triangles' third corners,
//
//   E = sum_hinges k (theta - theta_rest)^2,   theta = atan2(e^ . (n1 x n2), n1 . n2),
//   n1 = (b - a) x (c - a),   n2 = (d - a) x (b - a),   e^ = (b - a) / |b - a|,
//
// the signed angle between the two triangles' normals about the edge (0 where they are flat;
// the labels a, b, c, d fix the sign, not the mesh's winding, so any orientation works), and
// theta - theta_rest taken in (-pi, pi]. It depends on the positions only through angles, so it is
// invariant under rotation and translation and zero at rest whatever the rest shape: what the
// constant plate energy of thin/bending.hpp cannot be for curved shells.
//
// The dynamics take it with the Gauss-Newton Hessian 2 k grad(theta) grad(theta)^T per hinge
// (positive semi-definite; the exact Hessian's other term, 2 k (theta - theta_rest)
// Hess(theta), vanishes at rest and is indefinite away from it). The energy and gradient are
// exact, so the line search and the energy check see the true energy.
#include <array>
#include <vector>

#include <Eigen/Core>

#include "smfem/sim/step/cubature_kinematics.hpp"

namespace smfem::full {

struct Hinge {
  std::array<int, 4> nodes{};  // a, b (the edge), c, d (the two triangles' third corners)
  double rest_angle = 0.0;     // theta_rest, rad
  double stiffness = 0.0;      // k, N m (J per rad^2)
};

// The hinges of a shell and the rest positions of their nodes (rows beyond the hinges' nodes are
// unused; a model's node count of rows).
struct HingeSet {
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> rest;
  std::vector<Hinge> hinges;

  bool empty() const { return hinges.empty(); }
};

using HingeVector = Eigen::Matrix<double, 12, 1>;  // a, b, c, d, three coordinates each

// theta above, in (-pi, pi], and its gradient with respect to (a, b, c, d). The triangles must
// not be degenerate (the gradient divides by |n1|^2 and |n2|^2).
double dihedral_angle(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                      const Eigen::Vector3d& d);
HingeVector dihedral_angle_gradient(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                    const Eigen::Vector3d& c, const Eigen::Vector3d& d);

// E above at displacements U (n x 3) from the set's rest positions, its gradient, and the
// Gauss-Newton Hessian's quadratic form, for the dynamics (full_dynamics.hpp).
class HingeBending {
 public:
  HingeBending() = default;
  explicit HingeBending(HingeSet set);

  const std::vector<Hinge>& hinges() const { return set_.hinges; }

  double energy(const sim::ReducedMatrix& U) const;
  // Adds dE/dU to out and keeps, per hinge, sqrt(2 k) grad(theta) at U: the Gauss-Newton
  // Hessian is the sum of their outer products (factors(), curvature()).
  void add_gradient(const sim::ReducedMatrix& U, sim::ReducedMatrix& out);
  // dU^T H dU with the Hessian of the last add_gradient.
  double curvature(const sim::ReducedMatrix& dU) const;
  // Per hinge, the factor above (zero before the first add_gradient).
  const std::vector<HingeVector>& factors() const { return factors_; }

 private:
  // The angle's excess over its rest value, in (-pi, pi], and the four nodes' positions.
  double excess(const Hinge& hinge, const sim::ReducedMatrix& U,
                std::array<Eigen::Vector3d, 4>& x) const;

  HingeSet set_;
  std::vector<HingeVector> factors_;
};

}  // namespace smfem::full
