#include "smfem/sim/step/cubature_kinematics.hpp"

#include <utility>

#include "smfem/polar/polar.hpp"
#include "smfem/sim/kernels/detail/reduced_dot.hpp"

namespace smfem::sim {

Matrix3<double> displacement_gradient(const CubatureRows& cubature_Y, int tet,
                                      const ReducedMatrix& U, Eigen::Index first_row,
                                      Eigen::Index rows) {
  // Nine dot products of length 4m (detail/reduced_dot.hpp). One row of Yhat at a time, three
  // accumulators: all nine at once is 5 % faster natively but 30 % slower in wasm, where V8
  // spills them.
  Matrix3<double> G;
  for (int j = 0; j < 3; ++j) {
    // G(d, j) = Yhat row 3 tet + j . u_d.
    G.col(j) = detail::reduced_dot(&cubature_Y(3 * tet + j, 0), U, first_row, rows);
  }
  return G;
}

void TetKinematics::evaluate(int tet, const Matrix3<double>& deformation) {
  store(tet, deformation, polar::signed_svd(deformation));
}

void TetKinematics::evaluate_near(int tet, const Matrix3<double>& deformation,
                                  const TetKinematics& nearby) {
  store(tet, deformation,
        polar::signed_svd(deformation, nearby.svd[static_cast<std::size_t>(tet)].V));
}

void TetKinematics::store(int tet, const Matrix3<double>& deformation,
                          const polar::SignedSvd<double>& decomposition) {
  const auto index = static_cast<std::size_t>(tet);
  F[index] = deformation;
  svd[index] = decomposition;
  s.col(tet) = polar::symmetric_stretch(decomposition);
}

void TetKinematics::swap(TetKinematics& other) noexcept {
  F.swap(other.F);
  svd.swap(other.svd);
  s.swap(other.s);
}

}  // namespace smfem::sim
