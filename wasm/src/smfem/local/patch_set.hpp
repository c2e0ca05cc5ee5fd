#pragma once
// The patches active on one body (patch_support.hpp) as the steps see them (issue 26): extra rows
// of the coordinates and extra tets after the cubature's.
//
// Coordinates: U has 4m + P rows, the global 4m (sim/model/reduced_model.hpp) and then row 4m + p
// holding patch p's coefficients c_p^T. Each patch's fields are turned by its rotation R_p, set
// from the global coordinates at the start of a step (set_rotations) and held through it, so
// that every tet's F stays affine in U as the steps require (sim/step/discretization.hpp).
//
// Tets: every mesh tet some patch reaches, once (by mesh id), each with the dent's own
// deformation gradient, in the turned frame R_e of the first patch that reaches it, so that the
// patches add the energy of the dent alone:
//
//   E = sum_c w_c psi(F_c(U_g)) + sum_e v_e psi(F_e),  F_e = I + sum_p R_e^T R_p sum_a c_p,a G_p,a
//
// (psi(R_e F_e) = psi(F_e): the dent's gradient R_p G c as the body carries it, seen from its
// frame), zero with its slope at c = 0, never negative, and linear in U as the steps need. Paper
// 001 asks no more of its fields than that the dent they carry is small enough for linear
// elasticity, relative to the global deformation (its section 4.1); to second order in c this is
// that. An energy that let the global deformation's stress act on the fields was tried twice and
// was unbounded below: taking off the cubature's share of the tets, sum v_e (psi(F(U_g, c)) -
// psi(F(U_g, 0))), and its Bregman form, which also takes off the work of the global stress P(F_0)
// : (F - F_0). The reduced cubature need not see every strain the support's tets take, and a drag
// carried the body along such a direction, the energy falling without bound: a bunny pulled 0.3 m
// on the page went to 1e30 m in 40 steps (docs/local.md). With every tet and v_e its volume the sum
// is exact; sampled (paper 001 section 5.2, by other means), it runs over a few representative
// tets: the tets of each material are clustered apart by weighted k-means (weighted_kmeans.hpp) on
// their centroids, weighed by their share of the fields' strain (v_e sum_a |G_a|^2: the fields'
// gradients grow towards the load, so the clusters shrink there), each cluster keeps the tet
// nearest its weighted centre, and that tet stands for its cluster's strain (its weight: the
// cluster's sum of v |G|^2 over its own |G|^2).
//
// Inertia (patch_support.hpp): the kinetic energy 1/2 udot^T M udot of the extended coordinates
// has M = [I_3 (x) mass_block, N; N^T, M_c]: N couples column d of U_g to c (coupling(d), 4m x 3P,
// column 3p + a for c_p,a), M_c (3P x 3P) the coefficients among themselves; gravity g pulls on c
// with (R_p weight_p)^T g.
#include <array>
#include <vector>

#include <Eigen/Core>

#include "smfem/local/patch_support.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"

namespace smfem::local {

class PatchSet {
 public:
  // samples: about this many representative tets to keep (each material at least one), or 0 for
  // every tet (also when there are no more).
  // Throws std::invalid_argument if a patch's global basis is not global_rows (4m) wide or
  // samples is negative.
  PatchSet(std::vector<PatchSupport> patches, int global_rows, int samples = 0);

  int global_rows() const { return global_rows_; }
  int patch_count() const { return static_cast<int>(patches_.size()); }
  int rows() const { return global_rows_ + patch_count(); }  // of the extended U
  const PatchSupport& patch(int p) const { return patches_[static_cast<std::size_t>(p)]; }

  // The appended tets.
  int tet_count() const { return static_cast<int>(tets_.size()); }
  int mesh_tet(int tet) const { return tets_[static_cast<std::size_t>(tet)].mesh_tet; }
  // The volume each tet stands for, m^3 (its own without sampling).
  double weight(int tet) const { return weights_(tet); }
  const Eigen::VectorXd& weights() const { return weights_; }

  // R_p = patch_rotation(patch p, U_g) for every patch.
  std::vector<Eigen::Matrix3d> rotations_at(const sim::ReducedMatrix& U) const;
  // R_p = rotations_at(U); then the coupling and the gravity.
  void set_rotations(const sim::ReducedMatrix& U);
  // The same with the rotations given, one per patch (those of an earlier set_rotations).
  void set_rotations(std::vector<Eigen::Matrix3d> rotations);
  const Eigen::Matrix3d& rotation(int p) const { return rotations_[static_cast<std::size_t>(p)]; }

  // F - I of appended tet `tet` at the extended U (see the header: only the coefficients' rows
  // count).
  Eigen::Matrix3d displacement_gradient(int tet, const sim::ReducedMatrix& U) const;
  // dF/dc_p,a of the tet for each patch p reaching it (R_e^T R_p G_p,a, fixed within a step).
  struct LocalGradient {
    int patch = 0;
    std::array<Eigen::Matrix3d, 3> G;
  };
  const std::vector<LocalGradient>& local_gradients(int tet) const {
    return tets_[static_cast<std::size_t>(tet)].local;
  }

  // sum_v m_v (R_p B_pv)^T (R_q B_qv) for rotations of patches p and q (any two, p == q too):
  // patch_support.hpp's pair_mass from the moments the set made once.
  Eigen::Matrix3d pair_mass(int p, const Eigen::Matrix3d& rotation_p, int q,
                            const Eigen::Matrix3d& rotation_q) const;

  // The inertia under the current rotations (see the header).
  const Eigen::MatrixXd& coupling(int d) const { return coupling_[static_cast<std::size_t>(d)]; }
  const Eigen::MatrixXd& local_mass() const { return local_mass_; }
  // Gravity's force on the coefficients, P x 3 (row p: c_p's), for gravity g.
  sim::ReducedMatrix gravity_force(const Eigen::Vector3d& g) const;
  // The generalized force on the coefficients (P x 3) of forces (N) on mesh vertices: sum over
  // them of (R_p B_pv)^T f_v, for each patch whose fields reach v.
  struct VertexForce {
    int vertex = 0;
    Eigen::Vector3d force = Eigen::Vector3d::Zero();
  };
  sim::ReducedMatrix load_force(const std::vector<VertexForce>& forces) const;

 private:
  struct Tet {
    int mesh_tet = 0;
    std::vector<LocalGradient> rest;   // G_p,a as baked (rest frame)
    std::vector<LocalGradient> local;  // turned by the current R_e^T R_p
  };
  std::vector<PatchSupport> patches_;
  int global_rows_ = 0;
  std::vector<Tet> tets_;
  Eigen::VectorXd weights_;
  std::vector<Eigen::Matrix3d> rotations_;
  // Per pair q <= p, at p (p + 1) / 2 + q: patch_support.hpp's pair_moments.
  std::vector<Matrix9<double>> pair_moments_;
  std::array<Eigen::MatrixXd, 3> coupling_;
  Eigen::MatrixXd local_mass_;
};

}  // namespace smfem::local
