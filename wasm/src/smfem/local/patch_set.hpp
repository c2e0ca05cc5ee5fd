#pragma once
// The patches active on one body (patch_support.hpp) as the steps see them (issue 26): extra rows
// of the coordinates and extra tets after the cubature's.
//
// Coordinates: U has 4m + P rows, the global 4m (sim/model/reduced_model.hpp) and then row 4m + p
// holding patch p's coefficients c_p^T. Each patch's fields are turned by its rotation R_p, set
// from the global coordinates at the start of a step (set_rotations) and held through it, so
// that every tet's F stays affine in U as the steps require (sim/step/discretization.hpp).
//
// Tets: every mesh tet some patch reaches, once (by mesh id), with F - I = U_g^T Y +
// sum_p R_p sum_a c_p,a G_p,a over the patches that reach it. Their elastic energy is added, and
// what the global cubature already counts of them is taken off:
//
//   E = sum_c w_c psi(F_c(U_g)) + sum_e v_e (psi(F_e(U_g, c)) - psi(F_e(U_g, 0)))
//
// (the last sum is local_correction.hpp's), so that the energy does not change while c = 0. With
// every tet and v_e its volume that sum is exact, as issue 26 asks; sampled (paper 001 section
// 5.2, by other means), it runs over a few representative tets: the tets of each material are
// clustered apart by weighted k-means (weighted_kmeans.hpp) on their centroids, weighed by their
// share of the fields' strain (v_e sum_a |G_a|^2: the fields' gradients grow towards the load, so
// the clusters shrink there), each cluster keeps the tet nearest its weighted centre, and that tet
// stands for its cluster's strain (its weight: the cluster's sum of v |G|^2 over its own |G|^2).
// The sampled energy is still one function of U, consistent for the line search, and still zero
// while c = 0.
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
  // Y of every tet stacked as the cubature's (cubature_kinematics.hpp): rows 3t + j hold Y(:, j)^T.
  const sim::CubatureRows& global_gradients() const { return Y_; }

  // R_p = patch_rotation(patch p, U_g) for every patch; then the coupling and the gravity.
  void set_rotations(const sim::ReducedMatrix& U);
  // The same with the rotations given, one per patch (those of an earlier set_rotations).
  void set_rotations(std::vector<Eigen::Matrix3d> rotations);
  const Eigen::Matrix3d& rotation(int p) const { return rotations_[static_cast<std::size_t>(p)]; }

  // F - I of appended tet `tet` at the extended U; only the global part (c = 0) with global_only.
  Eigen::Matrix3d displacement_gradient(int tet, const sim::ReducedMatrix& U,
                                        bool global_only = false) const;
  // dF/dc_p,a of the tet for each patch p reaching it (the rotated G_p,a, fixed within a step).
  struct LocalGradient {
    int patch = 0;
    std::array<Eigen::Matrix3d, 3> G;
  };
  const std::vector<LocalGradient>& local_gradients(int tet) const {
    return tets_[static_cast<std::size_t>(tet)].local;
  }

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
    std::vector<LocalGradient> local;  // turned by the current R_p
  };
  std::vector<PatchSupport> patches_;
  int global_rows_ = 0;
  std::vector<Tet> tets_;
  Eigen::VectorXd weights_;
  sim::CubatureRows Y_;
  std::vector<Eigen::Matrix3d> rotations_;
  // Per pair q < p, at p (p - 1) / 2 + q: patch_support.hpp's pair_moments.
  std::vector<Matrix9<double>> pair_moments_;
  std::array<Eigen::MatrixXd, 3> coupling_;
  Eigen::MatrixXd local_mass_;
};

}  // namespace smfem::local
