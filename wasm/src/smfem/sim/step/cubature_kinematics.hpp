#pragma once
// Deformation gradients of the cubature tets as functions of the reduced coordinates, the map
// u -> F_c(u) of reduced_model.hpp with U the 4m x 3 matrix of u and Yhat = cubature_Y:
//
//   F_c(d, j) = delta_dj + u_d . Y_c(:, j) = delta_dj + (Yhat rows 3c..3c+2 * U)(j, d).
//
// Per tet and by dot products in a fixed order (no matrix product kernels, no allocation), so each
// tet's result is the same however the tets are split among threads.
#include <vector>

#include <Eigen/Core>

#include "smfem/polar/signed_svd.hpp"
#include "smfem/polar/types.hpp"

namespace smfem::sim {

using CubatureRows = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ReducedMatrix = Eigen::Matrix<double, Eigen::Dynamic, 3>;  // 4m x 3, column d is u_d
using StretchField = Eigen::Matrix<double, 6, Eigen::Dynamic>;   // one 6-vector per tet

// F_c - I, linear in U; also the change of F_c along a direction dU. Only the rows of U
// [first_row, first_row + rows) enter, against Yhat's columns [0, rows): a model of several bodies
// stores each tet's Yhat row over its own body's modes only (reduced_model.hpp).
Matrix3<double> displacement_gradient(const CubatureRows& cubature_Y, int tet,
                                      const ReducedMatrix& U, Eigen::Index first_row,
                                      Eigen::Index rows);
inline Matrix3<double> displacement_gradient(const CubatureRows& cubature_Y, int tet,
                                             const ReducedMatrix& U) {
  return displacement_gradient(cubature_Y, tet, U, 0, U.rows());
}

// F_t, its signed SVD and its stretch s(F_t) (polar/stretch_vector.hpp) for every tet, at one
// configuration. The solvers keep two: at the current iterate and at a line-search trial,
// swapped when a trial is accepted.
struct TetKinematics {
  std::vector<Matrix3<double>> F;
  std::vector<polar::SignedSvd<double>> svd;
  StretchField s;

  explicit TetKinematics(int tet_count = 0)
      : F(static_cast<std::size_t>(tet_count)),
        svd(static_cast<std::size_t>(tet_count)),
        s(StretchField::Zero(6, tet_count)) {}

  // Stores F_t = deformation and its SVD and stretch.
  void evaluate(int tet, const Matrix3<double>& deformation);
  // The same, starting the SVD from nearby's (a line-search trial from the current iterate:
  // 25-35 % faster; the same to rounding, and deterministic, as nearby is).
  void evaluate_near(int tet, const Matrix3<double>& deformation, const TetKinematics& nearby);
  void swap(TetKinematics& other) noexcept;

 private:
  void store(int tet, const Matrix3<double>& deformation,
             const polar::SignedSvd<double>& decomposition);
};

}  // namespace smfem::sim
