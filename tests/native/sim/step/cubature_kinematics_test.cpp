#include "smfem/sim/step/cubature_kinematics.hpp"

#include <gtest/gtest.h>

namespace smfem::test {
namespace {

// The vectorized dot products against Yhat rows times U, for every tet, with 4m a multiple of
// the four lanes (every asset) and not (the scalar tail).
TEST(CubatureKinematics, DisplacementGradientIsYhatRowsTimesU) {
  for (const int columns : {4, 64, 7}) {
    const int tets = 3;
    const sim::CubatureRows Y = sim::CubatureRows::Random(3 * tets, columns);
    const sim::ReducedMatrix U = sim::ReducedMatrix::Random(columns, 3);
    for (int tet = 0; tet < tets; ++tet) {
      // G(d, j) = Yhat row 3 tet + j . U column d.
      const Eigen::Matrix3d expected = (Y.middleRows(3 * tet, 3) * U).transpose();
      const Eigen::Matrix3d G = sim::displacement_gradient(Y, tet, U);
      EXPECT_LT((G - expected).cwiseAbs().maxCoeff(), 1e-14 * columns)
          << "4m = " << columns << ", tet " << tet;
    }
  }
}

}  // namespace
}  // namespace smfem::test
