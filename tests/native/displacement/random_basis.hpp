#pragma once
// Random displacement bases and coordinates for the tests of wasm/src/smfem/displacement/.
#include <random>

#include <Eigen/Core>

#include "smfem/displacement/basis_deformation.hpp"
#include "smfem/full/full_model.hpp"

namespace smfem::displacement::test {

// Entries uniform in [-scale, scale].
inline Eigen::VectorXd random_vector(Eigen::Index size, double scale, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(-scale, scale);
  return Eigen::VectorXd::NullaryExpr(size, [&] { return uniform(generator); });
}

// k smooth random fields (3n x k): each a random affine map of the positions plus a random
// quadratic term, so that every tet deforms; zero on the pinned vertices.
inline BasisRows random_basis(const full::FullModel& model, int k, unsigned seed) {
  BasisRows basis = BasisRows::Zero(3 * model.vertex_count(), k);
  for (int i = 0; i < k; ++i) {
    const Eigen::VectorXd c = random_vector(12, 1.0, seed + 97u * static_cast<unsigned>(i));
    for (int v = 0; v < model.vertex_count(); ++v) {
      const Eigen::Vector3d X = model.positions.row(v).transpose();
      const Eigen::Matrix3d A = c.head<9>().reshaped(3, 3);
      basis.block<3, 1>(3 * v, i) = A * X + c.tail<3>() * X.squaredNorm();
    }
  }
  for (const int v : model.pinned) basis.middleRows<3>(3 * v).setZero();
  return basis;
}

// q as the steps hold it: column 0 of a k x 3 matrix (basis_deformation.hpp).
inline sim::ReducedMatrix coordinates(const Eigen::VectorXd& q) {
  sim::ReducedMatrix U = sim::ReducedMatrix::Zero(q.size(), 3);
  U.col(0) = q;
  return U;
}

}  // namespace smfem::displacement::test
