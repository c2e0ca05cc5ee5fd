#include "smfem/local/basis_change.hpp"

#include <stdexcept>

#include <Eigen/Cholesky>

namespace smfem::local {

sim::ReducedMatrix project_coordinates(const PatchSet& from, const sim::ReducedMatrix& U,
                                       const PatchSet& to, const Eigen::MatrixXd& mass_block) {
  const int n = to.global_rows();
  if (from.global_rows() != n || U.rows() != from.rows() || mass_block.rows() != n ||
      mass_block.cols() != n) {
    throw std::invalid_argument("project_coordinates: the sizes of the two bases do not agree");
  }
  const int P = to.patch_count(), Q = from.patch_count();
  const int size = 3 * n + 3 * P;
  // The new basis's mass matrix and the old displacement's products with the new basis.
  Eigen::MatrixXd mass = Eigen::MatrixXd::Zero(size, size);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(size);
  Eigen::VectorXd c_from(3 * Q);
  for (int q = 0; q < Q; ++q) c_from.segment<3>(3 * q) = U.row(n + q).transpose();
  Eigen::VectorXd c_to_rhs = Eigen::VectorXd::Zero(3 * P);
  for (int d = 0; d < 3; ++d) {
    mass.block(d * n, d * n, n, n) = mass_block;
    mass.block(d * n, 3 * n, n, 3 * P) = to.coupling(d);
    mass.block(3 * n, d * n, 3 * P, n) = to.coupling(d).transpose();
    rhs.segment(d * n, n) = mass_block * U.col(d).head(n) + from.coupling(d) * c_from;
    c_to_rhs += to.coupling(d).transpose() * U.col(d).head(n);
  }
  mass.bottomRightCorner(3 * P, 3 * P) = to.local_mass();
  for (int p = 0; p < P; ++p) {
    for (int q = 0; q < Q; ++q) {
      c_to_rhs.segment<3>(3 * p) +=
          pair_mass(to.patch(p), to.rotation(p), from.patch(q), from.rotation(q)) *
          c_from.segment<3>(3 * q);
    }
  }
  rhs.tail(3 * P) = c_to_rhs;
  const Eigen::VectorXd solution = mass.llt().solve(rhs);
  sim::ReducedMatrix result(n + P, 3);
  for (int d = 0; d < 3; ++d) result.col(d).head(n) = solution.segment(d * n, n);
  for (int p = 0; p < P; ++p) result.row(n + p) = solution.segment<3>(3 * n + 3 * p).transpose();
  return result;
}

}  // namespace smfem::local
