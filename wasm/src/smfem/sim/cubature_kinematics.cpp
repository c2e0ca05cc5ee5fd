#include "smfem/sim/cubature_kinematics.hpp"

#include <utility>

#include "smfem/polar/polar.hpp"

namespace smfem::sim {

void TetKinematics::evaluate(int tet, const Matrix3<double>& deformation) {
  const auto index = static_cast<std::size_t>(tet);
  F[index] = deformation;
  svd[index] = polar::signed_svd(F[index]);
  s.col(tet) = polar::symmetric_stretch(svd[index]);
}

void TetKinematics::swap(TetKinematics& other) noexcept {
  F.swap(other.F);
  svd.swap(other.svd);
  s.swap(other.s);
}

}  // namespace smfem::sim
