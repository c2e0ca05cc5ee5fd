#include "smfem/local/basis_change.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Cholesky>

namespace smfem::local {

namespace {

// A patch of the old basis: its support and the rotation its fields were turned by.
struct OldPatch {
  const PatchSupport* support = nullptr;
  Eigen::Matrix3d rotation;
};

// The new basis's mass matrix [I_3 (x) mass_block, N'; N'^T, M'_c], solved by blocks: mass_block
// factored once, the coefficients through the Schur complement M'_c - sum_d N'_d^T mass_block^-1
// N'_d (3P x 3P). A dense factorization of the whole (12m + 3P) matrix, twice a step, cost the
// crab with a patch 7 % of its step in wasm (median 6.1-6.4 -> 5.3-5.4 ms, 2026-11-30).
class NewBasisMass {
 public:
  NewBasisMass(const PatchSet& to, const Eigen::MatrixXd& mass_block)
      : to_(to), global_(mass_block) {
    Eigen::MatrixXd schur = to.local_mass();
    for (int d = 0; d < 3; ++d) {
      solved_coupling_[static_cast<std::size_t>(d)] = global_.solve(to.coupling(d));
      schur.noalias() -= to.coupling(d).transpose() * solved_coupling_[static_cast<std::size_t>(d)];
    }
    schur_.compute(schur);
  }

  // [u_d; c] for the right-hand sides r_d (4m each, by column) and r_c (3P).
  void solve(const Eigen::MatrixXd& r_global, const Eigen::VectorXd& r_local, Eigen::MatrixXd& u,
             Eigen::VectorXd& c) const {
    const Eigen::MatrixXd y = global_.solve(r_global);  // mass_block^-1 r_d
    Eigen::VectorXd reduced = r_local;
    for (int d = 0; d < 3; ++d) reduced.noalias() -= to_.coupling(d).transpose() * y.col(d);
    c = schur_.solve(reduced);
    u = y;
    for (int d = 0; d < 3; ++d) {
      u.col(d).noalias() -= solved_coupling_[static_cast<std::size_t>(d)] * c;
    }
  }

 private:
  const PatchSet& to_;
  Eigen::LLT<Eigen::MatrixXd> global_;
  std::array<Eigen::MatrixXd, 3> solved_coupling_;  // mass_block^-1 N'_d
  Eigen::LLT<Eigen::MatrixXd> schur_;
};

// Throws unless mass_block is the global modes' (n x n) of `to`: before NewBasisMass factors it.
void check_mass_block(const PatchSet& to, const Eigen::MatrixXd& mass_block) {
  const int n = to.global_rows();
  if (mass_block.rows() != n || mass_block.cols() != n) {
    throw std::invalid_argument("the mass block is " + std::to_string(mass_block.rows()) + " x " +
                                std::to_string(mass_block.cols()) + ", not the global modes' " +
                                std::to_string(n) + " x " + std::to_string(n));
  }
}

// The projection of the header of U, from the old basis (the global modes and `from`, whose
// coefficients are U's rows n, n + 1, ...) onto the global modes and `to` under its rotations,
// whose mass matrix is `mass`. cross_mass(p, q): sum_v m_v (R_p B_pv)^T (R_q B_qv) for new patch
// p and old patch q.
template <class CrossMass>
sim::ReducedMatrix project(const std::vector<OldPatch>& from, const sim::ReducedMatrix& U,
                           const PatchSet& to, const Eigen::MatrixXd& mass_block,
                           const NewBasisMass& mass, CrossMass&& cross_mass) {
  const int n = to.global_rows();
  const auto Q = static_cast<int>(from.size());
  if (U.rows() != n + Q) {
    throw std::invalid_argument("project_coordinates: the sizes of the two bases do not agree");
  }
  const int P = to.patch_count();
  // The old displacement's products with the new basis.
  Eigen::MatrixXd r_global = mass_block * U.topRows(n);
  Eigen::MatrixXd from_coupling(n, 3);
  Eigen::VectorXd r_local = Eigen::VectorXd::Zero(3 * P);
  for (int d = 0; d < 3; ++d) {
    for (int q = 0; q < Q; ++q) {
      const OldPatch& old = from[static_cast<std::size_t>(q)];
      mass_coupling(*old.support, old.rotation, d, from_coupling);
      r_global.col(d) += from_coupling * U.row(n + q).transpose();
    }
    r_local += to.coupling(d).transpose() * U.col(d).head(n);
  }
  for (int p = 0; p < P; ++p) {
    for (int q = 0; q < Q; ++q) {
      r_local.segment<3>(3 * p) += cross_mass(p, q) * U.row(n + q).transpose();
    }
  }
  Eigen::MatrixXd u;
  Eigen::VectorXd c;
  mass.solve(r_global, r_local, u, c);
  sim::ReducedMatrix result(n + P, 3);
  result.topRows(n) = u;
  for (int p = 0; p < P; ++p) result.row(n + p) = c.segment<3>(3 * p).transpose();
  return result;
}

}  // namespace

sim::ReducedMatrix project_coordinates(const PatchSet& from, const sim::ReducedMatrix& U,
                                       const PatchSet& to, const Eigen::MatrixXd& mass_block) {
  if (from.global_rows() != to.global_rows() || U.rows() != from.rows()) {
    throw std::invalid_argument("project_coordinates: the sizes of the two bases do not agree");
  }
  check_mass_block(to, mass_block);
  std::vector<OldPatch> old;
  for (int q = 0; q < from.patch_count(); ++q) old.push_back({&from.patch(q), from.rotation(q)});
  // Two sets: their pairs' moments are made here, once per pair.
  const auto cross_mass = [&](int p, int q) {
    const OldPatch& patch = old[static_cast<std::size_t>(q)];
    return pair_mass(to.patch(p), to.rotation(p), *patch.support, patch.rotation);
  };
  return project(old, U, to, mass_block, NewBasisMass(to, mass_block), cross_mass);
}

void project_across_rotations(const PatchSet& set,
                              const std::vector<Eigen::Matrix3d>& from_rotations,
                              sim::ReducedMatrix& U, sim::ReducedMatrix& Udot,
                              const Eigen::MatrixXd& mass_block) {
  if (static_cast<int>(from_rotations.size()) != set.patch_count() || U.rows() != set.rows() ||
      Udot.rows() != set.rows()) {
    throw std::invalid_argument("project_across_rotations: one rotation per patch, U and Udot of " +
                                std::to_string(set.rows()) + " rows");
  }
  check_mass_block(set, mass_block);
  std::vector<OldPatch> old;
  for (int q = 0; q < set.patch_count(); ++q) {
    old.push_back({&set.patch(q), from_rotations[static_cast<std::size_t>(q)]});
  }
  const NewBasisMass mass(set, mass_block);
  // One set: its moments, made with it (each step's projection made them afresh for every pair
  // of patches, twice: the resting bunny's 48 patches spent a sixth of their steps there).
  const auto cross_mass = [&](int p, int q) {
    return set.pair_mass(p, set.rotation(p), q, from_rotations[static_cast<std::size_t>(q)]);
  };
  U = project(old, U, set, mass_block, mass, cross_mass);
  Udot = project(old, Udot, set, mass_block, mass, cross_mass);
}

}  // namespace smfem::local
