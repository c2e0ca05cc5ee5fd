#include "smfem/local/basis_change.hpp"

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

// The new basis's mass matrix [I_3 (x) mass_block, N'; N'^T, M'_c], factored.
Eigen::LLT<Eigen::MatrixXd> new_basis_mass(const PatchSet& to, const Eigen::MatrixXd& mass_block) {
  const int n = to.global_rows(), P = to.patch_count();
  const int size = 3 * n + 3 * P;
  Eigen::MatrixXd mass = Eigen::MatrixXd::Zero(size, size);
  for (int d = 0; d < 3; ++d) {
    mass.block(d * n, d * n, n, n) = mass_block;
    mass.block(d * n, 3 * n, n, 3 * P) = to.coupling(d);
    mass.block(3 * n, d * n, 3 * P, n) = to.coupling(d).transpose();
  }
  mass.bottomRightCorner(3 * P, 3 * P) = to.local_mass();
  return Eigen::LLT<Eigen::MatrixXd>(mass);
}

// The projection of the header of U, from the old basis (the global modes and `from`, whose
// coefficients are U's rows n, n + 1, ...) onto the global modes and `to` under its rotations,
// whose mass matrix is `mass`.
sim::ReducedMatrix project(const std::vector<OldPatch>& from, const sim::ReducedMatrix& U,
                           const PatchSet& to, const Eigen::MatrixXd& mass_block,
                           const Eigen::LLT<Eigen::MatrixXd>& mass) {
  const int n = to.global_rows();
  const auto Q = static_cast<int>(from.size());
  if (U.rows() != n + Q || mass_block.rows() != n || mass_block.cols() != n) {
    throw std::invalid_argument("project_coordinates: the sizes of the two bases do not agree");
  }
  const int P = to.patch_count();
  // The old displacement's products with the new basis.
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(3 * n + 3 * P);
  Eigen::MatrixXd from_coupling(n, 3);
  Eigen::VectorXd c_to_rhs = Eigen::VectorXd::Zero(3 * P);
  for (int d = 0; d < 3; ++d) {
    rhs.segment(d * n, n) = mass_block * U.col(d).head(n);
    for (int q = 0; q < Q; ++q) {
      const OldPatch& old = from[static_cast<std::size_t>(q)];
      mass_coupling(*old.support, old.rotation, d, from_coupling);
      rhs.segment(d * n, n) += from_coupling * U.row(n + q).transpose();
    }
    c_to_rhs += to.coupling(d).transpose() * U.col(d).head(n);
  }
  for (int p = 0; p < P; ++p) {
    for (int q = 0; q < Q; ++q) {
      const OldPatch& old = from[static_cast<std::size_t>(q)];
      c_to_rhs.segment<3>(3 * p) +=
          pair_mass(to.patch(p), to.rotation(p), *old.support, old.rotation) *
          U.row(n + q).transpose();
    }
  }
  rhs.tail(3 * P) = c_to_rhs;
  const Eigen::VectorXd solution = mass.solve(rhs);
  sim::ReducedMatrix result(n + P, 3);
  for (int d = 0; d < 3; ++d) result.col(d).head(n) = solution.segment(d * n, n);
  for (int p = 0; p < P; ++p) result.row(n + p) = solution.segment<3>(3 * n + 3 * p).transpose();
  return result;
}

}  // namespace

sim::ReducedMatrix project_coordinates(const PatchSet& from, const sim::ReducedMatrix& U,
                                       const PatchSet& to, const Eigen::MatrixXd& mass_block) {
  if (from.global_rows() != to.global_rows() || U.rows() != from.rows()) {
    throw std::invalid_argument("project_coordinates: the sizes of the two bases do not agree");
  }
  std::vector<OldPatch> old;
  for (int q = 0; q < from.patch_count(); ++q) old.push_back({&from.patch(q), from.rotation(q)});
  return project(old, U, to, mass_block, new_basis_mass(to, mass_block));
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
  std::vector<OldPatch> old;
  for (int q = 0; q < set.patch_count(); ++q) {
    old.push_back({&set.patch(q), from_rotations[static_cast<std::size_t>(q)]});
  }
  const Eigen::LLT<Eigen::MatrixXd> mass = new_basis_mass(set, mass_block);
  U = project(old, U, set, mass_block, mass);
  Udot = project(old, Udot, set, mass_block, mass);
}

}  // namespace smfem::local
