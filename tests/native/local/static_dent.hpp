#pragma once
// The reference the tests of local/ compare dents with: the block of block_mesh.hpp solved
// statically by linear finite elements on its whole mesh.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Core>
#include <Eigen/SparseCholesky>

#include "smfem/fem/linear_tet.hpp"
#include "smfem/local/local_basis.hpp"
#include "smfem/sim/fixtures/box_model.hpp"

namespace smfem::local::test {

// Linear elasticity's stiffness on the tets (Voigt strains, engineering shears).
inline Eigen::SparseMatrix<double> stiffness(const sim::BoxModel& box, double youngs,
                                             double poisson) {
  const double lambda = youngs * poisson / ((1 + poisson) * (1 - 2 * poisson));
  const double mu = youngs / (2 * (1 + poisson));
  Eigen::Matrix<double, 6, 6> C = Eigen::Matrix<double, 6, 6>::Zero();
  C.topLeftCorner<3, 3>().setConstant(lambda);
  C.topLeftCorner<3, 3>().diagonal().array() += 2 * mu;
  C.bottomRightCorner<3, 3>().diagonal().setConstant(mu);
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index t = 0; t < box.tets.rows(); ++t) {
    fem::TetCorners X;
    for (int c = 0; c < 4; ++c) X.row(c) = box.rest.row(box.tets(t, c));
    const double volume = std::abs(fem::linear_tet_volume(X));
    const Eigen::Matrix<double, 3, 4> gradients = fem::linear_tet_dphi_dX(X).transpose();
    Eigen::Matrix<double, 6, 12> B = Eigen::Matrix<double, 6, 12>::Zero();
    for (int c = 0; c < 4; ++c) {
      const Eigen::Vector3d g = gradients.col(c);
      B(0, 3 * c) = g.x();
      B(1, 3 * c + 1) = g.y();
      B(2, 3 * c + 2) = g.z();
      B(3, 3 * c) = g.y(), B(3, 3 * c + 1) = g.x();      // gamma_xy
      B(4, 3 * c + 1) = g.z(), B(4, 3 * c + 2) = g.y();  // gamma_yz
      B(5, 3 * c) = g.z(), B(5, 3 * c + 2) = g.x();      // gamma_xz
    }
    const Eigen::Matrix<double, 12, 12> K = volume * B.transpose() * C * B;
    for (int i = 0; i < 12; ++i) {
      for (int k = 0; k < 12; ++k) {
        entries.emplace_back(3 * box.tets(t, i / 3) + i % 3, 3 * box.tets(t, k / 3) + k % 3,
                             K(i, k));
      }
    }
  }
  Eigen::SparseMatrix<double> K(3 * box.rest.rows(), 3 * box.rest.rows());
  K.setFromTriplets(entries.begin(), entries.end());
  return K;
}

// The block's static displacement (nv x 3, row-major flattened) under `force` on the patch's
// vertices (per unit area, times each vertex's area), its bottom face held.
inline Eigen::VectorXd static_dent(const sim::BoxModel& box, const LoadPatch& patch,
                                   const Eigen::Vector3d& force, double youngs, double poisson) {
  const Eigen::SparseMatrix<double> K = stiffness(box, youngs, poisson);
  std::vector<int> free;
  for (Eigen::Index v = 0; v < box.rest.rows(); ++v) {
    if (box.rest(v, 1) > 1e-12) {
      for (int d = 0; d < 3; ++d) free.push_back(static_cast<int>(3 * v + d));
    }
  }
  Eigen::SparseMatrix<double> selection(K.rows(), static_cast<Eigen::Index>(free.size()));
  std::vector<Eigen::Triplet<double>> ones;
  for (std::size_t i = 0; i < free.size(); ++i)
    ones.emplace_back(free[i], static_cast<int>(i), 1.0);
  selection.setFromTriplets(ones.begin(), ones.end());
  Eigen::VectorXd f = Eigen::VectorXd::Zero(K.rows());
  for (std::size_t k = 0; k < patch.vertices.size(); ++k) {
    f.segment<3>(3 * patch.vertices[k]) += patch.areas[k] * force;
  }
  const Eigen::SparseMatrix<double> K_free = selection.transpose() * K * selection;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(K_free);
  EXPECT_EQ(solver.info(), Eigen::Success);
  return selection * solver.solve(selection.transpose() * f);
}

}  // namespace smfem::local::test
