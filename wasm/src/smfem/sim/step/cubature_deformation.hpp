#pragma once
// The subspace's map from reduced coordinates to the cubature tets' deformation gradients
// (cubature_kinematics.hpp), as the steps see it (discretization.hpp). In a model of several
// bodies each tet reads only its own body's rows of U.
#include <vector>

#include "smfem/sim/model/reduced_model.hpp"
#include "smfem/sim/step/cubature_kinematics.hpp"
#include "smfem/sim/step/discretization.hpp"

namespace smfem::sim {

class CubatureDeformation final : public TetDeformation {
 public:
  explicit CubatureDeformation(const ReducedModel& model) : cubature_Y_(model.cubature_Y) {
    for (const ReducedModel::Body& body : model.bodies) {
      body_rows_.resize(static_cast<std::size_t>(body.first_tet + body.tets));
      for (int t = body.first_tet; t < body.first_tet + body.tets; ++t) {
        body_rows_[static_cast<std::size_t>(t)] = {4 * body.first_mode, 4 * body.modes};
      }
    }
  }
  Matrix3<double> displacement_gradient(int tet, const ReducedMatrix& U) const override {
    if (body_rows_.empty()) return sim::displacement_gradient(cubature_Y_, tet, U);
    const Rows& rows = body_rows_[static_cast<std::size_t>(tet)];
    return sim::displacement_gradient(cubature_Y_, tet, U, rows.first, rows.count);
  }

 private:
  struct Rows {
    int first = 0, count = 0;
  };
  const CubatureRows& cubature_Y_;
  std::vector<Rows> body_rows_;  // per tet; empty for a single body
};

}  // namespace smfem::sim
