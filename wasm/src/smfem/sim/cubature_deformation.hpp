#pragma once
// The subspace's map from reduced coordinates to the cubature tets' deformation gradients
// (cubature_kinematics.hpp), as the steps see it (discretization.hpp).
#include "smfem/sim/cubature_kinematics.hpp"
#include "smfem/sim/discretization.hpp"

namespace smfem::sim {

class CubatureDeformation final : public TetDeformation {
 public:
  explicit CubatureDeformation(const CubatureRows& cubature_Y) : cubature_Y_(cubature_Y) {}
  Matrix3<double> displacement_gradient(int tet, const ReducedMatrix& U) const override {
    return sim::displacement_gradient(cubature_Y_, tet, U);
  }

 private:
  const CubatureRows& cubature_Y_;
};

}  // namespace smfem::sim
